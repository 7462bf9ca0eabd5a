import TouchCore

/// A point in time on the kernel's input clock, in microseconds.
///
/// Live devices report `CLOCK_MONOTONIC` (touchd sets it with `EVIOCSCLOCKID`); recordings report
/// whatever clock they were made with (often the epoch). Only differences matter to the pipeline.
public struct EventTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since the clock's origin.
    public var microseconds: Int64

    /// A time in microseconds.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// A time from seconds and microseconds, as `struct timeval` holds it. A time beyond what
    /// 64-bit microseconds hold (about 292,000 years either way; no real clock) is clamped to it
    /// rather than trapping.
    public init(seconds: Int64, microseconds: Int64) {
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflowedSum) = whole.addingReportingOverflow(microseconds)
        if overflowed || overflowedSum {
            self.microseconds = seconds < 0 ? Int64.min : Int64.max
        } else {
            self.microseconds = sum
        }
    }

    /// The time on the core's input timeline (seconds, as UIKit's `UITouch.timestamp` reports it).
    public var inputTime: InputTime { InputTime(microseconds: microseconds) }

    /// The time `span` later (rounded up to the microsecond), saturating at the end of `Int64`; the
    /// end of `Int64` for a span of NaN or infinity.
    public func advanced(by span: TimeSpan) -> EventTime {
        EventTime(microseconds: span.added(toMicroseconds: microseconds) ?? Int64.max)
    }

    /// The span from `start` to this time (negative when this time is the earlier).
    public func span(since start: EventTime) -> TimeSpan {
        TimeSpan(seconds: (Double(microseconds) - Double(start.microseconds)) / 1_000_000)
    }

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// `seconds.micros`, as evemu writes it.
    public var description: String {
        let s = microseconds / 1_000_000
        let us = abs(microseconds % 1_000_000)
        let frac = String(us)
        return "\(s).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}

/// One kernel input event: the Swift counterpart of `struct input_event`.
///
/// Every source (a libevdev device, an evemu recording, a libinput-record file) produces these,
/// and they all go through the same decoders (``EventStreamDecoder``).
public struct InputEvent: Hashable, Sendable {
    /// When the kernel stamped the event.
    public var time: EventTime
    /// The event type (`EV_SYN`, `EV_KEY`, `EV_ABS`, ...).
    public var type: UInt16
    /// The event code within its type (`ABS_MT_SLOT`, `BTN_TOUCH`, ...).
    public var code: UInt16
    /// The value: an axis position, 1/0 for a key press/release, a tracking id, ...
    public var value: Int32

    /// An event from its four fields.
    public init(time: EventTime, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}
