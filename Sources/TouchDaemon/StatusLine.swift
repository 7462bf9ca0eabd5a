import TouchCore
import TouchSystem

/// The daemon's status line (`2 devices, 1 client, 16 views`: systemd's `STATUS=`, the log's): the
/// one last told, and the timer that tells it again at most once a second, only while something
/// changes (an idle daemon has no timer scheduled) and only to an observer that wants it.
final class StatusLine {
    /// The line last told.
    private(set) var last = ""
    private let observer: any DaemonObserver
    /// The line now (the daemon's devices, clients and views).
    private let current: () -> String
    private let timer: TimerHandle

    /// A status line on `loop`, read from `current`, told to `observer`.
    init(loop: EventLoop, observer: any DaemonObserver, current: @escaping () -> String) {
        self.observer = observer
        self.current = current
        // The timer refers to the line weakly: once the daemon (and its line) is gone, a timer
        // that fires finds nothing.
        weak var line: StatusLine?
        timer = loop.timer { line?.timerFired() }
        line = self
    }

    /// Reads the line now and keeps it as the last told: for the observer's `ready` and
    /// `reloadFinished`, which carry it.
    func refresh() -> String {
        last = current()
        return last
    }

    /// Something the line counts changed: it is told within a second, if it still differs then.
    func changed() {
        guard observer.wantsStatus, !timer.isScheduled else { return }
        timer.schedule(after: 1)
    }

    /// The daemon stops: no line is told any more.
    func stop() { timer.cancel() }

    private func timerFired() {
        let text = current()
        guard text != last else { return }
        last = text
        observer.statusChanged(text)
    }
}
