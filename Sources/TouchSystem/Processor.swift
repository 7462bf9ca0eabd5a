#if canImport(Glibc)
import Glibc
#endif

/// The processor the daemon runs on, as the scheduler shares it.
public enum Processor {
    /// Lets another runnable process run now (`sched_yield`), the daemon going on right after:
    /// on a single-processor board, a client woken by what the daemon just wrote reads it at once
    /// instead of after the rest of the daemon's work. It cannot fail on Linux.
    public static func yield() { _ = sched_yield() }
}
