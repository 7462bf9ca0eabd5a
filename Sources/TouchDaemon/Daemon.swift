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
    public internal(set) var app: Application
    public let version: String
    /// The daemon's collaborators.
    public let services: DaemonServices
    public internal(set) var framesIn = 0
    /// The last touches' paths, for the `snapshot` request's picture.
    var recentTouches = TouchPathRecorder(limit: 200, pointLimit: 2_000)
    /// The input's time of the last event, and when (microseconds on the loop's clock) it arrived:
    /// recognizer deadlines are in input time, which for a recording is not the loop's clock.
    var lastInputTime = 0.0
    var lastInputArrival: Int64 = 0
    /// Fires at the application's next recognizer deadline (a long press, a multi-tap window).
    var gestureTimer: TimerHandle!
    /// Whether dispatching the queue is deferred to the end of this wakeup already.
    var dispatchScheduled = false
    /// ``dispatchQueued()`` as deferred work, made once (not a closure per wakeup).
    var dispatchQueuedWork: (() -> Void)!
    /// The status line last given to the observer.
    var lastStatus = ""
    /// Status lines follow client and device changes at most once a second, and only while
    /// something changes: an idle daemon has no timer scheduled.
    var statusTimer: TimerHandle!

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
