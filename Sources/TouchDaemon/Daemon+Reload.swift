import TouchCore
import TouchLayout
import TouchProtocol
import TouchSystem

extension Daemon {
    // MARK: - Reload

    /// Replaces the application with a freshly loaded one, cancelling every live touch and every
    /// key held down first.
    ///
    /// Every touch is cancelled, not only those whose view disappears: the new layout's views,
    /// recognizers and controls are new objects with no state to continue a touch in, and UIKit
    /// has no reload whose semantics could be followed. The fingers that are down stay ignored
    /// until they lift (see ``InputSource/layoutChanged(to:tree:)``).
    public func replaceApplication(_ newApp: Application) {
        cancelAllTouches()  // dispatches what is queued first
        cancelAllPresses()
        let previous = app
        app = newApp
        for sink in services.sinks { sink.applicationChanged(app) }
        updateDiagnostics()
        app.continueNumbering(after: previous)
        app.adoptCancelledPresses(from: previous)
        viewOwnership.removeAll()  // the views clients added went with the old tree
        rearmTimers()
    }

    /// Reloads the layout file (``DaemonServices/layoutFile``): on success the application is
    /// replaced, the input sources follow the new layout and every client gets a `reload` message
    /// (``ReloadSummary``); on failure nothing changes and the error is thrown. The observer hears
    /// of it before and after, either way, with its `cause`.
    /// - Returns: the new layout's view count.
    @discardableResult
    public func reload(by cause: ReloadCause = .signal) throws -> Int {
        guard let layoutFile = services.layoutFile else { throw ReloadUnsupported() }
        observer.reloadStarted(by: cause)
        let outcome: Result<Int, any Error>
        do {
            // On a thread of its own: what the parse lets go is given back whole (``MemoryRelease``).
            let fresh = try MemoryRelease.onScratchThread { () throws(LayoutErrors) -> LoadedLayout in
                try LoadedLayout.load(path: layoutFile)
            }
            for warning in fresh.warnings { observer.inputProblem(warning.description) }
            let running = TreeState(app)
            replaceApplication(fresh.app)
            input.layoutChanged(to: fresh.document, tree: app.tree)
            endCalibrations(reason: "the layout was reloaded")
            let new = TreeState(app)
            let summary = ReloadSummary(old: reloads.baseline, running: running, new: new)
            reloads.baseline = new
            server.broadcast(MessageEncoder.reloaded(summary))
            reloads.accepted += 1
            outcome = .success(app.tree.viewCount)
        } catch {
            reloads.refused += 1
            outcome = .failure(error)
        }
        settleAfterReadingLayout()
        observer.reloadFinished(outcome, by: cause, status: status.refresh())
        return try outcome.get()
    }

    struct ReloadUnsupported: Error, CustomStringConvertible {
        var description: String { "this daemon has no layout file to reload" }
    }

    // MARK: - Status

    /// The `STATUS=` line: devices in use, clients, views.
    public var statusText: String {
        let devices = input.presentDevices.count
        let clients = server.clientCount
        return "\(devices) device\(devices == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s"), \(app.tree.viewCount) views"
    }


    /// Tells the observer the daemon is ready, with its status line (the loop runs next).
    public func announceReady() {
        observer.ready(status: status.refresh())
    }
}

/// What asked for a reload, for the log.
public enum ReloadCause: Sendable, CustomStringConvertible {
    /// `SIGHUP` (`systemctl reload`).
    case signal
    /// A client's `reload` request (`touchctl reload`), with its credentials when known.
    case request(PeerCredentials?)

    public var description: String {
        switch self {
        case .signal: "SIGHUP"
        case .request(let credentials?): "request (\(credentials))"
        case .request(nil): "request"
        }
    }
}
