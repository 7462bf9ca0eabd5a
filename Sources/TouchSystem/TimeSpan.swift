/// Spans of time as touchd's timers take them: seconds as a `Double` from anywhere (a layout's
/// long-press duration, a recording's gaps, a retry policy), converted once to whole microseconds
/// without ever trapping.
///
/// The domain of a delay: any `Double`. NaN and positive infinity mean "never" (no deadline); zero,
/// negative values and negative infinity mean "now"; anything longer than ``longest`` (a hundred
/// years) is that long. Whatever a layout, a request or a recording holds, a timer is set or left
/// unset: it never stops the daemon (`docs/limits.md`).
public enum TimeSpan {
    /// The longest delay a timer is set for, in seconds: a hundred years, "never" in practice, and
    /// far inside what `Int64` microseconds and `timerfd`'s `timespec` hold.
    public static let longestSeconds = 100.0 * 365 * 86_400

    /// ``longestSeconds`` in microseconds.
    public static let longest = Int64(100 * 365 * 86_400) * 1_000_000

    /// `seconds` as a delay in whole microseconds (rounded up, so that a timer never fires before
    /// its time), from 0 to ``longest``; nil for "never" (NaN, positive infinity).
    public static func microseconds(_ seconds: Double) -> Int64? {
        if seconds.isNaN || seconds == .infinity { return nil }
        guard seconds > 0 else { return 0 }
        guard seconds < longestSeconds else { return longest }
        // Below `longestSeconds` the product is far inside Int64: the conversion always succeeds.
        return Int64(exactly: (seconds * 1_000_000).rounded(.up)) ?? longest
    }

    /// The time `seconds` after `start` (microseconds on the same clock), saturating at the end of
    /// `Int64`; nil for "never".
    public static func adding(_ seconds: Double, to start: Int64) -> Int64? {
        guard let delay = microseconds(seconds) else { return nil }
        let (sum, overflow) = start.addingReportingOverflow(delay)
        return overflow ? Int64.max : sum
    }

    /// The microseconds from `start` to `end`, saturating (never negative: 0 when `end` has passed).
    public static func until(_ end: Int64, from start: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        if overflow { return end > start ? Int64.max : 0 }
        return max(difference, 0)
    }
}
