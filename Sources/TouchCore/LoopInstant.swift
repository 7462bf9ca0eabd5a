/// A point on the event loop's clock, in whole microseconds: when a timer fires, when a client
/// last spoke, when a frame arrived. The core never reads a clock: the shell reads this one
/// (TouchSystem's `TimeSource`) and hands its instants to the policies that need them.
///
/// The loop's clock is the kernel's monotonic clock, which also stamps live input; it is not the
/// input's timeline (a recording's time, scaled by the replay's speed), which the core counts in
/// ``InputTime``. Arithmetic saturates: a span of any value (``TimeSpan``) moves an instant by at
/// most ``TimeSpan/longest`` and never past the ends of `Int64`, so no instant traps.
public struct LoopInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the clock's origin (boot, for the kernel's monotonic clock).
    public var microseconds: Int64

    /// The instant `microseconds` after the clock's origin.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The clock's origin.
    public static let origin = LoopInstant(microseconds: 0)

    /// The instant `span` later (rounded up to the microsecond, so a timer never fires early;
    /// saturating at the end of `Int64`); nil for "never" (a span of NaN or infinity).
    public func advanced(by span: TimeSpan) -> LoopInstant? {
        span.added(toMicroseconds: microseconds).map(LoopInstant.init(microseconds:))
    }

    /// The microseconds from `start` to this instant, saturating; 0 when this instant is the earlier.
    public func microseconds(since start: LoopInstant) -> Int64 {
        let (difference, overflow) = microseconds.subtractingReportingOverflow(start.microseconds)
        if overflow { return microseconds > start.microseconds ? Int64.max : 0 }
        return max(difference, 0)
    }

    /// The time from `start` to this instant (zero when this instant is the earlier).
    public func span(since start: LoopInstant) -> TimeSpan { TimeSpan(microseconds: microseconds(since: start)) }

    /// This instant on the input's timeline: the two agree for live devices, which the kernel
    /// stamps with the monotonic clock the loop reads (`EVIOCSCLOCKID`); input time before any
    /// event arrived is read so.
    public var inputTime: InputTime { InputTime(microseconds: microseconds) }

    public static func < (a: LoopInstant, b: LoopInstant) -> Bool { a.microseconds < b.microseconds }

    public var description: String { "\(microseconds) µs" }
}
