import Synchronization
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
import TouchSystem

/// A live daemon for one input of the request target: the daemon's own `Daemon`, `SocketServer`
/// and `EventLoop` on a socket of its own, serving an application built from a layout of
/// `config/` (which `reload` re-reads), on a manual clock so that runs repeat exactly.
///
/// Everything is let go when the value goes, so LeakSanitizer sees anything the daemon keeps.
final class FuzzDaemon {
    /// The user that connects with the read-only role (`nobody`) when the process is root.
    static let readOnlyUID: UInt32 = 65534
    /// The daemon's own user in the policy: neither root nor ``readOnlyUID``.
    static let daemonUID: UInt32 = 4242

    let clock = ManualClock(seconds: 1000)
    let loop: EventLoop
    let daemon: Daemon
    let path: String
    let window: ResponderID
    let windowSize: Size

    init(layout: String) throws(FuzzViolation) {
        let app = try Self.application(layout)
        path = Self.socketPath()
        window = app.tree.windowIDs.first ?? "main"
        windowSize = app.tree.windowProperties(of: window)?.size ?? Size(width: 100, height: 100)
        do {
            loop = try EventLoop(clock: clock)
            // Small bounds, so that inputs of a few kilobytes reach them.
            let limits = ClientLimits(maximumQueuedBytes: 128 * 1024, maximumLineLength: 1000, maximumClients: 8)
            // Not root, every client connects as the process's own user: it gets control, as the
            // clients it stands for do.
            let policy = PeerPolicy(controlUIDs: Accounts.effectiveUserID == 0 ? [] : [Accounts.effectiveUserID], daemonUID: Self.daemonUID)
            let socket = DaemonSocket(endpoint: try SocketEndpoint.bind(path: path, mode: 0o666), limits: limits, policy: policy)
            let services = DaemonServices(input: InputSources(), layoutFile: layout)
            daemon = Daemon(app: app, socket: socket, loop: loop, version: "touchd fuzz", services: services)
            try daemon.start()
        } catch {
            throw FuzzViolation("the daemon did not start: \(error)")
        }
    }

    deinit { daemon.shutdown(reason: "fuzz input over") }

    /// The user a client meant to have `role` connects as, and the role it gets: as root, a
    /// read-only client connects as ``readOnlyUID``; otherwise every client connects as the
    /// process's own user, with control.
    static func connection(for role: ClientRole) -> (uid: UInt32, role: ClientRole) {
        guard Accounts.effectiveUserID == 0 else { return (Accounts.effectiveUserID, .control) }
        return role == .readOnly ? (readOnlyUID, .readOnly) : (0, .control)
    }

    /// Runs the loop and the clients until nothing moves: no descriptor ready, no request served
    /// or waiting for its turn, no byte read.
    /// - Throws: ``FuzzViolation`` when that does not happen within a generous bound (a hang).
    func settle(_ clients: [FuzzClient]) throws(FuzzViolation) {
        var quiet = 0
        for _ in 0..<100_000 {
            let before = daemon.server.statistics
            let ready: Int
            do { ready = try loop.runOnce(timeoutMilliseconds: 0) } catch { throw FuzzViolation("the loop failed: \(error)") }
            loop.runDueTimers()
            loop.runDeferred()
            var read = 0
            for client in clients {
                client.pump()
                read += try client.read()
            }
            let idle = ready == 0 && read == 0 && before == daemon.server.statistics && !daemon.server.hasRequestsWaiting
            quiet = idle ? quiet + 1 : 0
            if quiet >= 2 { return }
        }
        throw FuzzViolation("the daemon never settled: a hang")
    }

    /// Lets `span` pass on the daemon's clock and runs what came due.
    func advance(by span: TimeSpan) {
        clock.advance(by: span)
        loop.runDueTimers()
    }

    // MARK: the layouts

    private static let applications = Mutex<[String: Application]>([:])
    private static let sockets = Atomic<Int>(0)

    /// The application of the layout at `path`, loaded once per process.
    private static func application(_ path: String) throws(FuzzViolation) -> Application {
        if let app = applications.withLock({ $0[path] }) { return app }
        do throws(LayoutErrors) {
            let app = try LoadedLayout.load(path: path).app
            applications.withLock { $0[path] = app }
            return app
        } catch {
            throw FuzzViolation("the bundled layout \(path) does not load: \(error)")
        }
    }

    private static func socketPath() -> String {
        let serial = sockets.wrappingAdd(1, ordering: .relaxed).newValue
        return "/tmp/touchd-fuzz-\(ProcessContext.id)-\(serial).sock"
    }
}
