#if canImport(Glibc)
import Glibc
#endif
import TouchEvdev

/// The kernel's monotonic clock, the one ``EvdevDevice`` asks evdev to stamp events with.
///
/// For events touchd makes itself (a removed device's cancelled contacts), so their times compare
/// with the kernel's.
public enum MonotonicClock {
    /// `clock_gettime(CLOCK_MONOTONIC)` as an ``EventTime``.
    public static func now() -> EventTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return EventTime(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000)
    }
}
