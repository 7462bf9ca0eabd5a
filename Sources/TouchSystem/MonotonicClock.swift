#if canImport(Glibc)
import Glibc
#endif

/// The kernel's monotonic clock (`CLOCK_MONOTONIC`): the clock evdev stamps live events with, and
/// the one clock touchd reads. Pure code never reads it; the shell injects it where time is needed.
public enum MonotonicClock {
    /// Microseconds since an arbitrary start (boot), as evdev's event timestamps count them.
    public static func microseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000 &+ Int64(ts.tv_nsec) / 1_000
    }

    /// Seconds since the same start, for pacing timers.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
