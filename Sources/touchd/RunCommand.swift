import TouchSystem
import ArgumentParser
import Foundation
import Logging
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout
#if canImport(Glibc)
import Glibc
#endif

/// The version touchd reports in its hello message.
let touchdVersion = "touchd 0.1.0"

/// `touchd --config FILE`: runs the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon (the default: `touchd --config FILE` is `touchd run --config FILE`).")

    @Option(name: .long, help: "The layout file (TOML).")
    var config: String

    @Option(name: .long, help: "The socket path (default: the layout's [daemon] socket, else /run/touchd/touchd.sock).")
    var socket: String?

    @Option(name: .long, help: "The socket file's group (name or number); default: the layout's, else the daemon's own group.")
    var socketGroup: String?

    @Option(name: .long, help: "Allowed client user ids, comma-separated (root is always allowed). Default: the layout's, else whoever the file mode lets in.")
    var allowUsers: String?

    @Option(name: .long, help: "Allowed client group ids, comma-separated. Default: the layout's.")
    var allowGroups: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Flag(name: .long, help: "Do not open input devices (with --replay: only the recording).")
    var noDevices = false

    @Option(name: .long, help: "Play this recording as an input device (for demos and tests without hardware).")
    var replay: String?

    @Option(name: .long, help: "Replay speed factor (greater than 0: 2 plays twice as fast).")
    var replaySpeed: Double = 1

    @Flag(name: .long, help: "Start the replay when the first client subscribes.")
    var replayWaitsForClient = false

    @Flag(name: .long, help: "Exit once the replay has ended.")
    var exitAfterReplay = false

    func run() throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level \(logLevel): expected trace, debug, info, notice, warning, error or critical")
        }
        let environment = ProcessInfo.processInfo.environment
        let forJournal = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { label in
            var handler = JournalLogHandler(label: label, forJournal: forJournal)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "touchd")
        guard replaySpeed > 0, replaySpeed.isFinite else {
            throw ValidationError("--replay-speed \(replaySpeed): expected a number greater than 0 (1 is real time, 2 twice as fast)")
        }
        let path = config
        let (document, app) = try loadLayout(path)
        var sources: [InputSource] = []
        if !noDevices { sources.append(LiveDeviceSource(layout: document, tree: app.tree, logger: logger)) }
        var recordingSource: RecordingSource?
        if let replay {
            do {
                let setup = try RecordingReplay(path: replay, descriptionPath: nil, layout: document, tree: app.tree, window: nil)
                recordingSource = RecordingSource(replay: setup, speed: replaySpeed)
                sources.append(recordingSource!)
            } catch {
                logger.critical("cannot replay \(replay): \(error)")
                throw ExitCode.failure
            }
        }
        let daemonSpec = document.daemon
        let socket = self.socket ?? daemonSpec.socket
        var gid: gid_t?
        if let socketGroup = self.socketGroup ?? daemonSpec.socketGroup {
            if let n = gid_t(socketGroup) { gid = n } else if let g = getgrnam(socketGroup) { gid = g.pointee.gr_gid } else {
                throw ValidationError("--socket-group \(socketGroup): no such group")
            }
        }
        func ids(_ text: String?, _ flag: String, _ fromLayout: [UInt32]) throws -> Set<UInt32> {
            guard let text else { return Set(fromLayout) }
            return Set(try text.split(separator: ",").map { part in
                guard let n = UInt32(part.trimmingCharacters(in: .whitespaces)) else { throw ValidationError("\(flag): \"\(part)\" is not a number") }
                return n
            })
        }
        let policy = PeerPolicy(
            allowedUIDs: try ids(allowUsers, "--allow-users", daemonSpec.allowUsers),
            allowedGIDs: try ids(allowGroups, "--allow-groups", daemonSpec.allowGroups))
        let activated: Int32?
        do {
            activated = try SocketActivation.listeningDescriptor()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        if activated == nil {
            let directory = String(socket[..<(socket.lastIndex(of: "/") ?? socket.startIndex)])
            if !directory.isEmpty { mkdir(directory, 0o755) }
        }
        let notifier = SystemdNotifier(environment: environment)
        let runner: DaemonRunner
        do {
            runner = try DaemonRunner(
                app: app,
                options: DaemonRunner.Options(
                    socketPath: socket, socketMode: mode_t(daemonSpec.socketMode), socketGroup: gid, peerPolicy: policy,
                    version: touchdVersion, exitWhenInputEnds: exitAfterReplay),
                sources: sources, activatedFD: activated, logger: logger, notifier: notifier,
                reloadLayout: { try LoadedLayout.load(path: path) })
        } catch let error as SystemError {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        if let recordingSource {
            if replayWaitsForClient {
                runner.daemon.onSubscribe = { recordingSource.begin() }
            } else {
                recordingSource.begin()
            }
        }
        runner.daemon.onReload = { starting in
            if starting { notifier.reloading() } else { notifier.ready(status: "layout reloaded") }
        }
        try runner.run()
    }
}
