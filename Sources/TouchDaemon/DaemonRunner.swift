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
    /// Called once the socket listens and the sources are open (systemd's READY=1).
    public var onReady: (() -> Void)?
    /// Called around a reload (systemd's RELOADING=1 ... READY=1).
    public var onReloading: ((Bool) -> Void)?

    public init(
        app: Application, options: Options, sources: [InputSource], activatedFD: Int32? = nil, logger: Logger,
        reloadLayout: (() throws -> Application)?
    ) throws {
        loop = try EventLoop()
        signals = try SignalSource([SIGTERM, SIGINT, SIGHUP, SIGPIPE])
        let server = try SocketServer(
            path: options.socketPath, loop: loop, mode: options.socketMode, group: options.socketGroup, activatedFD: activatedFD,
            limits: options.limits, policy: options.peerPolicy)
        daemon = Daemon(app: app, server: server, loop: loop, version: options.version)
        daemon.reloadLayout = reloadLayout
        self.sources = sources
        self.logger = logger
        daemon.describeDevices = { [unowned self] in .array(self.sources.flatMap { source -> [JSONValue] in
            if case .array(let items) = source.deviceDescriptions { return items }
            return []
        }) }
        try loop.register(signals.fd, for: .readable) { [unowned self] _ in
            for signal in self.signals.receive() { self.handle(signal: signal) }
        }
        let exitWhenInputEnds = options.exitWhenInputEnds
        for source in sources {
            try source.start(on: loop) { [unowned self] event in
                switch event {
                case .frame(let frame): self.daemon.receive(frame)
                case .deviceAdded(let id, let description):
                    self.logger.info("device added", metadata: ["device": "\(id)"])
                    self.daemon.publish(DeviceMessages.added(id: id, description: description))
                case .deviceRemoved(let id):
                    self.logger.info("device removed", metadata: ["device": "\(id)"])
                    self.daemon.cancelTouches(ofDevice: id)
                    self.daemon.publish(DeviceMessages.removed(id: id))
                case .finished:
                    self.finishedSources += 1
                    if exitWhenInputEnds && self.finishedSources == self.sources.count {
                        self.logger.info("input ended")
                        self.stop(reason: "input ended")
                    }
                }
            }
        }
    }

    /// Runs until a stop signal; returns normally for a clean exit.
    public func run() throws {
        logger.info("listening", metadata: ["socket": "\(daemon.server.path)", "views": "\(daemon.app.tree.viewCount)"])
        onReady?()
        try loop.run()
    }

    /// Cancels live touches, says goodbye to clients, closes the socket and ends ``run()``.
    public func stop(reason: String) {
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
            guard let reload = daemon.reloadLayout else { return }
            onReloading?(true)
            do {
                daemon.replaceApplication(try reload())
                logger.info("layout reloaded", metadata: ["views": "\(daemon.app.tree.viewCount)"])
            } catch {
                logger.error("reload refused; the previous layout keeps running: \(error)")
            }
            onReloading?(false)
        default:
            break
        }
    }
}

/// Messages of the `devices` topic.
public enum DeviceMessages {
    public static func added(id: String, description: JSONValue) -> OutboundMessage {
        OutboundMessage(topic: .devices, droppable: false, members: [("type", "device"), ("event", "added"), ("device", .string(id)), ("description", description)])
    }

    public static func removed(id: String) -> OutboundMessage {
        OutboundMessage(topic: .devices, droppable: false, members: [("type", "device"), ("event", "removed"), ("device", .string(id))])
    }
}
