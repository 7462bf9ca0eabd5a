import TouchCore
import TouchProtocol
import TouchSystem

/// A metrics file kept up to date for Prometheus' node_exporter textfile collector: the daemon's
/// figures (the `stats` reply's, ``MetricsText``) written now and every `interval`, each time a
/// whole new file (so the collector never reads half of one), and removed when stopped (so that a
/// stopped daemon's figures are not read as a running one's). A write that fails is told to the
/// observer (once, until one succeeds again) and tried again at the next interval.
final class MetricsFile {
    let path: String
    /// The time between writes.
    let interval: TimeSpan
    private let observer: any DaemonObserver
    /// The figures to write.
    private let counters: () -> StatsCounters
    private let timer: TimerHandle
    /// Whether the last write failed (a failure is told once, and so is the next success).
    private var failing = false

    /// Writes the file now and every `interval` on `loop`'s clock.
    init(path: String, interval: TimeSpan, loop: EventLoop, observer: any DaemonObserver, counters: @escaping () -> StatsCounters) {
        self.path = path
        self.interval = interval
        self.observer = observer
        self.counters = counters
        // The timer refers to the file weakly: the daemon holds the file, the loop the timer. A
        // file given up without `stop()` (another replaces it) is no longer written; its timer,
        // if it fires, finds nothing (a deinit must not touch the loop, which may be gone).
        weak var file: MetricsFile?
        timer = loop.timer { file?.timerFired() }
        file = self
        write()
        timer.schedule(after: interval)
    }

    /// Writes the file once.
    func write() {
        do {
            try FileWriter.write(text: MetricsText.prometheus(counters()), to: path)
            if failing { observer.metricsFileProblem(nil) }
            failing = false
        } catch {
            if !failing { observer.metricsFileProblem("cannot write the metrics file: \(error); trying again every \(formatNumber(interval.seconds)) s") }
            failing = true
        }
    }

    /// Stops writing the file and removes it.
    func stop() {
        timer.cancel()
        do {
            try FileWriter.remove(path)
        } catch {
            observer.metricsFileProblem("cannot remove the metrics file: \(error)")
        }
    }

    private func timerFired() {
        write()
        timer.schedule(after: interval)
    }
}

extension Daemon {
    /// Writes the daemon's figures to `path` now and every `interval` seconds (within
    /// ``Limits/metricsInterval``; the default outside it) until ``shutdown(reason:)``, which
    /// removes the file (``MetricsFile``). A file started before is no longer written.
    public func startMetricsFile(path: String, interval: Double) {
        let every = Limits.metricsInterval.contains(interval) ? interval : Limits.defaultMetricsInterval
        metrics = MetricsFile(
            path: path, interval: TimeSpan(seconds: every), loop: loop, observer: observer, counters: { [unowned self] in self.statsCounters() })
    }

    /// Stops writing the metrics file and removes it.
    func stopMetricsFile() {
        metrics?.stop()
        metrics = nil
    }
}
