#if canImport(Glibc)
import Glibc
#endif

/// What the process was given and is, and how it ends: its environment, its number, its end.
public enum ProcessContext {
    /// The environment variable `name`'s value, or `nil` when it is not set (`getenv`).
    public static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The values of the environment variables `names` that are set, by name (`getenv`).
    public static func environment(_ names: [String]) -> [String: String] {
        var variables: [String: String] = [:]
        for name in names { variables[name] = environment(name) }
        return variables
    }

    /// The process's id (`getpid`; it cannot fail).
    public static var id: Int32 { getpid() }

    /// Ends the process with `status` (`exit`: the C runtime's handlers run and buffered output is
    /// flushed). For tools; the daemon ends by returning from its loop.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Ends the process at once with `SIGABRT` (`abort`): a fuzzer's finding, for its driver to keep.
    public static func abort() -> Never { Glibc.abort() }
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), for benchmarks: what a
/// piece of work costs whatever else runs on the machine.
public enum ThreadCPUClock {
    /// Nanoseconds of CPU this thread has used. Reading it cannot fail on Linux.
    public static var nanoseconds: UInt64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(clamping: ts.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: ts.tv_nsec)
    }
}

/// A C function of the running program found by name (`dlsym(RTLD_DEFAULT, name)`): a benchmark's
/// preloaded allocation counter.
public enum DynamicSymbol {
    /// The address of the symbol `name` among the program's and its preloaded libraries', or `nil`.
    public static func address(of name: String) -> UnsafeMutableRawPointer? { dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) }
}
