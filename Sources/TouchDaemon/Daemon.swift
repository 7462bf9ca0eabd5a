import TouchSystem
import TouchCore
import TouchLayout
import TouchProtocol
import TouchRender

/// The daemon's collaborators, given at `init`: where its input comes from, the layout file a
/// reload reads again, and who hears of what it does. The clock is its loop's.
public struct DaemonServices {
    /// The input sources (devices, a replay); none for a daemon driven by hand (tests).
    public var input: InputSources
    /// The layout file a reload reads again; nil when there is none (a `reload` is then refused).
    public var layoutFile: String?
    /// Who hears what the daemon does (the log and systemd for the real daemon).
    public var observer: any DaemonObserver
    /// Where dispatched reports go besides the clients (the windows' virtual touchscreens, TUIO).
    public var sinks: [any ReportSink]

    public init(
        input: InputSources = InputSources(), layoutFile: String? = nil, observer: any DaemonObserver = SilentObserver(),
        sinks: [any ReportSink] = []
    ) {
        self.input = input
        self.layoutFile = layoutFile
        self.observer = observer
        self.sinks = sinks
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
    /// The views each client added and has not removed (`Daemon+Requests.swift`).
    var viewOwnership = ViewOwnership()
    /// The layout's state as loaded (at start or by the last reload): what the `reload` message
    /// compares the running tree with to tell the run-time changes a reload drops.
    var layoutBaseline: TreeState
    /// The input's time of the last event, and when (microseconds on the loop's clock) it arrived:
    /// recognizer deadlines are in input time, which for a recording is not the loop's clock.
    var lastInputTime = 0.0
    var lastInputArrival: Int64 = 0
    /// Fires at the application's next recognizer deadline (a long press, a multi-tap window).
    var gestureTimer: TimerHandle!
    /// Fires at the next display tick moves wait for (see `refresh_hz`); set only while they wait.
    var displayTimer: TimerHandle!
    /// The input times the gesture and display timers were set for (`nil`: not set).
    var gestureTimerTime: Double?
    var displayTimerTime: Double?
    /// What the clients' subscriptions want, so that nothing else is encoded (``updateDiagnostics()``).
    var interest = MessageInterest([])
    /// Whether dispatching the queue is deferred to the end of this wakeup already.
    var dispatchScheduled = false
    /// ``dispatchDue()`` as deferred work, made once (not a closure per wakeup).
    var dispatchDueWork: (() -> Void)!
    /// The status line last given to the observer.
    var lastStatus = ""
    /// Status lines follow client and device changes at most once a second, and only while
    /// something changes: an idle daemon has no timer scheduled.
    var statusTimer: TimerHandle!
    /// Reloads that replaced the layout, and reloads refused.
    var reloadsAccepted = 0
    var reloadsRefused = 0
    /// The metrics file written for node_exporter, when there is one (`Daemon+Metrics.swift`).
    var metrics: MetricsFile?
    /// The recordings and calibrations clients run on devices (`Daemon+DeviceSessionRequests.swift`).
    var deviceSessions = DeviceSessions()

    public init(app: Application, server: SocketServer, loop: EventLoop, version: String, services: DaemonServices = DaemonServices()) {
        self.app = app
        layoutBaseline = TreeState(app)
        // Responder calls are recorded only while a client subscribes to them (``updateDiagnostics()``):
        // recording them is most of dispatch's work.
        self.app.recordsResponderCalls = false
        self.server = server
        self.loop = loop
        self.version = version
        self.services = services
        installRequestHandling()
        server.onClientsChanged = { [unowned self] in self.scheduleStatus() }
        gestureTimer = loop.timer { [unowned self] in self.gestureDeadlinePassed() }
        displayTimer = loop.timer { [unowned self] in self.displayTickPassed() }
        statusTimer = loop.timer { [unowned self] in self.statusTimerFired() }
        dispatchDueWork = { [unowned self] in self.dispatchDue() }
        warmUp()
    }

    deinit {
        gestureTimer.cancel()
        displayTimer.cancel()
        statusTimer.cancel()
        metrics?.timer.cancel()
    }

    /// The input sources.
    public var input: InputSources { services.input }
    /// Who hears what the daemon does.
    var observer: any DaemonObserver { services.observer }

    /// Starts the input sources on the loop (their events go to ``receive(_:)-(InputSourceEvent)``),
    /// and reports what they found odd up front.
    /// - Throws: the first source's error that cannot start.
    public func startInput() throws {
        for sink in services.sinks { sink.applicationChanged(app) }
        try input.start(on: loop) { [unowned self] event in self.receive(event) }
    }

    /// Stops the daemon: cancels live touches, stops the input, says goodbye to the clients,
    /// closes the socket and makes the loop's ``EventLoop/run()`` return.
    public func shutdown(reason: String) {
        observer.stopping()
        stopMetricsFile()
        cancelAllTouches()
        for sink in services.sinks { sink.stop() }
        input.stop()
        gestureTimer.cancel()
        displayTimer.cancel()
        statusTimer.cancel()
        server.shutdown(reason: reason)
        loop.stop()
    }

    /// The devices of every input source, for the `devices` request.
    public func describeDevices() -> JSONValue { .array(input.deviceDescriptions) }
}
