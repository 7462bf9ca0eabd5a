import TouchInput
import TouchSystem
import Logging
import TouchCore
import TouchProtocol

/// Runs the daemon: the event loop with the socket server, signals and input sources, until SIGTERM
/// or SIGINT. SIGHUP reloads the layout (a bad file is reported and the old layout keeps running).
///
/// It wires the parts together once, here: the loop on the given clock, the server on the loop,
/// the daemon with its services (the input sources, the layout file, a ``ServiceReporter`` that
/// logs and tells systemd), the signals and the watchdog.
public final class DaemonRunner {
    public struct Options: Sendable {
        public var socketPath: String
        public var socketMode: UInt32
        public var socketGroup: UInt32?
        public var peerPolicy: PeerPolicy
        public var limits: ClientLimits
        public var version: String
        /// Exit once an input source has finished (a replay) and clients are flushed.
        public var exitWhenInputEnds: Bool
        /// Where to write the daemon's metrics, and how often (``Daemon/startMetricsFile(path:interval:)``).
        public var metricsFile: String?
        public var metricsInterval: Double
        /// The WebSocket listener's address and rules, when it listens.
        public var webSocket: WebSocketListener.Settings?

        public init(
            socketPath: String, socketMode: UInt32 = 0o660, socketGroup: UInt32? = nil, peerPolicy: PeerPolicy = PeerPolicy(),
            limits: ClientLimits = ClientLimits(), version: String, exitWhenInputEnds: Bool = false, metricsFile: String? = nil,
            metricsInterval: Double = Limits.defaultMetricsInterval, webSocket: WebSocketListener.Settings? = nil
        ) {
            self.webSocket = webSocket
            self.metricsFile = metricsFile
            self.metricsInterval = metricsInterval
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
    private let logger: Logger
    private let notifier: SystemdNotifier
    private var watchdogTimer: TimerHandle?
    /// Where and how often the metrics file is written, if it is.
    private let metrics: (path: String, interval: Double)?

    /// Sets the daemon up: nothing runs until ``run()``.
    /// - Parameters:
    ///   - clock: the clock of the loop, the input sources and the notifier (the kernel's monotonic
    ///     clock).
    ///   - layoutFile: the file a reload reads again; nil refuses reloads.
    ///   - sinks: where reports go besides the clients and the windows' virtual touchscreens (TUIO).
    /// - Throws: ``SystemError`` (the socket, the loop, the signals) or an input source's error.
    public init(
        app: Application, options: Options, clock: any TimeSource, sources: [InputSource], activatedFD: Int32? = nil, logger: Logger,
        notifier: SystemdNotifier, layoutFile: String?, sinks: [any ReportSink] = []
    ) throws {
        loop = try EventLoop(clock: clock) { error in logger.error("\(error)") }
        self.notifier = notifier
        self.logger = logger
        metrics = options.metricsFile.map { ($0, options.metricsInterval) }
        signals = try SignalSource([ProcessSignal.terminate, ProcessSignal.interrupt, ProcessSignal.hangUp, ProcessSignal.brokenPipe])
        let endpoint =
            if let activatedFD {
                try SocketEndpoint.activated(fd: activatedFD, path: options.socketPath)
            } else {
                try SocketEndpoint.bind(path: options.socketPath, mode: options.socketMode, group: options.socketGroup)
            }
        // The windows that forward touches get virtual touchscreens (none are made for a layout
        // that forwards nothing).
        let screens = VirtualTouchscreens(warn: { logger.warning("\($0)") }, note: { logger.info("\($0)") })
        let services = DaemonServices(
            input: InputSources(sources, daemonEndsWithInput: options.exitWhenInputEnds), layoutFile: layoutFile,
            observer: ServiceReporter(logger: logger, notifier: notifier, clock: clock), sinks: [screens] + sinks, givesMemoryBack: true)
        let socket = DaemonSocket(endpoint: endpoint, limits: options.limits, policy: options.peerPolicy)
        daemon = Daemon(app: app, socket: socket, loop: loop, version: options.version, services: services)
        if let settings = options.webSocket {
            try daemon.server.listen(webSocket: settings) { logger.warning("\($0)") }
        }
        try loop.register(signals.fd, for: .readable) { [unowned self] _ in self.receiveSignals() }
        startWatchdog()
        try daemon.start()
    }

    /// Pings systemd's watchdog every half `WatchdogSec` (as systemd recommends) from a timer on the
    /// loop, so a stuck loop stops the pings and systemd restarts the daemon. The one periodic
    /// timer, and only when systemd asks for it.
    private func startWatchdog() {
        guard let interval = notifier.watchdogInterval else { return }
        let timer = loop.timer { [unowned self] in
            self.notifier.watchdog()
            self.watchdogTimer?.schedule(after: interval / 2)
        }
        watchdogTimer = timer
        timer.schedule(after: interval / 2)
    }

    /// Runs until a stop signal; returns normally for a clean exit.
    /// - Throws: ``SystemError`` from `epoll_wait`.
    public func run() throws {
        let socket = daemon.server.isActivated ? "descriptor \(daemon.server.listenFD) from systemd" : daemon.server.path
        logger.info("listening", metadata: ["socket": "\(socket)", "views": "\(daemon.app.tree.viewCount)"])
        if let listener = daemon.server.webSocketListener {
            logger.info("websocket: listening on \(listener.boundAddress)", metadata: ["tokens": "\(listener.settings.tokensFile)"])
        }
        daemon.announceReady()
        if let metrics {
            logger.info("writing metrics", metadata: ["file": "\(metrics.path)", "every": "\(metrics.interval) s"])
            daemon.startMetricsFile(path: metrics.path, interval: metrics.interval)
        }
        try loop.run()
        watchdogTimer?.cancel()
    }

    /// Cancels live touches, says goodbye to clients, closes the socket and ends ``run()``.
    public func stop(reason: String) {
        watchdogTimer?.cancel()
        daemon.shutdown(reason: reason)
    }

    private func receiveSignals() {
        do {
            for signal in try signals.receive() { handle(signal: signal) }
        } catch {
            logger.error("\(error)")
        }
    }

    private func handle(signal: Int32) {
        switch signal {
        case ProcessSignal.terminate, ProcessSignal.interrupt:
            logger.info("stopping", metadata: ["signal": "\(signal == ProcessSignal.terminate ? "SIGTERM" : "SIGINT")"])
            stop(reason: "shutting down")
        case ProcessSignal.hangUp:
            // The outcome is logged and told to systemd by the daemon's observer.
            _ = try? daemon.reload(by: .signal)
        default:
            break
        }
    }
}
