import TouchSystem
import CLinux
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Who may connect, checked against the peer's credentials (SO_PEERCRED, and SO_PEERGROUPS for its
/// supplementary groups). Empty lists allow everyone the socket file's permissions let in; otherwise
/// root, a listed user, or a member of a listed group (primary or supplementary) is allowed.
public struct PeerPolicy: Hashable, Sendable {
    public var allowedUIDs: Set<UInt32>
    public var allowedGIDs: Set<UInt32>

    public init(allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = []) {
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
    }

    public func allows(_ peer: PeerCredentials?) -> Bool {
        if allowedUIDs.isEmpty && allowedGIDs.isEmpty { return true }
        guard let peer else { return false }
        return peer.uid == 0 || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
            || peer.supplementaryGIDs.contains { allowedGIDs.contains($0) }
    }
}

/// The daemon's Unix stream socket: accepts clients, reads their request lines, and fans messages
/// out to the clients whose subscriptions match, never blocking on any of them.
public final class SocketServer {
    public let path: String
    public let listenFD: Int32
    /// Whether the descriptor came from systemd (then the file is never unlinked by touchd).
    public let isActivated: Bool
    public let limits: ClientLimits
    public let policy: PeerPolicy
    private let loop: EventLoop
    private var clients: [Int32: ClientConnection] = [:]
    /// Clients being disconnected whose last words (a `dropped` notice, a `goodbye`) the socket did
    /// not take at once: written as the socket allows, closed when done or at their deadline.
    private var closing: [Int32: (client: ClientConnection, deadline: Double)] = [:]
    private lazy var closingTimer = loop.timer { [unowned self] in self.closingDeadlinePassed() }
    /// How long a disconnected client's last words may wait for the client to read them.
    public static let closingGrace = 2.0
    /// Called with each request line of a client (its bytes, without the newline); the answer (a
    /// reply message) is sent back to it.
    public var onRequest: ((_ client: ClientHandle, _ line: [UInt8]) -> OutboundMessage?)?
    /// Called when a client is connected, with its greeting to send first.
    public var greeting: OutboundMessage?
    /// Called after a client connects or goes away.
    public var onClientsChanged: (() -> Void)?
    public private(set) var statistics = Statistics()
    /// Whether writes are held back until the end of a ``batch(_:)``.
    private var batching = false
    /// The clients with bytes queued during the current batch.
    private var unflushed: [ClientConnection] = []

    public struct Statistics: Hashable, Sendable {
        public var accepted = 0
        public var refused = 0
        public var disconnectedSlow = 0
        public var droppedMessages = 0
        public var sentMessages = 0
    }

    /// A client as request handlers see it.
    public struct ClientHandle: Hashable, Sendable {
        public let fd: Int32
    }

    /// Binds `path` (mode `mode`, group `group` when given), or adopts an already listening descriptor.
    ///
    /// A socket file left behind is removed only when nothing answers on it: a running daemon's
    /// socket is never taken over.
    public init(
        path: String, loop: EventLoop, mode: mode_t = 0o660, group: gid_t? = nil, activatedFD: Int32? = nil,
        limits: ClientLimits = ClientLimits(), policy: PeerPolicy = PeerPolicy()
    ) throws(SystemError) {
        self.path = path
        self.loop = loop
        self.limits = limits
        self.policy = policy
        if let activatedFD {
            listenFD = activatedFD
            isActivated = true
            try Descriptor.setNonBlocking(activatedFD, "fd \(activatedFD) from systemd")
        } else {
            isActivated = false
            try SocketServer.removeStaleSocket(at: path)
            let fd = try SystemCall.descriptor("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
            do {
                let address = try UnixSocketAddress(path: path)
                let oldMask = umask(0o177)
                defer { umask(oldMask) }
                try address.withSockaddr { sockaddr, length throws(SystemError) in
                    try SystemCall.require("bind", path) { bind(fd, sockaddr, length) }
                }
                try SystemCall.require("chmod", path) { chmod(path, mode) }
                if let group { try SystemCall.require("chown", path) { chown(path, uid_t.max, group) } }
                try SystemCall.require("listen", path) { listen(fd, 64) }
            } catch {
                Descriptor.close(fd)
                throw error
            }
            listenFD = fd
        }
        try loop.register(listenFD, for: .readable) { [unowned self] _ in self.acceptClients() }
    }

    /// Closes every client and the listening socket; unlinks the file unless systemd owns it.
    public func shutdown(reason: String) {
        for client in clients.values {
            _ = client.send(MessageEncoder.goodbye(reason: reason), limits: ClientLimits(maximumQueuedBytes: .max))
            _ = client.flush()
            drop(client)
        }
        for fd in closing.keys { closeLingering(fd) }
        closingTimer.cancel()
        loop.unregister(listenFD)
        if !isActivated {
            Descriptor.close(listenFD)
            _ = try? SystemCall.require("unlink", path) { unlink(path) }
        }
    }

    public var clientCount: Int { clients.count }

    /// Runs `body`, holding back the socket writes of the messages it sends until it returns: then
    /// each client gets one write for all of them (a frame's touches, its hits and actions) rather
    /// than one write, and one wake-up of the client, per message. Nested batches join the outer one.
    public func batch(_ body: () -> Void) {
        guard !batching else { return body() }
        batching = true
        body()
        batching = false
        let waiting = unflushed
        unflushed.removeAll(keepingCapacity: true)
        for client in waiting where clients[client.fd] === client { flush(client) }
    }

    /// Sends `message` to every client that wants it.
    public func broadcast(_ message: OutboundMessage) {
        for client in clients.values where client.wants(message) { deliver(message, to: client) }
    }

    /// Sends `message` to one client.
    public func send(_ message: OutboundMessage, to handle: ClientHandle) {
        guard let client = clients[handle.fd] else { return }
        deliver(message, to: client)
    }

    /// Changes a client's subscriptions.
    public func withSubscriptions<T>(of handle: ClientHandle, _ body: (inout [Subscription], inout Int) -> T) -> T? {
        guard let client = clients[handle.fd] else { return nil }
        return body(&client.subscriptions, &client.nextSubscriptionID)
    }

    /// Disconnects a client after sending it `reason`.
    public func disconnect(_ handle: ClientHandle, reason: String) {
        guard let client = clients[handle.fd] else { return }
        _ = client.send(MessageEncoder.goodbye(reason: reason), limits: ClientLimits(maximumQueuedBytes: .max))
        _ = client.flush()
        drop(client)
    }

    /// Per-client figures for the `stats` command.
    public var clientSummaries: [(fd: Int32, queuedBytes: Int, dropped: Int, subscriptions: Int)] {
        clients.values.sorted { $0.fd < $1.fd }.map { ($0.fd, $0.queuedBytes, $0.totalDropped, $0.subscriptions.count) }
    }

    private func deliver(_ message: OutboundMessage, to client: ClientConnection) {
        switch client.send(message, limits: limits) {
        case .queued:
            statistics.sentMessages += 1
            if !batching {
                flush(client)
            } else if !client.awaitsFlush {
                client.awaitsFlush = true
                unflushed.append(client)
            }
        case .dropped:
            statistics.droppedMessages += 1
        case .overflow:
            statistics.disconnectedSlow += 1
            // The backlog goes (a line partly written is completed); the client is told what it
            // missed and why it is disconnected, as far as its socket takes it without blocking.
            statistics.droppedMessages += client.abandonBacklog(reason: "too slow: a message that may not be dropped could not be queued")
            finish(client)
        }
    }

    /// Writes a disconnected client's last queued bytes without blocking: closes it at once when
    /// they all went, else keeps writing as it reads, for at most ``closingGrace`` seconds.
    private func finish(_ client: ClientConnection) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        onClientsChanged?()
        switch client.flush() {
        case .done, .failed:
            loop.unregister(client.fd)
            Descriptor.close(client.fd)
        case .wouldBlock:
            loop.modify(client.fd, for: .writable)
            let deadline = loop.clock.seconds + Self.closingGrace
            closing[client.fd] = (client, deadline)
            armClosingTimer()
        }
    }

    private func armClosingTimer() {
        guard let next = closing.values.map(\.deadline).min() else { return closingTimer.cancel() }
        closingTimer.schedule(after: next - loop.clock.seconds)
    }

    private func closingDeadlinePassed() {
        let now = loop.clock.seconds
        for (fd, entry) in closing where entry.deadline <= now { closeLingering(fd) }
        armClosingTimer()
    }

    private func closeLingering(_ fd: Int32) {
        guard closing.removeValue(forKey: fd) != nil else { return }
        loop.unregister(fd)
        Descriptor.close(fd)
    }

    private func flush(_ client: ClientConnection) {
        client.awaitsFlush = false
        switch client.flush() {
        case .done: break
        case .wouldBlock: loop.modify(client.fd, for: [.readable, .writable])
        case .failed: drop(client)
        }
    }

    private func acceptClients() {
        while true {
            let accepted = try? SystemCall.posix("accept4", path) { accept4(listenFD, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) }
            guard case .done(let number) = accepted else { return }
            let fd = Int32(truncatingIfNeeded: number)
            let credentials = PeerCredentials.of(socket: fd)
            let client = ClientConnection(fd: fd, credentials: credentials, maximumLineLength: limits.maximumLineLength)
            guard policy.allows(credentials) else {
                statistics.refused += 1
                _ = client.send(MessageEncoder.goodbye(reason: "not allowed"), limits: limits)
                _ = client.flush()
                Descriptor.close(fd)
                continue
            }
            do {
                try loop.register(fd, for: .readable) { [unowned self] readiness in self.handle(fd: fd, readiness) }
            } catch {
                Descriptor.close(fd)
                continue
            }
            clients[fd] = client
            statistics.accepted += 1
            onClientsChanged?()
            if let greeting { deliver(greeting, to: client) }
        }
    }

    private func handle(fd: Int32, _ readiness: EventLoop.Readiness) {
        if let entry = closing[fd] {
            if entry.client.flush() != .wouldBlock || readiness.contains(.hangup) { closeLingering(fd) }
            return
        }
        guard let client = clients[fd] else { return }
        if readiness.contains(.writable) {
            var outcome = client.flush()
            // A client reading again learns what it missed, without waiting for a new message.
            if outcome != .failed, client.queueDropNoticeIfRoom(limits: limits) { outcome = client.flush() }
            switch outcome {
            case .done: loop.modify(fd, for: .readable)
            case .wouldBlock: break
            case .failed: drop(client); return
            }
        }
        guard readiness.contains(.readable) || readiness.contains(.hangup) else { return }
        let read = client.readLines()
        for line in read.lines where !line.isEmpty {
            guard clients[fd] != nil else { return }
            if let reply = onRequest?(ClientHandle(fd: fd), line) { deliver(reply, to: client) }
        }
        guard clients[fd] != nil, let end = read.end else { return }
        switch end {
        case .closed:
            drop(client)
        case .lineTooLong:
            deliver(MessageEncoder.lineTooLong(maximumLineLength: limits.maximumLineLength), to: client)
            disconnect(ClientHandle(fd: fd), reason: "request line too long")
        }
    }

    private func drop(_ client: ClientConnection) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        loop.unregister(client.fd)
        Descriptor.close(client.fd)
        onClientsChanged?()
    }

    /// Removes a socket file nobody listens on; refuses when a daemon answers on it.
    static func removeStaleSocket(at path: String) throws(SystemError) {
        var st = stat()
        guard (try? SystemCall.require("lstat", path) { lstat(path, &st) }) != nil else { return }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw SystemError(call: "bind", subject: "\(path) exists and is not a socket", errno: EEXIST) }
        let probe = try SystemCall.descriptor("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { Descriptor.close(probe) }
        let address = try UnixSocketAddress(path: path)
        do {
            try address.withSockaddr { sockaddr, length throws(SystemError) in
                try SystemCall.require("connect", path) { connect(probe, sockaddr, length) }
            }
        } catch where error.errno == ECONNREFUSED || error.errno == ENOENT {
            _ = try? SystemCall.require("unlink", path) { unlink(path) }
            return
        }
        throw SystemError(call: "bind", subject: "\(path): another touchd is listening on it", errno: EADDRINUSE)
    }
}
