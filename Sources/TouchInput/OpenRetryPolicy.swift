/// When a device node that could not be opened is tried again: after `firstDelay` seconds, then
/// each delay `factor` times the last, capped at `maximumDelay`, for at most `maximumAttempts`
/// attempts in all (the first included). A node udev announced may not exist yet, or not yet carry
/// the permissions udev's rules give it.
public struct OpenRetryPolicy: Hashable, Sendable {
    /// The wait after the first failed attempt, in seconds.
    public var firstDelay: Double
    /// How much longer each wait is than the last.
    public var factor: Double
    /// The longest wait, in seconds.
    public var maximumDelay: Double
    /// The most attempts in all, the first included.
    public var maximumAttempts: Int

    /// A policy; the defaults try 12 times over about 26 seconds.
    public init(firstDelay: Double = 0.05, factor: Double = 2, maximumDelay: Double = 5, maximumAttempts: Int = 12) {
        self.firstDelay = firstDelay
        self.factor = factor
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed; nil when
    /// there are no attempts left.
    public func delay(afterAttempt attempt: Int) -> Double? {
        guard attempt >= 1, attempt < maximumAttempts else { return nil }
        var delay = firstDelay
        for _ in 1..<attempt { delay = min(delay * factor, maximumDelay) }
        return min(delay, maximumDelay)
    }

    /// The time from the first failure until the last attempt.
    public var totalWait: Double { (1..<max(maximumAttempts, 1)).compactMap { delay(afterAttempt: $0) }.reduce(0, +) }
}
