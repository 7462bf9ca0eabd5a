import TouchCore

/// Keeps anomaly warnings from flooding the journal: at most `burst` lines per `window`;
/// the rest are counted, and the count is reported with the next line let through.
///
/// Time is given by the caller (the daemon's monotonic clock), so the limiter itself has none.
public struct AnomalyLogLimiter: Sendable {
    /// The most lines let through in one window.
    public let burst: Int
    /// The window's length.
    public let window: TimeSpan
    /// When the current window began (`nil`: no line yet).
    private var windowStart: LoopInstant?
    private var inWindow = 0
    private var suppressed = 0

    /// A limiter; the defaults let 20 lines through a minute.
    public init(burst: Int = 20, window: TimeSpan = 60) {
        self.burst = burst
        self.window = window
    }

    /// The lines to log for `anomaly` at `now`: nothing while the window is used up, else the
    /// anomaly, preceded by how many were held back since the last one logged.
    public mutating func admit(_ anomaly: String, at now: LoopInstant) -> [String] {
        if windowStart.map({ now.span(since: $0) >= window }) ?? true {
            windowStart = now
            inWindow = 0
        }
        guard inWindow < burst else {
            suppressed += 1
            return []
        }
        inWindow += 1
        var lines: [String] = []
        if suppressed > 0 {
            lines.append("\(suppressed) more anomal\(suppressed == 1 ? "y was" : "ies were") not logged (at most \(burst) are logged every \(formatNumber(window.seconds)) s)")
            suppressed = 0
        }
        lines.append(anomaly)
        return lines
    }
}
