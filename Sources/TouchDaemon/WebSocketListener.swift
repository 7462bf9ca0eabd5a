import TouchCore
import TouchSystem
import TouchProtocol

/// The protocol over WebSocket (RFC 6455), on the daemon's own event loop: for web pages in a
/// kiosk browser, which cannot open a Unix socket (`[daemon] websocket`, `docs/protocol.md`).
///
/// It accepts TCP connections and reads each one's opening handshake
/// (``WebSocketHandshake``: the path `/`, an allowed `Origin`, a token from the tokens file),
/// within ``ClientLimits/webSocketHandshakeTimeout`` and ``HTTPRequestHead/maximumBytes``; at most
/// ``ClientLimits/maximumPendingWebSocketHandshakes`` wait at once (more are closed as they come,
/// so a flood of idle connections costs nothing but their accept). A refused handshake gets an
/// HTTP status and the reason. An accepted one becomes a client of the ``SocketServer``, with the
/// role of its token, the same requests, limits and slow-client policy as the Unix socket: each
/// message a text frame.
public final class WebSocketListener {
    /// Where to listen and whom to let in.
    public struct Settings: Sendable {
        public var address: InternetSocketAddress
        /// The tokens file (read again whenever it changes).
        public var tokensFile: String
        /// The `Origin`s a browser's connection may come from (a connection without one is not
        /// a browser's and is not checked).
        public var origins: [String]

        public init(address: InternetSocketAddress, tokensFile: String, origins: [String]) {
            self.address = address
            self.tokensFile = tokensFile
            self.origins = origins
        }
    }

    private struct Pending {
        var bytes: [UInt8] = []
        let deadline: LoopInstant
    }

    public let settings: Settings
    /// The address listened on (with the port the kernel chose for port 0).
    public let boundAddress: String
    private let listenFD: Int32
    private let loop: EventLoop
    private unowned let server: SocketServer
    private var tokens: TokensFile
    private var pending: [Int32: Pending] = [:]
    private var timeoutTimer: TimerHandle?
    /// Takes the connections of the listening socket.
    private var acceptor: ConnectionAcceptor?
    private let warn: (String) -> Void
    /// The tokens file's problem last logged (each is logged once, when it appears).
    private var lastTokensProblem: String?

    /// Listens on the settings' address.
    /// - Throws: ``SystemError`` from `socket`, `bind` (`EADDRINUSE`...) or `listen`.
    public init(settings: Settings, server: SocketServer, loop: EventLoop, warn: @escaping (String) -> Void) throws(SystemError) {
        self.settings = settings
        self.server = server
        self.loop = loop
        self.warn = warn
        tokens = TokensFile(path: settings.tokensFile)
        listenFD = try settings.address.listeningStream(backlog: 128)
        let port = (try? InternetSocketAddress.boundPort(of: listenFD)) ?? settings.address.port
        let host = settings.address.host
        boundAddress = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        timeoutTimer = loop.timer { [unowned self] in self.expireHandshakes() }
        do {
            acceptor = try ConnectionAcceptor(
                listening: listenFD, subject: boundAddress, loop: loop, backoff: server.limits.acceptBackoff,
                paused: { [unowned self] error in self.server.acceptingPaused(error) },
                accepted: { [unowned self] fd in
                    self.server.acceptedConnection()
                    self.take(fd)
                })
        } catch {
            Descriptor.close(listenFD)
            throw error
        }
        if case .failure(let problem) = tokens.current() {
            lastTokensProblem = problem.text
            warn("websocket: \(problem): every connection is refused until there are tokens")
        }
    }

    /// Closes the connections still in their handshake and the listening socket.
    public func shutdown() {
        for fd in pending.keys { close(fd) }
        pending.removeAll()
        timeoutTimer?.cancel()
        acceptor?.stop()
        Descriptor.close(listenFD)
    }

    /// Connections accepted and still in their handshake.
    public var pendingHandshakes: Int { pending.count }

    /// Takes an accepted connection into its handshake, or refuses it when too many are under way.
    private func take(_ fd: Int32) {
        guard pending.count < server.limits.maximumPendingWebSocketHandshakes else {
            server.statistics.webSocketRefused += 1
            return refuse(fd, HTTPRefusal(.serviceUnavailable, "too many handshakes under way: try again"))
        }
        do {
            try loop.register(fd, for: .readable) { [unowned self] _ in self.readHandshake(fd) }
        } catch {
            Descriptor.close(fd)
            return
        }
        let deadline = loop.clock.now.advanced(by: server.limits.webSocketHandshakeTimeout) ?? LoopInstant(microseconds: .max)
        pending[fd] = Pending(deadline: deadline)
        if !(timeoutTimer?.isScheduled ?? true) { timeoutTimer?.schedule(after: server.limits.webSocketHandshakeTimeout) }
    }

    private func readHandshake(_ fd: Int32) {
        guard var entry = pending[fd] else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let received = try? chunk.withUnsafeMutableBytes { bytes throws(SystemError) in
            try SocketIO.receive(fd, into: bytes, "WebSocket connection")
        }
        guard case .done(let n) = received, n > 0 else {
            if received != .wouldBlock { drop(fd) }
            return
        }
        entry.bytes += chunk[0..<n]
        switch HTTPRequestHead.parse(entry.bytes) {
        case .incomplete:
            pending[fd] = entry
        case .refused(let refusal):
            drop(fd, refusal)
        case .head(let head, let length):
            complete(fd, head: head, after: Array(entry.bytes[length...]))
        }
    }

    /// Answers a whole handshake: refuses it, or hands the connection to the server.
    private func complete(_ fd: Int32, head: HTTPRequestHead, after: [UInt8]) {
        let origins = settings.origins
        let handshake: WebSocketHandshake
        switch WebSocketHandshake.check(head, allowsOrigin: { origins.contains($0) }) {
        case .failure(let refusal): return drop(fd, refusal)
        case .success(let checked): handshake = checked
        }
        let known: WebSocketTokens
        switch tokens.current() {
        case .failure(let problem):
            // The details are the operator's (the log), not an unauthenticated peer's.
            if problem.text != lastTokensProblem { warn("websocket: \(problem): every connection is refused until there are tokens") }
            lastTokensProblem = problem.text
            return drop(fd, HTTPRefusal(.serviceUnavailable, "touchd has no usable tokens file: its log says why"))
        case .success(let read):
            lastTokensProblem = nil
            known = read
        }
        guard let token = handshake.token else {
            return drop(fd, HTTPRefusal(.unauthorized, "a token is required: Authorization: Bearer TOKEN, or the subprotocol touchd.bearer.TOKEN"))
        }
        guard let match = known.match(token) else { return drop(fd, HTTPRefusal(.unauthorized, "the token is not in the tokens file")) }
        let transport = ClientTransport.webSocket(tokenIndex: match.index)
        if let reason = server.admissionRefusal(role: match.role, credentials: nil, transport: transport) {
            return drop(fd, HTTPRefusal(.serviceUnavailable, reason))
        }
        // A fresh connection's buffer takes the short response whole; anything else is a dead peer.
        guard Self.sendWhole(handshake.response, to: fd) else { return drop(fd) }
        pending.removeValue(forKey: fd)
        loop.unregister(fd)
        server.statistics.webSocketHandshakes += 1
        server.connect(fd, credentials: nil, role: match.role, transport: transport, initialBytes: after)
    }

    /// Closes the handshakes that did not arrive in time; watches for the next one due.
    private func expireHandshakes() {
        let now = loop.clock.now
        var next: LoopInstant?
        for (fd, entry) in pending.sorted(by: { $0.key < $1.key }) {
            guard entry.deadline <= now else {
                next = min(next ?? entry.deadline, entry.deadline)
                continue
            }
            server.statistics.webSocketHandshakeTimeouts += 1
            let refusal = HTTPRefusal(.badRequest, "the handshake did not arrive within \(formatNumber(server.limits.webSocketHandshakeTimeout.seconds)) s")
            drop(fd, refusal, counted: false)
        }
        if let next { timeoutTimer?.schedule(at: next) }
    }

    /// Ends a connection in its handshake, with a refusal when one is given (counted in
    /// ``SocketServer/Statistics/webSocketRefused`` unless `counted` is false).
    private func drop(_ fd: Int32, _ refusal: HTTPRefusal? = nil, counted: Bool = true) {
        pending.removeValue(forKey: fd)
        loop.unregister(fd)
        if let refusal {
            if counted { server.statistics.webSocketRefused += 1 }
            refuse(fd, refusal)
        } else {
            close(fd)
        }
    }

    /// Writes the refusal without waiting (what the socket takes) and closes the connection.
    private func refuse(_ fd: Int32, _ refusal: HTTPRefusal) {
        _ = Self.sendWhole(refusal.response, to: fd)
        close(fd)
    }

    /// Writes `bytes` without waiting; whether the socket took them all.
    private static func sendWhole(_ bytes: [UInt8], to fd: Int32) -> Bool {
        let sent = try? bytes.withUnsafeBytes { raw throws(SystemError) in try SocketIO.send(fd, raw, "WebSocket connection") }
        guard case .done(let n) = sent else { return false }
        return n == bytes.count
    }

    private func close(_ fd: Int32) { Descriptor.close(fd) }
}

/// The tokens file, read again when it changes (its inode, size, mode or times): a token
/// added or removed takes effect at the next handshake, without a reload.
struct TokensFile {
    let path: String
    private var stamp: [Int]?
    private var cached: Result<WebSocketTokens, Problem> = .failure(Problem(text: "not read yet"))

    struct Problem: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    init(path: String) { self.path = path }

    /// The tokens, or why there are none to check against. A file that group or others may read
    /// is refused: a token is a password.
    mutating func current() -> Result<WebSocketTokens, Problem> {
        let status: FileStatus
        do { status = try FileStatus.of(path) } catch {
            stamp = nil
            return .failure(Problem(text: error.isMissing ? "\(path) does not exist: add a token to it (docs/operations.md)" : "\(error)"))
        }
        if status.stamp != stamp {
            stamp = status.stamp
            cached = Self.read(path, permissions: status.permissions)
        }
        return cached
    }

    private static func read(_ path: String, permissions: UInt32) -> Result<WebSocketTokens, Problem> {
        guard permissions & 0o077 == 0 else {
            return .failure(Problem(text: "\(path) may be read by group or others (mode \(String(permissions & 0o777, radix: 8))): chmod 600 it"))
        }
        do {
            let bytes = try FileReader.read(path, limit: WebSocketTokens.maximumFileBytes)
            return .success(try WebSocketTokens(parsing: bytes))
        } catch let error as WebSocketTokens.Problem {
            return .failure(Problem(text: "\(path): \(error)"))
        } catch {
            return .failure(Problem(text: "\(error)"))
        }
    }
}
