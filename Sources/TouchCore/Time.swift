/// A span of time, in seconds: how long a long press lasts, the pause between two taps, the gap
/// between two input times, a timer's delay. The counterpart of UIKit's `TimeInterval`.
///
/// Its domain is any `Double`: a layout's values are checked against their documented domains when
/// read (`NumberDomain`); NaN and positive infinity mean "never" to a timer, zero and less "now"
/// (``microseconds``).
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// The span in seconds.
    public var seconds: Double

    /// A span of `seconds`.
    public init(seconds: Double) { self.seconds = seconds }

    /// A span of `microseconds` (a kernel clock's unit).
    public init(microseconds: Int64) { seconds = Double(microseconds) / 1_000_000 }

    public init(floatLiteral value: Double) { seconds = value }
    public init(integerLiteral value: Int) { seconds = Double(value) }

    /// No time at all.
    public static let zero = TimeSpan(seconds: 0)

    /// The longest delay a timer is set for: a hundred years, "never" in practice, and far inside
    /// what `Int64` microseconds and `timerfd`'s `timespec` hold.
    public static let longest = TimeSpan(seconds: 100.0 * 365 * 86_400)

    /// ``longest`` in microseconds.
    public static let longestMicroseconds = Int64(100 * 365 * 86_400) * 1_000_000

    /// The span as a timer's delay in whole microseconds (rounded up, so that a timer never fires
    /// before its time), from 0 to ``longestMicroseconds``; nil for "never" (NaN, positive infinity).
    public var microseconds: Int64? {
        if seconds.isNaN || seconds == .infinity { return nil }
        guard seconds > 0 else { return 0 }
        guard seconds < Self.longest.seconds else { return Self.longestMicroseconds }
        // Below `longest` the product is far inside Int64: the conversion always succeeds.
        return Int64(exactly: (seconds * 1_000_000).rounded(.up)) ?? Self.longestMicroseconds
    }

    /// The count of microseconds `start` plus this span (rounded up, as ``microseconds``),
    /// saturating at the end of `Int64`; nil for "never". The one addition of a span to a clock's
    /// microseconds (``LoopInstant``, the kernel's event times).
    public func added(toMicroseconds start: Int64) -> Int64? {
        guard let delay = microseconds else { return nil }
        let (sum, overflow) = start.addingReportingOverflow(delay)
        return overflow ? Int64.max : sum
    }

    // Every comparison is the `Double`'s, so a NaN span compares as NaN does (false), not as
    // `Comparable`'s defaults would (`<=` as "not greater").
    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds < b.seconds }
    public static func <= (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds <= b.seconds }
    public static func > (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds > b.seconds }
    public static func >= (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds >= b.seconds }
    public static func + (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(seconds: a.seconds + b.seconds) }
    public static func - (a: TimeSpan, b: TimeSpan) -> TimeSpan { TimeSpan(seconds: a.seconds - b.seconds) }
    /// The span `factor` times as long (a replay's speed scales spans of input time so).
    public static func * (span: TimeSpan, factor: Double) -> TimeSpan { TimeSpan(seconds: span.seconds * factor) }
    /// The span `divisor` times shorter.
    public static func / (span: TimeSpan, divisor: Double) -> TimeSpan { TimeSpan(seconds: span.seconds / divisor) }

    public var description: String { "\(seconds) s" }
}

/// A point on the input's timeline, in seconds since its clock's origin: the counterpart of
/// `UITouch.timestamp`.
///
/// Input time comes from the kernel's event timestamps (a live device's `CLOCK_MONOTONIC`, a
/// recording's own clock), never from a clock the core reads: tap counting, recognizer deadlines
/// and display ticks are all counted in it, so a replay is reproducible. Only differences
/// (``TimeSpan``) matter; ``distantPast`` and ``distantFuture`` stand before and after any time.
public struct InputTime: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// Seconds since the input clock's origin.
    public var seconds: Double

    /// The time `seconds` after the clock's origin.
    public init(seconds: Double) { self.seconds = seconds }

    /// The time `microseconds` after the clock's origin (a kernel clock's unit).
    public init(microseconds: Int64) { seconds = Double(microseconds) / 1_000_000 }

    public init(floatLiteral value: Double) { seconds = value }
    public init(integerLiteral value: Int) { seconds = Double(value) }

    /// Before any input time (a queue entry due at once, nothing sent yet).
    public static let distantPast = InputTime(seconds: -.infinity)
    /// After any input time (everything queued is due).
    public static let distantFuture = InputTime(seconds: .infinity)

    /// The latest time before this one: what is due strictly before it is due by it.
    public var justBefore: InputTime { InputTime(seconds: seconds.nextDown) }

    // Every comparison is the `Double`'s: a NaN time (a deadline of a NaN span) is never due, as
    // `Comparable`'s default `<=` ("not greater") would have it.
    public static func < (a: InputTime, b: InputTime) -> Bool { a.seconds < b.seconds }
    public static func <= (a: InputTime, b: InputTime) -> Bool { a.seconds <= b.seconds }
    public static func > (a: InputTime, b: InputTime) -> Bool { a.seconds > b.seconds }
    public static func >= (a: InputTime, b: InputTime) -> Bool { a.seconds >= b.seconds }
    /// The time `span` later.
    public static func + (time: InputTime, span: TimeSpan) -> InputTime { InputTime(seconds: time.seconds + span.seconds) }
    /// Moves `time` on by `span`.
    public static func += (time: inout InputTime, span: TimeSpan) { time = time + span }
    /// The time `span` earlier.
    public static func - (time: InputTime, span: TimeSpan) -> InputTime { InputTime(seconds: time.seconds - span.seconds) }
    /// The span from `earlier` to `later` (negative when `later` is the earlier).
    public static func - (later: InputTime, earlier: InputTime) -> TimeSpan { TimeSpan(seconds: later.seconds - earlier.seconds) }

    public var description: String { "\(seconds)" }
}
