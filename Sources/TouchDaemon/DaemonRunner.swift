import TouchInput
import CLinux
import Logging
import TouchCore
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Runs the daemon: the event loop with the socket server, signals and input sources, until SIGTERM
/// or SIGINT. SIGHUP reloads the layout (a bad file is reported and the old layout keeps running).
public final class DaemonRunner {
    public struct Options: Sendable {
        public var socketPath: String
        public var socketMode: mode_t
        public var socketGroup: gid_t?
        public var peerPolicy: PeerPolicy
        public var limits: ClientLimits
        public var version: String
        /// Exit once every input source has finished (a replay) and clients are flushed.
        public var exitWhenInputEnds: Bool

        public init(
            socketPath: String, socketMode: mode_t = 0o660, socketGroup: gid_t? = nil, peerPolicy: PeerPolicy = PeerPolicy(),
            limits: ClientLimits = ClientLimits(), version: String, exitWhenInputEnds: Bool = false
        ) {
            self.socketPath = socketPath
            self.socketMode = socketMode
            self.socketGroup = socketGroup
            self.peerPolicy = peerPolicy
            self.limits = limits
            self.version = version
            self.exitWhenInputEnds = exitWhenInputEnds
        }
    }

    public let loop: EventLoop
    public let daemon: Daemon
    private let signals: SignalSource
    private var sources: [InputSource]
    private var finishedSources = 0
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let watchdogTimer: LoopTimer?
    private let statusTimer: LoopTimer
    private var lastStatus = ""

    public init(
        app: Application, options: Options, sources: [InputSource], activatedFD: Int32? = nil, logger: Logger,
        notifier: SystemdNotifier = SystemdNotifier(environment: [:]), reloadLayout: (() throws -> LoadedLayout)?
    ) throws {
        loop = try EventLoop()
        self.notifier = notifier
        watchdogTimer = notifier.watchdogInterval != nil ? try LoopTimer() : nil
        statusTimer = try LoopTimer()
        signals = try SignalSource([SIGTERM, SIGINT, SIGHUP, SIGPIPE])
        let server = try SocketServer(
            path: options.socketPath, loop: loop, mode: options.socketMode, group: options.socketGroup, activatedFD: activatedFD,
            limits: options.limits, policy: options.peerPolicy)
        daemon = Daemon(app: app, server: server, loop: loop, version: options.version)
        daemon.reloadLayout = reloadLayout
        self.sources = sources
        // Before any frame, the input's clock is the last source's (a replay's timeline when one
        // plays, else the kernel's monotonic clock).
        if let clockSource = sources.last { daemon.inputClock = { [unowned clockSource] in clockSource.clock } }
        self.logger = logger
        var limiter = AnomalyLogLimiter()
        daemon.onAnomaly = { anomaly in
            for line in limiter.admit(anomaly, at: Daemon.monotonicNow()) { logger.warning("\(line)") }
        }
        for case let recording as RecordingSource in sources {
            for anomaly in recording.anomalies { daemon.onAnomaly?(anomaly) }
            recording.onProblem = { logger.error("\($0)") }
        }
        daemon.onLayoutChanged = { [unowned self] document, tree in
            for source in self.sources { source.layoutChanged(to: document, tree: tree) }
        }
        daemon.onReloadRefused = { error in logger.error("reload refused; the previous layout keeps running: \(error)") }
        daemon.describeDevices = { [unowned self] in .array(self.sources.flatMap { source -> [JSONValue] in
            if case .array(let items) = source.deviceDescriptions { return items }
            return []
        }) }
        try loop.register(signals.fd, for: .readable) { [unowned self] _ in
            for signal in self.signals.receive() { self.handle(signal: signal) }
        }
        if let watchdogTimer, let interval = notifier.watchdogInterval {
            // Half the interval, as systemd recommends. The timer runs on the loop, so a stuck loop
            // stops the pings and systemd restarts the daemon.
            try loop.register(watchdogTimer.fd, for: .readable) { [unowned self] _ in
                watchdogTimer.acknowledge()
                self.notifier.watchdog()
            }
            watchdogTimer.arm(after: interval / 2, interval: interval / 2)
        }
        try loop.register(statusTimer.fd, for: .readable) { [unowned self] _ in
            self.statusTimer.acknowledge()
            self.updateStatus()
        }
        let exitWhenInputEnds = options.exitWhenInputEnds
        for source in sources {
            try source.start(on: loop) { [unowned self] event in
                switch event {
                case .frame(let frame): self.daemon.enqueue(.touches(frame))
                case .event(let event): self.daemon.enqueue(event)
                case .deviceAdded(let id, let description):
                    self.scheduleStatus()
                    self.logger.info("device added", metadata: ["device": "\(id)"])
                    self.daemon.publish(MessageEncoder.deviceAdded(id: id, description: description))
                case .deviceRemoved(let id):
                    self.scheduleStatus()
                    self.logger.info("device removed", metadata: ["device": "\(id)"])
                    self.daemon.cancelTouches(ofDevice: id)
                    self.daemon.publish(MessageEncoder.deviceRemoved(id: id))
                case .finished:
                    // Only finite sources (recordings) finish; live devices never do.
                    self.finishedSources += 1
                    if exitWhenInputEnds {
                        self.logger.info("input ended")
                        self.stop(reason: "input ended")
                    }
                }
            }
        }
    }

    /// Runs until a stop signal; returns normally for a clean exit.
    public func run() throws {
        let socket = daemon.server.isActivated ? "descriptor \(daemon.server.listenFD) from systemd" : daemon.server.path
        logger.info("listening", metadata: ["socket": "\(socket)", "views": "\(daemon.app.tree.viewCount)"])
        lastStatus = statusText()
        notifier.ready(status: lastStatus)
        // Status lines follow client and device changes at most once a second, and only while
        // something changes: an idle daemon has no timer armed.
        daemon.server.onClientsChanged = { [unowned self] in self.scheduleStatus() }
        try loop.run()
    }

    /// The `STATUS=` line: devices, clients, views.
    func statusText() -> String {
        var devices = 0
        if case .array(let items) = daemon.describeDevices() { devices = items.count }
        return "\(devices) device\(devices == 1 ? "" : "s"), \(daemon.server.clientCount) client\(daemon.server.clientCount == 1 ? "" : "s"), \(daemon.app.tree.viewCount) views"
    }

    private var statusPending = false

    func scheduleStatus() {
        guard notifier.isActive, !statusPending else { return }
        statusPending = true
        statusTimer.arm(after: 1)
    }

    private func updateStatus() {
        statusPending = false
        let text = statusText()
        if text != lastStatus {
            lastStatus = text
            notifier.status(text)
        }
    }

    /// Cancels live touches, says goodbye to clients, closes the socket and ends ``run()``.
    public func stop(reason: String) {
        notifier.stopping()
        daemon.cancelAllTouches()
        for source in sources { source.stop() }
        daemon.server.shutdown(reason: reason)
        loop.stop()
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            logger.info("stopping", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
            stop(reason: "shutting down")
        case SIGHUP:
            guard daemon.reloadLayout != nil else { return }
            notifier.reloading()
            do {
                try daemon.reload(announce: false)
                logger.info("layout reloaded", metadata: ["views": "\(daemon.app.tree.viewCount)"])
            } catch {
                logger.error("reload refused; the previous layout keeps running: \(error)")
            }
            lastStatus = statusText()
            notifier.ready(status: lastStatus)
        default:
            break
        }
    }
}
