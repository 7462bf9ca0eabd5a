import Logging
import TouchInput
import TouchSystem

/// The running daemon's observer: what it does goes to the log (swift-log, the journal under
/// systemd) and to systemd's service manager (`READY=1`, `STATUS=`, `RELOADING=1`, `STOPPING=1`).
/// Anomalies are rate-limited (``AnomalyLogLimiter``) on the given clock.
public final class ServiceReporter: DaemonObserver {
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let clock: any TimeSource
    private var limiter = AnomalyLogLimiter()

    /// A reporter writing to `logger` and `notifier`, timing its anomaly limit on `clock`.
    public init(logger: Logger, notifier: SystemdNotifier, clock: any TimeSource) {
        self.logger = logger
        self.notifier = notifier
        self.clock = clock
    }

    public func ready(status: String) { notifier.ready(status: status) }

    public var wantsStatus: Bool { notifier.isActive }

    public func statusChanged(_ status: String) { notifier.status(status) }

    public func reloadStarted(by cause: ReloadCause) { notifier.reloading() }

    /// Logs a reload the same way whatever asked for it (a signal or a client's request), saying
    /// which.
    public func reloadFinished(_ outcome: Result<Int, any Error>, by cause: ReloadCause, status: String) {
        switch outcome {
        case .success(let views): logger.info("layout reloaded", metadata: ["views": "\(views)", "by": "\(cause)"])
        case .failure(let error): logger.error("reload refused; the previous layout keeps running: \(error)", metadata: ["by": "\(cause)"])
        }
        notifier.ready(status: status)
    }

    public func anomaly(_ text: String) {
        for line in limiter.admit(text, at: clock.now) { logger.warning("\(line)") }
    }

    public func inputProblem(_ text: String) { logger.error("\(text)") }

    public func acceptingProblem(_ text: String?) {
        if let text { logger.error("\(text)") } else { logger.notice("connections are accepted again") }
    }

    public func metricsFileProblem(_ text: String?) {
        if let text { logger.error("\(text)") } else { logger.notice("the metrics file is written again") }
    }

    public func deviceAdded(id: String) { logger.info("device added", metadata: ["device": "\(id)"]) }

    public func deviceRemoved(id: String) { logger.info("device removed", metadata: ["device": "\(id)"]) }

    public func inputEnded() { logger.info("input ended") }

    public func deviceSession(_ text: String, device: String) { logger.notice("\(text)", metadata: ["device": "\(device)"]) }

    public func stopping() { notifier.stopping() }
}
