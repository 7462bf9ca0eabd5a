import TouchSystem
import ArgumentParser
import Logging
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout
import TouchProtocol

/// `touchd --config FILE`: runs the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon (the default: `touchd --config FILE` is `touchd run --config FILE`).")

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String

    @Option(
        name: .long, help: "The socket path (default: the layout's [daemon] socket, else /run/touchd/touchd.sock).",
        completion: Completions.socket)
    var socket: String?

    @Option(name: .long, help: "The socket file's group (name or number); default: the layout's, else the daemon's own group.")
    var socketGroup: String?

    @Option(
        name: .long,
        help: "Users who may connect (read-only at least), names or ids, comma-separated. Default: the layout's, else whoever the file mode lets in.")
    var allowUsers: String?

    @Option(name: .long, help: "Groups whose members may connect, names or ids, comma-separated. Default: the layout's.")
    var allowGroups: String?

    @Option(
        name: .long,
        help: "Users with the control role besides root and the daemon's own user, names or ids, comma-separated. Default: the layout's.")
    var controlUsers: String?

    @Option(name: .long, help: "Groups whose members have the control role, names or ids, comma-separated. Default: the layout's.")
    var controlGroups: String?

    @Option(
        name: .long,
        help: "Write the daemon's figures to this file for node_exporter's textfile collector (default: the layout's [daemon] metrics_file, else none).")
    var metricsFile: String?

    @Option(name: .long, help: "Seconds between two writes of the metrics file, 1 to 3600 (default: the layout's, else 15).")
    var metricsInterval: Double?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.", completion: Completions.logLevel)
    var logLevel: String = "info"

    @Flag(name: .long, help: "Do not open input devices (with --replay: only the recording).")
    var noDevices = false

    @Option(
        name: .long, help: "Play this recording as an input device (for demos and tests without hardware).",
        completion: Completions.recording)
    var replay: String?

    @Option(name: .long, help: "Replay speed factor (greater than 0: 2 plays twice as fast; default 1).")
    var replaySpeed: Double?

    @Flag(name: .long, help: "Start the replay when the first client subscribes (or records, or calibrates).")
    var replayWaitsForClient = false

    @Flag(name: .long, help: "Exit once the replay has ended.")
    var exitAfterReplay = false

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp(
            "Send touches as TUIO 1.1 cursors (/tuio/2Dcur bundles over UDP) to HOST:PORT, or to PORT on the loopback (repeatable).",
            valueName: "address"))
    var tuio: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Serve the protocol over WebSocket on HOST:PORT, an IP address (default: the layout's [daemon] websocket, else none).",
            valueName: "address"))
    var websocket: String?

    @Option(
        name: .long,
        help: "The WebSocket tokens file (default: the layout's [daemon] websocket_tokens, else /var/lib/touchd/websocket-tokens).")
    var websocketTokens: String?

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp(
            "A browser origin let in over WebSocket, such as http://127.0.0.1:8080 (repeatable; default: the layout's [daemon] websocket_origins).",
            valueName: "origin"))
    var websocketOrigin: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Which touches go out as TUIO cursors: forwarded (those the layout's forward passes on, the default) or all.", valueName: "touches"))
    var tuioTouches: String?

    /// Options that only mean something with another are refused without it: a replay's, TUIO's;
    /// those that stand for a layout's `[daemon]` keys are checked as those keys are.
    func validate() throws {
        try validateDaemonOptions()
        if replay == nil {
            for (given, option) in [(replaySpeed != nil, "--replay-speed"), (replayWaitsForClient, "--replay-waits-for-client"), (exitAfterReplay, "--exit-after-replay")]
            where given {
                throw ValidationError("\(option) applies to a replay: give --replay RECORDING too")
            }
        }
        if let replaySpeed, !(replaySpeed > 0 && replaySpeed.isFinite) {
            throw ValidationError("--replay-speed \(replaySpeed): expected a number greater than 0 (1 is real time, 2 twice as fast)")
        }
        if let tuioTouches {
            guard !tuio.isEmpty else { throw ValidationError("--tuio-touches applies to TUIO output: give --tuio ADDRESS too") }
            guard TUIOTouches(rawValue: tuioTouches) != nil else { throw ValidationError("--tuio-touches \(tuioTouches): expected forwarded or all") }
        }
    }

    /// `--socket`, `--metrics-file` and `--websocket` as the layout's `socket`, `metrics_file` and
    /// `websocket` are checked: absolute paths, an address with a port (a usage error, before
    /// anything starts).
    private func validateDaemonOptions() throws {
        for (option, path) in [("--socket", socket), ("--metrics-file", metricsFile)] {
            if let path, !path.hasPrefix("/") {
                throw ValidationError("\(option) \(path): expected an absolute path, as the layout's [daemon] keys are")
            }
        }
        if let socket, let problem = DaemonSpec.socketPathLengthProblem(socket) {
            throw ValidationError("--socket \(socket): \(problem)")
        }
        if let websocket, !DaemonSpec.isListenAddress(websocket) {
            throw ValidationError("--websocket \(websocket): expected HOST:PORT with an IP address (127.0.0.1:8765, [::1]:8765): no name is looked up")
        }
    }

    func run() throws {
        let logger = try bootstrapLogging()
        if let metricsInterval, !Limits.metricsInterval.contains(metricsInterval) {
            throw ValidationError("--metrics-interval \(metricsInterval): expected \(Limits.metricsInterval)")
        }
        let path = config
        let overrides = overriddenKeys
        // On a thread of its own, so what the parse and the checks let go is given back whole
        // (``MemoryRelease``): the daemon gives it back once it has started.
        let (document, app) = try MemoryRelease.onScratchThread { () throws -> (LayoutDocument, Application) in
            let (document, app) = try loadLayout(path) { logger.warning("\($0)") }
            try checkStartup(document, path: path, overrides: overrides)
            return (document, app)
        }
        // The one clock: the loop's, the input's, the notifier's.
        let clock = MonotonicClock()
        let sources = try inputSources(document: document, tree: app.tree, logger: logger, clock: clock)
        let daemonSpec = document.daemon
        let socket = self.socket ?? daemonSpec.socket
        let options = DaemonRunner.Options(
            socketPath: socket, socketMode: daemonSpec.socketMode, socketGroup: try socketGroupID(daemonSpec),
            peerPolicy: try peerPolicy(daemonSpec), version: ReleaseVersion.of("touchd"), exitWhenInputEnds: exitAfterReplay,
            metricsFile: metricsFile ?? daemonSpec.metricsFile, metricsInterval: metricsInterval ?? daemonSpec.metricsInterval,
            webSocket: try webSocketSettings(daemonSpec, logger: logger))
        let sinks = try tuioSinks(logger: logger)
        let activated = try activatedSocket(path: socket, logger: logger)
        let notifier = SystemdNotifier(clock: clock)
        let runner: DaemonRunner
        do {
            runner = try DaemonRunner(
                app: app, options: options, clock: clock, sources: sources, activatedFD: activated, logger: logger, notifier: notifier,
                layoutFile: path, sinks: sinks)
        } catch let error as SystemError {
            let hint = StartupHints.socket(error, path: socket).map { "; \($0)" } ?? ""
            logger.critical("cannot start: \(error)\(hint)")
            throw ExitCode.failure
        }
        try runner.run()
    }

    /// The WebSocket listener's settings: the flags, else the layout's `[daemon]` keys; none when
    /// neither names an address. A listener off the loopback without tokens is refused.
    private func webSocketSettings(_ spec: DaemonSpec, logger: Logger) throws -> WebSocketListener.Settings? {
        guard let text = websocket ?? spec.webSocket else { return nil }
        let tokensFile = websocketTokens ?? spec.webSocketTokens
        let origins = websocketOrigin.isEmpty ? spec.webSocketOrigins : websocketOrigin
        let source = websocket != nil ? "--websocket \(text)" : "[daemon] websocket in \(config)"
        if let bad = origins.first(where: { !DaemonSpec.isOrigin($0) }) {
            throw ValidationError("--websocket-origin \(bad): expected an origin such as http://127.0.0.1:8080, https://kiosk.example or null")
        }
        guard tokensFile.hasPrefix("/") else { throw ValidationError("--websocket-tokens \(tokensFile): expected an absolute path") }
        switch StartupChecks.webSocketReadiness(address: text, tokensFile: tokensFile) {
        case .refused(let problem):
            logger.critical("cannot start: \(source): \(problem)")
            throw ExitCode.failure
        case .warning, .ready:
            // A warning is logged by the listener as it starts.
            break
        }
        do {
            return WebSocketListener.Settings(address: try InternetSocketAddress(parsing: text), tokensFile: tokensFile, origins: origins)
        } catch {
            throw ValidationError("\(source): \(error)")
        }
    }

    /// The TUIO sender, when `--tuio` names targets.
    private func tuioSinks(logger: Logger) throws -> [any ReportSink] {
        guard !tuio.isEmpty else { return [] }
        let touches = tuioTouches.flatMap(TUIOTouches.init(rawValue:)) ?? .forwarded
        var targets: [InternetSocketAddress] = []
        for text in tuio {
            // A port alone is one on the loopback.
            let written = text.allSatisfy(\.isASCII) && !text.isEmpty && text.allSatisfy(\.isNumber) ? "127.0.0.1:\(text)" : text
            do { targets.append(try InternetSocketAddress(parsing: written)) } catch {
                throw ValidationError("--tuio \(text): expected HOST:PORT with an IP address (127.0.0.1:3333, [::1]:3333) or a port")
            }
        }
        do {
            let sender = try TUIOSender(targets: targets, touches: touches, warn: { logger.warning("\($0)") })
            logger.info("sending TUIO", metadata: ["to": "\(targets.map(\.description).joined(separator: ", "))", "touches": "\(touches.rawValue)"])
            return [sender]
        } catch {
            logger.critical("cannot send TUIO: \(error)")
            throw ExitCode.failure
        }
    }

    /// Sends every log line to standard error at `--log-level`, with journald's priorities when
    /// the journal reads it; returns the daemon's logger.
    private func bootstrapLogging() throws -> Logger {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level \(logLevel): expected trace, debug, info, notice, warning, error or critical")
        }
        let forJournal = JournalStream.isStandardError
        LoggingSystem.bootstrap { label in
            var handler = JournalLogHandler(label: label, forJournal: forJournal)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "touchd")
    }

    /// The live devices (unless `--no-devices`) and the recording to replay (with `--replay`).
    private func inputSources(document: LayoutDocument, tree: ViewTree, logger: Logger, clock: MonotonicClock) throws -> [InputSource] {
        var sources: [InputSource] = []
        if !noDevices {
            let live = LiveDeviceSource(layout: document, tree: tree, logger: logger, clock: clock)
            live.besideOtherInput = replay != nil
            sources.append(live)
        }
        if let replay {
            do {
                let setup = try RecordingReplay(path: replay, descriptionPath: nil, layout: document, tree: tree, window: nil)
                sources.append(RecordingSource(replay: setup, speed: replaySpeed ?? 1, clock: clock, waitsForSubscriber: replayWaitsForClient))
            } catch {
                logger.critical("cannot replay \(replay): \(error)")
                throw ExitCode.failure
            }
        }
        return sources
    }

    /// The socket file's group: `--socket-group`, else the layout's, else none (the daemon's own).
    private func socketGroupID(_ daemonSpec: DaemonSpec) throws -> UInt32? {
        guard let socketGroup = self.socketGroup ?? daemonSpec.socketGroup else { return nil }
        if let n = UInt32(socketGroup) { return n }
        if let id = Accounts.groupID(socketGroup) { return id }
        let source = self.socketGroup != nil ? "--socket-group \(socketGroup)" : "[daemon] socket_group \"\(socketGroup)\" in \(config)"
        throw ValidationError("\(source): no such group")
    }

    /// The peer policy: each `[daemon]` list of the layout, or its flag when given, names looked up.
    func peerPolicy(_ spec: DaemonSpec) throws -> PeerPolicy {
        func list(_ flag: String?, _ name: String, _ key: String, _ fromLayout: [AccountRef]) throws -> (list: [AccountRef], source: String) {
            guard let flag else { return (fromLayout, "[daemon] \(key)") }
            let parts = try flag.split(separator: ",").map { part in
                let text = part.trimmingSpaces()
                guard let account = AccountRef(parsing: text) else { throw ValidationError("\(name): \"\(text)\": expected \(AccountRef.expected)") }
                return account
            }
            return (parts, name)
        }
        do {
            return try PeerPolicy.resolving(
                allowUsers: try list(allowUsers, "--allow-users", "allow_users", spec.allowUsers),
                allowGroups: try list(allowGroups, "--allow-groups", "allow_groups", spec.allowGroups),
                controlUsers: try list(controlUsers, "--control-users", "control_users", spec.controlUsers),
                controlGroups: try list(controlGroups, "--control-groups", "control_groups", spec.controlGroups))
        } catch let error as AccountLookupError {
            throw ValidationError(error.description)
        }
    }

    /// The `[daemon]` keys the command line replaces.
    private var overriddenKeys: StartupChecks.Overrides {
        let flags: [(String?, String)] = [
            (socket, "socket"), (socketGroup, "socket_group"), (allowUsers, "allow_users"), (allowGroups, "allow_groups"),
            (controlUsers, "control_users"), (controlGroups, "control_groups"), (websocket ?? websocketTokens, "websocket"),
        ]
        return StartupChecks.Overrides(Set(flags.compactMap { $0.0 == nil ? nil : $0.1 }))
    }

    /// The listening socket systemd passed, if any. Without one, the socket's directory must exist;
    /// only the unit's runtime directory (``StartupChecks/runtimeDirectory``) is made when missing.
    private func activatedSocket(path socket: String, logger: Logger) throws -> Int32? {
        let activated: Int32?
        do {
            activated = try SocketActivation.listeningDescriptor()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        guard activated == nil else { return activated }
        if let problem = StartupChecks.socketDirectoryProblem(socket) {
            logger.critical("cannot start: \(self.socket != nil ? "--socket " : "[daemon] socket in \(config): ")\(problem)")
            throw ExitCode.failure
        }
        let directory = StartupChecks.runtimeDirectory
        if socket.hasPrefix(directory + "/") {
            // An existing directory is fine; any other failure shows when the socket is bound.
            try? FileStatus.makeDirectory(directory, permissions: 0o755)
        }
        return activated
    }
}
