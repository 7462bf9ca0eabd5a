import TouchCore

/// When a device node that could not be opened is tried again: after `firstDelay`, then
/// each delay `factor` times the last, capped at `maximumDelay`, for at most `maximumAttempts`
/// attempts in all (the first included). A node udev announced may not exist yet, or not yet carry
/// the permissions udev's rules give it.
public struct OpenRetryPolicy: Hashable, Sendable {
    /// The wait after the first failed attempt.
    public var firstDelay: TimeSpan
    /// How much longer each wait is than the last.
    public var factor: Double
    /// The longest wait.
    public var maximumDelay: TimeSpan
    /// The most attempts in all, the first included.
    public var maximumAttempts: Int

    /// A policy; the defaults try 12 times over about 26 seconds.
    public init(firstDelay: TimeSpan = 0.05, factor: Double = 2, maximumDelay: TimeSpan = 5, maximumAttempts: Int = 12) {
        self.firstDelay = firstDelay
        self.factor = factor
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed; nil when
    /// there are no attempts left.
    public func delay(afterAttempt attempt: Int) -> TimeSpan? {
        guard attempt >= 1, attempt < maximumAttempts else { return nil }
        var delay = firstDelay
        for _ in 1..<attempt { delay = min(delay * factor, maximumDelay) }
        return min(delay, maximumDelay)
    }

    /// The time from the first failure until the last attempt.
    public var totalWait: TimeSpan { (1..<max(maximumAttempts, 1)).compactMap { delay(afterAttempt: $0) }.reduce(.zero, +) }
}
