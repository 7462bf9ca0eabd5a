import TouchEvdev
import TouchSystem

extension TimeSource {
    /// Now, as an ``EventTime``: the time type evdev stamps events with, so that events touchd makes
    /// itself (a removed device's cancelled contacts, a shake's end) compare with the kernel's.
    public var eventTime: EventTime { EventTime(microseconds: now.microseconds) }
}
