import TouchCore
#if canImport(Glibc)
import Glibc
#endif

/// The processor the daemon runs on, as the scheduler shares it.
public enum Processor {
    /// Lets another runnable process run now (`sched_yield`), the daemon going on right after:
    /// on a single-processor board, a client woken by what the daemon just wrote reads it at once
    /// instead of after the rest of the daemon's work. It cannot fail on Linux.
    public static func yield() { _ = sched_yield() }

    /// Sleeps for `span` (`nanosleep`, slept on after a signal until the time is up); a negative,
    /// zero or non-finite span returns at once, and one past a day sleeps a day. For tools
    /// waiting between attempts; the daemon never sleeps, it waits in its event loop.
    public static func sleep(for span: TimeSpan) {
        let seconds = span.seconds
        guard seconds.isFinite, seconds > 0 else { return }
        let bounded = min(seconds, 86_400)
        let whole = bounded.rounded(.down)
        var rest = timespec(tv_sec: Int(whole), tv_nsec: Int((bounded - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&rest, &remaining) == -1 && errno == EINTR { rest = remaining }
    }
}
