/// Who hears what the daemon does, beyond its socket clients: the log and the service manager
/// (``ServiceReporter``), or a test. Every method has a default that does nothing.
public protocol DaemonObserver: AnyObject {
    /// The daemon is ready: its socket listens and its input has started.
    func ready(status: String)
    /// Whether ``statusChanged(_:)`` is wanted: the daemon keeps no status timer otherwise.
    var wantsStatus: Bool { get }
    /// The status line changed (`2 devices, 1 client, 16 views`); at most once a second.
    func statusChanged(_ status: String)
    /// A reload (by signal or request: `cause`) begins: the layout file is read next.
    func reloadStarted(by cause: ReloadCause)
    /// A reload ended: the new layout's view count, or why it was refused (the old one runs on);
    /// `status` is the status line after it.
    func reloadFinished(_ outcome: Result<Int, any Error>, by cause: ReloadCause, status: String)
    /// An anomaly met while dispatching or decoding (a contact twice in a frame, a refused
    /// first-responder change, an odd recording), or memory the kernel would not take back.
    func anomaly(_ text: String)
    /// A problem an input source met that stops some of its input.
    func inputProblem(_ text: String)
    /// The metrics file could not be written (`text` says why), or (`nil`) it can be again.
    func metricsFileProblem(_ text: String?)
    /// A device appeared or went away.
    func deviceAdded(id: String)
    func deviceRemoved(id: String)
    /// An input source finished (a replay ended).
    func inputEnded()
    /// An installer's session on a device began or ended (a recording, a calibration), or a
    /// calibration was applied and kept: `text` says what, on which device.
    func deviceSession(_ text: String, device: String)
    /// The daemon is stopping (its clients are told next).
    func stopping()
    /// New connections wait for want of descriptors (`text` says so), or (`nil`) are taken again.
    func acceptingProblem(_ text: String?)
}

extension DaemonObserver {
    public func ready(status: String) {}
    public var wantsStatus: Bool { false }
    public func statusChanged(_ status: String) {}
    public func reloadStarted(by cause: ReloadCause) {}
    public func reloadFinished(_ outcome: Result<Int, any Error>, by cause: ReloadCause, status: String) {}
    public func anomaly(_ text: String) {}
    public func inputProblem(_ text: String) {}
    public func metricsFileProblem(_ text: String?) {}
    public func deviceAdded(id: String) {}
    public func deviceRemoved(id: String) {}
    public func inputEnded() {}
    public func deviceSession(_ text: String, device: String) {}
    public func stopping() {}
    public func acceptingProblem(_ text: String?) {}
}

/// An observer that hears nothing: a daemon in a test, or one nobody watches.
public final class SilentObserver: DaemonObserver {
    public init() {}
}
