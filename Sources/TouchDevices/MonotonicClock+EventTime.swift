import TouchEvdev
import TouchSystem

extension MonotonicClock {
    /// Now, as an ``EventTime``: the time type evdev stamps events with, so that events touchd makes
    /// itself (a removed device's cancelled contacts) compare with the kernel's.
    public static func now() -> EventTime { EventTime(microseconds: microseconds()) }
}
