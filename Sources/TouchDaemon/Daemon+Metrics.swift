import TouchCore
import TouchProtocol
import TouchSystem

/// A metrics file the daemon keeps up to date for Prometheus' node_exporter textfile collector.
final class MetricsFile {
    let path: String
    /// The time between writes.
    let interval: TimeSpan
    let timer: TimerHandle
    /// Whether the last write failed (a failure is told once, and so is the next success).
    var failing = false

    init(path: String, interval: TimeSpan, timer: TimerHandle) {
        self.path = path
        self.interval = interval
        self.timer = timer
    }
}

extension Daemon {
    /// Writes the daemon's figures (the `stats` reply's, ``MetricsText``) to `path` now and every
    /// `interval` seconds (within ``Limits/metricsInterval``), each time a whole new file (so the
    /// collector never reads half of one); ``shutdown(reason:)`` removes it, so that a stopped
    /// daemon's figures are not read as a running one's. A write that fails is told to the
    /// observer (once, until one succeeds again) and tried again at the next interval.
    public func startMetricsFile(path: String, interval: Double) {
        metrics?.timer.cancel()
        let every = Limits.metricsInterval.contains(interval) ? interval : Limits.defaultMetricsInterval
        let timer = loop.timer { [unowned self] in self.metricsTimerFired() }
        metrics = MetricsFile(path: path, interval: TimeSpan(seconds: every), timer: timer)
        writeMetricsFile()
        timer.schedule(after: TimeSpan(seconds: every))
    }

    private func metricsTimerFired() {
        guard let metrics else { return }
        writeMetricsFile()
        metrics.timer.schedule(after: metrics.interval)
    }

    /// Writes the metrics file once.
    func writeMetricsFile() {
        guard let metrics else { return }
        do {
            try FileWriter.write(text: MetricsText.prometheus(statsCounters()), to: metrics.path)
            if metrics.failing { observer.metricsFileProblem(nil) }
            metrics.failing = false
        } catch {
            if !metrics.failing { observer.metricsFileProblem("cannot write the metrics file: \(error); trying again every \(formatNumber(metrics.interval.seconds)) s") }
            metrics.failing = true
        }
    }

    /// Stops writing the metrics file and removes it.
    func stopMetricsFile() {
        guard let metrics else { return }
        metrics.timer.cancel()
        self.metrics = nil
        do {
            try FileWriter.remove(metrics.path)
        } catch {
            observer.metricsFileProblem("cannot remove the metrics file: \(error)")
        }
    }
}
