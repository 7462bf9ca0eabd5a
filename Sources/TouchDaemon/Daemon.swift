import TouchSystem
import CLinux
import TouchCore
import TouchLayout
import TouchProtocol
import TouchRender
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's collaborators, given at `init`: where its input comes from, the layout file a
/// reload reads again, and who hears of what it does. The clock is its loop's.
public struct DaemonServices {
    /// The input sources (devices, a replay); none for a daemon driven by hand (tests).
    public var input: InputSources
    /// The layout file a reload reads again; nil when there is none (a `reload` is then refused).
    public var layoutFile: String?
    /// Who hears what the daemon does (the log and systemd for the real daemon).
    public var observer: any DaemonObserver

    public init(input: InputSources = InputSources(), layoutFile: String? = nil, observer: any DaemonObserver = SilentObserver()) {
        self.input = input
        self.layoutFile = layoutFile
        self.observer = observer
    }
}

/// The running daemon: one event loop that owns the application (view tree, touches, event queue),
/// the socket clients and the input sources. Requests are handled between events, never in the
/// middle of dispatching one, because the loop runs each callback to completion.
///
/// Time comes from the loop's clock (``EventLoop/clock``): it stamps when input arrives and paces
/// the recognizers' deadlines and the status line. Its collaborators (``DaemonServices``) are given
/// at `init`; ``startInput()`` starts the input sources.
public final class Daemon {
    public let loop: EventLoop
    public let server: SocketServer
    public private(set) var app: Application
    public let version: String
    /// The daemon's collaborators.
    public let services: DaemonServices
    public private(set) var framesIn = 0
    /// The last touches' paths, for the `snapshot` request's picture.
    private var recentTouches = TouchPathRecorder(limit: 200, pointLimit: 2_000)

    public init(app: Application, server: SocketServer, loop: EventLoop, version: String, services: DaemonServices = DaemonServices()) {
        self.app = app
        // No message carries the responder calls: recording them would be most of dispatch's work.
        self.app.recordsResponderCalls = false
        self.server = server
        self.loop = loop
        self.version = version
        self.services = services
        server.greeting = MessageEncoder.hello(daemonVersion: version)
        server.onRequest = { [unowned self] client, line in self.handle(line, from: client) }
        server.onClientsChanged = { [unowned self] in self.scheduleStatus() }
        gestureTimer = loop.timer { [unowned self] in self.gestureDeadlinePassed() }
        statusTimer = loop.timer { [unowned self] in self.statusTimerFired() }
        dispatchQueuedWork = { [unowned self] in self.dispatchQueued() }
    }

    deinit {
        gestureTimer.cancel()
        statusTimer.cancel()
    }

    /// The input sources.
    public var input: InputSources { services.input }
    /// Who hears what the daemon does.
    var observer: any DaemonObserver { services.observer }

    /// Starts the input sources on the loop (their events go to ``receive(_:)-(InputSourceEvent)``),
    /// and reports what they found odd up front.
    /// - Throws: the first source's error that cannot start.
    public func startInput() throws {
        try input.start(on: loop) { [unowned self] event in self.receive(event) }
    }

    /// Stops the daemon: cancels live touches, stops the input, says goodbye to the clients,
    /// closes the socket and makes the loop's ``EventLoop/run()`` return.
    public func shutdown(reason: String) {
        observer.stopping()
        cancelAllTouches()
        input.stop()
        gestureTimer.cancel()
        statusTimer.cancel()
        server.shutdown(reason: reason)
        loop.stop()
    }

    /// The devices of every input source, for the `devices` request.
    public func describeDevices() -> JSONValue { .array(input.deviceDescriptions) }

    // MARK: - Time

    /// The input's time of the last event, and when (microseconds on the loop's clock) it arrived:
    /// recognizer deadlines are in input time, which for a recording is not the loop's clock.
    private var lastInputTime = 0.0
    private var lastInputArrival: Int64 = 0
    /// Fires at the application's next recognizer deadline (a long press, a multi-tap window).
    private var gestureTimer: TimerHandle!

    /// Now, on the input's timeline: the last event's time plus the time since it arrived, or the
    /// input sources' time before any event. Events touchd makes itself (cancellations on removal,
    /// reload, `remove_view` and shutdown) are stamped with it, so a replay's cancellation reads in
    /// the recording's time and a live one in the kernel's `CLOCK_MONOTONIC`, like their frames.
    public func inputNow() -> Double {
        guard framesIn > 0 else { return input.now ?? loop.clock.seconds }
        return lastInputTime + Double(TimeSpan.until(loop.clock.microseconds, from: lastInputArrival)) / 1_000_000
    }

    /// Schedules the gesture timer for the application's next recognizer deadline (on the input's
    /// timeline, counted on the loop's clock from the last event's arrival), or cancels it.
    func armGestureTimer() {
        guard let deadline = inPlace({ $0.nextDeadline }) else { return gestureTimer.cancel() }
        guard let due = TimeSpan.adding(deadline - lastInputTime, to: lastInputArrival) else { return gestureTimer.cancel() }
        gestureTimer.schedule(atMicroseconds: due)
    }

    private func gestureDeadlinePassed() {
        dispatchQueued()
        if let report = app.advanceTime(to: inputNow()) { publish([report]) }
        armGestureTimer()
    }

    // MARK: - Input

    /// Handles what an input source reports: events are queued (and dispatched at the end of the
    /// wakeup), devices are announced on the `devices` topic, a removed device's touches cancelled.
    public func receive(_ event: InputSourceEvent) {
        switch event {
        case .event(let queued):
            enqueue(queued)
        case .deviceAdded(let id, let description):
            observer.deviceAdded(id: id)
            scheduleStatus()
            publish(MessageEncoder.deviceAdded(id: id, description: description))
        case .deviceRemoved(let id):
            observer.deviceRemoved(id: id)
            scheduleStatus()
            cancelTouches(ofDevice: id)
            publish(MessageEncoder.deviceRemoved(id: id))
        case .anomaly(let text):
            observer.anomaly(text)
        case .problem(let text):
            observer.inputProblem(text)
        case .finished:
            guard input.daemonEndsWithInput else { return }
            observer.inputEnded()
            shutdown(reason: "input ended")
        }
    }

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
            loop.deferWork(dispatchQueuedWork)
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
    /// ``dispatchQueued()`` as deferred work, made once (not a closure per wakeup).
    private var dispatchQueuedWork: (() -> Void)!

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
        lastInputArrival = loop.clock.microseconds
    }

    /// Publishes the first-responder changes the tree made (a first responder hidden or removed).
    func publishFirstResponderChanges() {
        for change in app.takeFirstResponderChanges() { server.broadcast(MessageEncoder.message(for: change)) }
    }

    /// Publishes already-dispatched reports to the clients, and gives their anomalies to the
    /// observer. Each client gets everything in one write.
    public func publish(_ reports: [DispatchReport]) {
        server.batch {
            for report in reports {
                if !report.anomalies.isEmpty { for anomaly in report.anomalies { observer.anomaly(anomaly) } }
                recentTouches.record(report)
                let messages = inPlace { MessageEncoder.messages(for: report, tree: $0.tree) }
                for message in messages { server.broadcast(message) }
            }
        }
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

    // MARK: - Reload

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
        armGestureTimer()
    }

    /// Reloads the layout file (``DaemonServices/layoutFile``): on success the application is
    /// replaced and the input sources follow the new layout; on failure nothing changes and the
    /// error is thrown. The observer hears of it before and after, either way.
    /// - Returns: the new layout's view count.
    @discardableResult
    public func reload() throws -> Int {
        guard let layoutFile = services.layoutFile else { throw ReloadUnsupported() }
        observer.reloadStarted()
        let outcome: Result<Int, any Error>
        do {
            let fresh = try LoadedLayout.load(path: layoutFile)
            replaceApplication(fresh.app)
            input.layoutChanged(to: fresh.document, tree: app.tree)
            outcome = .success(app.tree.viewCount)
        } catch {
            outcome = .failure(error)
        }
        lastStatus = statusText
        observer.reloadFinished(outcome, status: lastStatus)
        return try outcome.get()
    }

    struct ReloadUnsupported: Error, CustomStringConvertible {
        var description: String { "this daemon has no layout file to reload" }
    }

    // MARK: - Status

    /// The `STATUS=` line: devices, clients, views.
    public var statusText: String {
        let devices = input.deviceDescriptions.count
        let clients = server.clientCount
        return "\(devices) device\(devices == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s"), \(app.tree.viewCount) views"
    }

    /// The status line last given to the observer.
    private var lastStatus = ""
    /// Status lines follow client and device changes at most once a second, and only while
    /// something changes: an idle daemon has no timer scheduled.
    private var statusTimer: TimerHandle!

    /// Tells the observer the daemon is ready, with its status line (the loop runs next).
    public func announceReady() {
        lastStatus = statusText
        observer.ready(status: lastStatus)
    }

    func scheduleStatus() {
        guard observer.wantsStatus, !statusTimer.isScheduled else { return }
        statusTimer.schedule(after: 1)
    }

    private func statusTimerFired() {
        let text = statusText
        guard text != lastStatus else { return }
        lastStatus = text
        observer.statusChanged(text)
    }

    // MARK: - Requests

    /// `{"window": ..., "first_responder": ...}` for the window of `responder` after a change.
    private func firstResponderResult(of responder: ResponderID) -> JSONValue {
        let window = app.tree.kind(of: responder) == .controller
            ? app.tree.controllerProperties(of: responder).flatMap { app.tree.window(of: $0.view) } : app.tree.window(of: responder)
        let current = window.flatMap { app.firstResponder(of: $0) }
        return ReplyResult.firstResponder(window: window, current: current)
    }

    func handle(_ line: [UInt8], from client: SocketServer.ClientHandle) -> OutboundMessage? {
        dispatchQueued()
        let (id, parsed) = Request.parse(line)
        switch parsed {
        case .failure(let error): return Reply.error(id, error)
        case .success(let request):
            switch perform(request, client: client) {
            case .success(let result): return Reply.ok(id, result)
            case .failure(let error): return Reply.error(id, error)
            }
        }
    }

    func perform(_ request: Request, client: SocketServer.ClientHandle) -> Result<JSONValue, RequestError> {
        switch request {
        case .ping:
            return .success(ReplyResult.pong)
        case .subscribe(let topics, let views, let actions):
            let id = server.withSubscriptions(of: client) { subs, next -> Int in
                defer { next += 1 }
                subs.append(Subscription(id: next, topics: topics, views: views, actions: actions))
                return next
            }
            loop.deferWork { [unowned self] in self.input.subscriberArrived() }
            return .success(ReplyResult.subscribed(id ?? 0))
        case .unsubscribe(let subscription):
            let removed = server.withSubscriptions(of: client) { subs, _ -> Bool in
                let before = subs.count
                subs.removeAll { $0.id == subscription }
                return subs.count < before
            } ?? false
            return removed ? .success(ReplyResult.done) : .failure(RequestError("unknown_subscription", "no subscription \(subscription) on this connection"))
        case .hitTest(let point, let window):
            guard let target = window ?? app.tree.keyWindow else { return .failure(RequestError("no_window", "the layout has no window")) }
            guard let result = app.tree.hitTest(point, onDisplayOf: target, traced: true) else {
                return .failure(RequestError("unknown_window", "\"\(target)\" is not a window"))
            }
            return .success(TreeDescription.hitTest(result, tree: app.tree))
        case .set(let view, let changes):
            do {
                try app.updateView(view) { changes.apply(to: &$0) }
                publishFirstResponderChanges()
                return .success(ReplyResult.done)
            } catch {
                return .failure(RequestError("unknown_view", error.description))
            }
        case .addView(let view, let parent, let changes):
            var props = ViewProperties(frame: .zero)
            changes.apply(to: &props)
            do {
                try app.addView(view, parent: parent, props)
                return .success(ReplyResult.done)
            } catch {
                return .failure(RequestError("bad_argument", error.description))
            }
        case .removeView(let view):
            do {
                if let report = try app.removeView(view, timestamp: inputNow()) { publish([report]) }
                publishFirstResponderChanges()
                return .success(ReplyResult.done)
            } catch {
                return .failure(RequestError("unknown_view", error.description))
            }
        case .reload:
            guard services.layoutFile != nil else { return .failure(RequestError("unsupported", "this daemon has no layout file to reload")) }
            do {
                let views = try reload()
                return .success(ReplyResult.reloaded(views: views))
            } catch {
                return .failure(RequestError("reload_failed", "\(error)"))
            }
        case .devices:
            return .success(describeDevices())
        case .snapshot(let window, let heatmap):
            guard let target = window ?? app.tree.keyWindow else { return .failure(RequestError("no_window", "the layout has no window")) }
            var markers = ViewMarkers(handlers: app.handlers, tree: app.tree)
            markers.addRecognizers(app.gestureRecognizerSpecs)
            markers.addControls(app.controlSpecs)
            do {
                let svg = try SVGRenderer.snapshot(
                    tree: app.tree, window: target, markers: markers,
                    touches: recentTouches.paths, heatmap: heatmap)
                return .success(ReplyResult.snapshot(window: target, svg: svg))
            } catch {
                return .failure(RequestError(error.code, error.description))
            }
        case .views:
            return .success(TreeDescription.views(app.tree, firstResponders: app.firstRespondersByWindow))
        case .becomeFirstResponder(let responder):
            do {
                if let change = try app.becomeFirstResponder(responder, cause: .request) { server.broadcast(MessageEncoder.message(for: change)) }
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error.code, error.description))
            }
        case .resignFirstResponder(let responder):
            do {
                server.broadcast(MessageEncoder.message(for: try app.resignFirstResponder(responder, cause: .request)))
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error.code, error.description))
            }
        case .stats:
            let s = app.statistics
            let srv = server.statistics
            return .success(
                ReplyResult.stats(
                    StatsCounters(
                        framesIn: framesIn, eventsDispatched: s.eventsDispatched, touchesBegan: s.touchesBegan, touchesCancelled: s.touchesCancelled,
                        actionsEmitted: s.actionsEmitted, anomalies: s.anomalies, queueHighWaterMark: app.queue.highWaterMark,
                        queueCoalesced: app.queue.coalescedCount, clients: server.clientCount, messagesSent: srv.sentMessages,
                        messagesDropped: srv.droppedMessages, clientsDisconnectedSlow: srv.disconnectedSlow, activeTouches: app.activeTouches.count,
                        wakeups: loop.wakeups)))
        }
    }
}
