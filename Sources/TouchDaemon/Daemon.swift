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
    /// Whether the daemon gives memory back to the kernel once a layout is read, at start and on
    /// every reload (``MemoryRelease/giveBack()``): the real daemon's runner sets it; it acts on
    /// the whole process, so a test sharing its process leaves it off.
    public var givesMemoryBack: Bool

    public init(
        input: InputSources = InputSources(), layoutFile: String? = nil, observer: any DaemonObserver = SilentObserver(),
        sinks: [any ReportSink] = [], givesMemoryBack: Bool = false
    ) {
        self.input = input
        self.layoutFile = layoutFile
        self.observer = observer
        self.sinks = sinks
        self.givesMemoryBack = givesMemoryBack
    }
}

/// The daemon's socket: where it listens, and the bounds and policy its clients are served with.
public struct DaemonSocket: Sendable {
    public var endpoint: SocketEndpoint
    public var limits: ClientLimits
    public var policy: PeerPolicy

    public init(endpoint: SocketEndpoint, limits: ClientLimits = ClientLimits(), policy: PeerPolicy = PeerPolicy()) {
        self.endpoint = endpoint
        self.limits = limits
        self.policy = policy
    }
}

/// The running daemon: one event loop that owns the application (view tree, touches, event queue),
/// the socket clients and the input sources. Requests are handled between events, never in the
/// middle of dispatching one, because the loop runs each callback to completion.
///
/// Time comes from the loop's clock (``EventLoop/clock``): it stamps when input arrives and paces
/// the recognizers' deadlines and the status line. Its collaborators (``DaemonServices``) are given
/// at `init`; ``start()`` starts accepting clients and the input sources.
public final class Daemon {
    public let loop: EventLoop
    /// The socket server, serving this daemon (made at first use: it is given the daemon).
    public private(set) lazy var server = SocketServer(
        endpoint: socket.endpoint, loop: loop, limits: socket.limits, policy: socket.policy, delegate: self)
    /// What ``server`` is made with.
    private let socket: DaemonSocket
    public internal(set) var app: Application
    public let version: String
    /// The daemon's collaborators.
    public let services: DaemonServices
    /// When the daemon dispatches: the input's timeline, the end-of-wakeup dispatch, the gesture
    /// and display timers (made at first use: it calls the daemon back).
    lazy var scheduler = DispatchScheduler(loop: loop, input: input, owner: self)
    /// The last touches' paths, for the `snapshot` request's picture.
    var recentTouches = TouchPathRecorder(limit: 200, pointLimit: 2_000)
    /// The views each client added and has not removed (`Daemon+Requests.swift`).
    var viewOwnership = ViewOwnership()
    /// The layout's reloads: what the last one loaded, and how many were accepted or refused.
    var reloads: ReloadHistory
    /// What the clients want encoded, and how (``updateDiagnostics()``).
    var publication = Publication()
    /// The status line the observer is told, following client and device changes (made at first
    /// use: it reads the daemon's).
    lazy var status = StatusLine(loop: loop, observer: observer, current: { [unowned self] in self.statusText })
    /// The metrics file written for node_exporter, when there is one (`Daemon+Metrics.swift`).
    var metrics: MetricsFile?
    /// The recordings and calibrations clients run on devices (`Daemon+DeviceSessionRequests.swift`).
    var deviceSessions = DeviceSessions()

    public init(app: Application, socket: DaemonSocket, loop: EventLoop, version: String, services: DaemonServices = DaemonServices()) {
        self.app = app
        reloads = ReloadHistory(baseline: TreeState(app))
        // Responder calls are recorded only while a client subscribes to them (``updateDiagnostics()``):
        // recording them is most of dispatch's work.
        self.app.recordsResponderCalls = false
        self.socket = socket
        self.loop = loop
        self.version = version
        self.services = services
        settleAfterReadingLayout()
    }

    /// Input events read so far.
    public var framesIn: Int { scheduler.framesIn }

    /// The input sources.
    public var input: InputSources { services.input }
    /// Who hears what the daemon does.
    var observer: any DaemonObserver { services.observer }

    /// Starts accepting clients and the input sources on the loop (their events go to
    /// ``receive(_:)-(InputSourceEvent)``), and reports what they found odd up front.
    /// - Throws: ``SystemError`` when the socket cannot be watched, or the first source's error
    ///   that cannot start.
    public func start() throws {
        try server.startAccepting()
        for sink in services.sinks { sink.applicationChanged(app) }
        try input.start(on: loop) { [unowned self] event in self.receive(event) }
    }

    /// Stops the daemon: cancels live touches and keys held down, stops the input, says goodbye to the clients,
    /// closes the socket and makes the loop's ``EventLoop/run()`` return.
    public func shutdown(reason: String) {
        observer.stopping()
        stopMetricsFile()
        cancelAllTouches()
        cancelAllPresses()
        for sink in services.sinks { sink.stop() }
        input.stop()
        scheduler.stop()
        status.stop()
        server.shutdown(reason: reason)
        loop.stop()
    }

    /// The devices of every input source, for the `devices` request.
    public func describeDevices() -> JSONValue { ReplyResult.devices(input.deviceDescriptions) }
}
