import TouchSystem
import CLinux
import TouchCore
import TouchLayout
import TouchProtocol
import TouchRender
#if canImport(Glibc)
import Glibc
#endif

/// The running daemon: one event loop that owns the application (view tree, touches, event queue),
/// the socket clients and the input sources. Requests are handled between events, never in the
/// middle of dispatching one, because the loop runs each callback to completion.
/// A layout as loaded from its file: the document (devices, daemon settings) and the application
/// built from it.
public struct LoadedLayout {
    public var document: LayoutDocument
    public var app: Application

    public init(document: LayoutDocument, app: Application) {
        self.document = document
        self.app = app
    }

    /// Reads the layout file at `path`, builds its application and validates the pointercal files
    /// it names: what the daemon needs at start and on every reload.
    /// - Throws: ``LayoutErrors`` with every problem found.
    public static func load(path: String) throws(LayoutErrors) -> LoadedLayout {
        var document = try LayoutLoader.load(path: path)
        let app = try document.makeApplication(file: path)
        let pointercal = PointercalFiles.load(into: &document, layoutFile: path)
        guard pointercal.isEmpty else { throw LayoutErrors(pointercal) }
        return LoadedLayout(document: document, app: app)
    }
}

public final class Daemon {
    public let loop: EventLoop
    public let server: SocketServer
    public internal(set) var app: Application
    public let version: String
    /// Re-reads the layout; returns it with its new application, or throws a readable error (the
    /// old layout then keeps running).
    public var reloadLayout: (() throws -> LoadedLayout)?
    /// Called after a reload replaced the application, with the new layout and tree: the input
    /// sources re-match and re-map their devices.
    public var onLayoutChanged: ((LayoutDocument, ViewTree) -> Void)?
    /// Describes the input devices for the `devices` request.
    public var describeDevices: () -> JSONValue = { .array([]) }
    /// Called after every published batch (for status lines, counters).
    public var onPublished: ((Int) -> Void)?
    /// Called before (true) and after (false) a reload requested over the socket replaces the layout.
    public var onReload: ((Bool) -> Void)?
    /// Called with each anomaly the application met while dispatching (a contact twice in a frame,
    /// a control whose action no responder takes, a handler's first-responder change that was
    /// refused): they are counted in `stats` and given here to log.
    public var onAnomaly: ((String) -> Void)?
    /// Called when a reload requested over the socket is refused (for the log).
    public var onReloadRefused: ((any Error) -> Void)?
    /// Called after every `subscribe` request (a replay can wait for its first client).
    public var onSubscribe: (() -> Void)?
    public private(set) var framesIn = 0
    /// The last touches' paths, for the `snapshot` request's picture.
    var recentTouches = TouchPathRecorder(limit: 200, pointLimit: 2_000)
    /// The views each client added and has not removed (`Daemon+Requests.swift`).
    var viewOwnership = ViewOwnership()

    public init(app: Application, server: SocketServer, loop: EventLoop, version: String) {
        self.app = app
        // No message carries the responder calls: recording them would be most of dispatch's work.
        self.app.recordsResponderCalls = false
        self.server = server
        self.loop = loop
        self.version = version
        installRequestHandling()
    }

    /// The input's clock when no frame has arrived yet (set from the input sources; the kernel's
    /// monotonic clock by default).
    public var inputClock: () -> Double = { Daemon.monotonicNow() }

    /// Now, on the input's timeline: the last frame's time plus the time since it arrived, or the
    /// input sources' clock before any frame. Events touchd makes itself (cancellations on removal,
    /// reload, `remove_view` and shutdown) are stamped with it, so a replay's cancellation reads in
    /// the recording's time and a live one in the kernel's `CLOCK_MONOTONIC`, like their frames.
    public func inputNow() -> Double {
        guard framesIn > 0 else { return inputClock() }
        return lastInputTime + (Daemon.monotonicNow() - lastInputArrival)
    }

    /// The monotonic clock in seconds (the kernel's input clock for live devices); it paces timers.
    public static func monotonicNow() -> Double { MonotonicClock.seconds() }

    // MARK: - Input

    /// Queues an input frame and dispatches everything queued, publishing what it produced.
    public func receive(_ frame: InputFrame) { receive(.touches(frame)) }

    /// Queues any event (touches, presses, remote control, motion) behind those already queued and
    /// dispatches everything queued, publishing what it produced.
    public func receive(_ event: QueuedEvent) {
        enqueue(event)
        dispatchQueued()
    }

    /// Queues an event (touches, presses, remote control, motion) behind those already waiting,
    /// without dispatching it yet: everything queued during one wakeup of the loop is dispatched once
    /// that wakeup's descriptors are read. Under backlog (many frames from one read, several
    /// devices at once) the application queue's policy then applies: move-only frames merge, every
    /// sample kept as coalesced touches; nothing else is merged, dropped or reordered. When the
    /// queue is full, the oldest events are dispatched first to make room.
    public func enqueue(_ event: QueuedEvent) {
        noteInput(event)
        var reports: [DispatchReport] = []
        while app.enqueue(event) == .full {
            guard let report = app.dispatchNext() else { break }
            reports.append(report)
        }
        if !reports.isEmpty { publish(reports) }
        if !dispatchScheduled {
            dispatchScheduled = true
            loop.deferWork { [weak self] in self?.dispatchQueued() }
        }
    }

    /// Dispatches every queued event, oldest first, and publishes what they produced. Called at the
    /// end of a wakeup, and before anything that must see the input that arrived before it (a
    /// request, a device's removal, a recognizer's timer, a reload, shutdown).
    public func dispatchQueued() {
        dispatchScheduled = false
        guard inPlace({ $0.queue.count > 0 }) else { return }
        publish(app.dispatchAll())
        armGestureTimer()
    }

    private var dispatchScheduled = false

    /// Reads the application in place, for what runs on every frame: reading a property of the
    /// struct through the object that holds it would copy the whole application (a retain of each
    /// of its parts) to keep it steady during the call.
    private func inPlace<T>(_ body: (inout Application) -> T) -> T { body(&app) }

    private func noteInput(_ event: QueuedEvent) {
        framesIn += 1
        let timestamp: Double =
            switch event {
            case .touches(let frame): frame.timestamp
            case .presses(let input): input.timestamp
            case .remoteControl(let input): input.timestamp
            case .motion(let input): input.timestamp
            }
        lastInputTime = timestamp
        lastInputArrival = Daemon.monotonicNow()
    }

    /// Publishes the first-responder changes the tree made (a first responder hidden or removed).
    func publishFirstResponderChanges() {
        for change in app.takeFirstResponderChanges() { server.broadcast(MessageEncoder.message(for: change)) }
    }

    /// The input clock's time of the last frame, and when (monotonic) it arrived: recognizer
    /// deadlines are in input time, which for a recording is not the monotonic clock.
    private var lastInputTime = 0.0
    private var lastInputArrival = 0.0
    private var gestureTimer: LoopTimer?

    /// Arms the loop's timer for the next recognizer deadline (a long press, a multi-tap window).
    func armGestureTimer() {
        guard let deadline = inPlace({ $0.nextDeadline }) else {
            gestureTimer?.arm(after: nil)
            return
        }
        if gestureTimer == nil, let timer = try? LoopTimer() {
            gestureTimer = timer
            try? loop.register(timer.fd, for: .readable) { [unowned self] _ in
                timer.acknowledge()
                self.dispatchQueued()
                let now = self.inputNow()
                if let report = self.app.advanceTime(to: now) { self.publish([report]) }
                self.armGestureTimer()
            }
        }
        let elapsed = Daemon.monotonicNow() - lastInputArrival
        gestureTimer?.arm(after: max(deadline - lastInputTime - elapsed, 0.000_001))
    }

    /// Publishes already-dispatched reports to the clients.
    /// Each client gets everything in one write.
    public func publish(_ reports: [DispatchReport]) {
        var count = 0
        server.batch {
            for report in reports {
                if let onAnomaly { for anomaly in report.anomalies { onAnomaly(anomaly) } }
                recentTouches.record(report)
                let messages = inPlace { MessageEncoder.messages(for: report, tree: $0.tree) }
                for message in messages { server.broadcast(message) }
                count += messages.count
            }
        }
        if count > 0 { onPublished?(count) }
    }

    /// Publishes a message that is not about a dispatched event (devices added or removed).
    public func publish(_ message: OutboundMessage) { server.broadcast(message) }

    /// Cancels every touch (before a shutdown or reload), telling the clients.
    public func cancelAllTouches() {
        dispatchQueued()
        if let report = app.cancelAllTouches(timestamp: inputNow()) { publish([report]) }
    }

    /// Cancels one device's touches (it was removed).
    public func cancelTouches(ofDevice device: String) {
        dispatchQueued()
        if let report = app.cancelTouches(ofDevice: device, timestamp: inputNow()) { publish([report]) }
    }

    /// Replaces the application with a freshly loaded one, cancelling every live touch first.
    ///
    /// Every touch is cancelled, not only those whose view disappears: the new layout's views,
    /// recognizers and controls are new objects with no state to continue a touch in, and UIKit
    /// has no reload whose semantics could be followed. The fingers that are down stay ignored
    /// until they lift (see ``InputSource/layoutChanged(to:tree:)``).
    public func replaceApplication(_ newApp: Application) {
        cancelAllTouches()  // dispatches what is queued first
        let previous = app
        app = newApp
        app.recordsResponderCalls = false
        app.continueNumbering(after: previous)
        viewOwnership.removeAll()  // the views clients added went with the old tree
    }

    /// Reloads the layout (``reloadLayout``): on success the application is replaced and the input
    /// sources follow the new layout; on failure nothing changes and the error is thrown.
    /// `announce` calls ``onReload`` around the change (a caller that tells systemd itself, as the
    /// SIGHUP handler does, passes false).
    /// - Returns: the new layout's view count.
    @discardableResult
    public func reload(announce: Bool = true) throws -> Int {
        guard let reloadLayout else { throw ReloadUnsupported() }
        let fresh = try reloadLayout()
        if announce { onReload?(true) }
        replaceApplication(fresh.app)
        onLayoutChanged?(fresh.document, app.tree)
        if announce { onReload?(false) }
        return app.tree.viewCount
    }

    struct ReloadUnsupported: Error, CustomStringConvertible {
        var description: String { "this daemon has no layout file to reload" }
    }
}
