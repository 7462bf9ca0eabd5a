import TouchSystem
import TouchProtocol

/// The daemon's Unix stream socket: accepts clients, serves their request lines in fair turns,
/// and fans messages out to the clients whose subscriptions match, never blocking on any of them.
///
/// Each turn of the event loop serves every client with requests waiting, in order, at most
/// ``ClientLimits/maximumRequestsPerTurn`` requests each, after the input that arrived in the same
/// wakeup (`SocketServer+Turns.swift`). Accepting respects ``ClientLimits/maximumClients`` and backs
/// off when descriptors run out (`SocketServer+Accepting.swift`); a connection that ends gets its
/// last words whole (`SocketServer+Closing.swift`).
public final class SocketServer {
    /// The listening socket.
    public let endpoint: SocketEndpoint
    public let limits: ClientLimits
    /// Who may connect, and with which role: applies to each connection as it is accepted (a
    /// change affects the connections accepted afterwards only).
    public var policy: PeerPolicy
    let loop: EventLoop
    var clients: [Int32: ClientConnection] = [:]
    /// Clients being disconnected whose last words the socket did not take at once
    /// (`SocketServer+Closing.swift`).
    var closing: [Int32: ClosingClient] = [:]
    /// Clients with request lines to serve, in the order they are served.
    var ready: [ClientConnection] = []
    /// Whether a turn is due at the end of the current wakeup.
    var turnScheduled = false
    /// Whether this turn's `snapshot`, `views` or `hit_test` request was served (one a turn, for
    /// all clients).
    var heavySlotTaken = false
    var nextSerial: UInt64 = 1
    /// Takes the connections of the listening socket, once ``startAccepting()`` ran.
    var acceptor: ConnectionAcceptor?
    /// The pauses for want of descriptors since a listener last took a connection.
    var pausesInARow = 0
    /// Wakes the loop for requests left from the last turn.
    var turnTimer: TimerHandle?
    /// Checks clients being disconnected for progress.
    var closingTimer: TimerHandle?
    /// Closes quiet read-only connections without a subscription (`SocketServer+Places.swift`).
    var idleTimer: TimerHandle?
    /// Pings quiet WebSocket clients and closes those that do not answer (`SocketServer+WebSocket.swift`).
    var keepaliveTimer: TimerHandle?
    /// The WebSocket listener whose clients this server serves too, when there is one
    /// (``listen(webSocket:warn:)``): it closes with the server.
    public private(set) var webSocketListener: WebSocketListener?
    /// The daemon served: greetings, answers, and word of clients coming and going.
    unowned let delegate: any SocketServerDelegate
    public internal(set) var statistics = Statistics()
    /// Whether ``shutdown(reason:)`` ran (a second call does nothing: the descriptors are closed).
    private var hasShutDown = false
    /// Whether writes are held back until the end of a ``batch(_:)``.
    var batching = false
    /// The clients with bytes queued during the current batch.
    var unflushed: [ClientConnection] = []

    public struct Statistics: Hashable, Sendable {
        public var accepted = 0
        /// Clients refused by the peer policy.
        public var refused = 0
        /// Clients refused because ``ClientLimits/maximumClients`` were connected.
        public var refusedFull = 0
        /// Read-only clients refused because the places left are kept for control clients, or
        /// their user has ``ClientLimits/maximumReadOnlyClientsPerUser`` connections.
        public var refusedPlaces = 0
        /// Read-only connections without a subscription closed after ``ClientLimits/idleTimeout``.
        public var closedIdle = 0
        /// Times accepting paused because descriptors ran out.
        public var acceptBackoffs = 0
        public var disconnectedSlow = 0
        public var droppedMessages = 0
        public var sentMessages = 0
        public var requestsServed = 0
        /// Connections closed before their last words could all be written (the client stopped reading).
        public var closedStalled = 0
        /// WebSocket handshakes completed (the connections then count in ``accepted``).
        public var webSocketHandshakes = 0
        /// WebSocket handshakes refused (bad request, origin or token; no place), with an HTTP status.
        public var webSocketRefused = 0
        /// WebSocket connections closed because their handshake did not arrive in time, or too
        /// many handshakes were waiting.
        public var webSocketHandshakeTimeouts = 0
        /// WebSocket clients closed for breaking the protocol or a bound (a frame too large...).
        public var webSocketProtocolErrors = 0
        /// WebSocket clients closed for not answering a ping.
        public var webSocketPingTimeouts = 0
        /// The most bytes one gone client's send queue held at once (see ``SocketServer/largestQueuePeak``).
        var goneQueuePeak = 0
    }

    /// A client as request handlers see it: a connection, never confused with a later one that
    /// gets the same descriptor number.
    public struct ClientHandle: Hashable, Sendable {
        public let fd: Int32
        public let serial: UInt64
    }

    /// A server on `endpoint` for `delegate`; it accepts once ``startAccepting()`` is called.
    public init(
        endpoint: SocketEndpoint, loop: EventLoop, limits: ClientLimits = ClientLimits(), policy: PeerPolicy = PeerPolicy(),
        delegate: any SocketServerDelegate
    ) {
        self.endpoint = endpoint
        self.loop = loop
        self.limits = limits
        self.policy = policy
        self.delegate = delegate
        turnTimer = loop.timer { [unowned self] in self.scheduleTurn() }
        closingTimer = loop.timer { [unowned self] in self.checkClosingClients() }
        idleTimer = loop.timer { [unowned self] in self.closeIdleClients() }
        keepaliveTimer = loop.timer { [unowned self] in self.pingQuietWebSocketClients() }
    }

    /// Serves the clients of a WebSocket listener made with `settings` too (see
    /// ``WebSocketListener``); `warn` hears what it finds wrong (a tokens file).
    /// - Throws: ``SystemError`` when the address cannot be listened on.
    public func listen(webSocket settings: WebSocketListener.Settings, warn: @escaping (String) -> Void) throws(SystemError) {
        webSocketListener?.shutdown()
        // Gone before the next is made: were that to fail, a shutdown would close its descriptors again.
        webSocketListener = nil
        webSocketListener = try WebSocketListener(settings: settings, server: self, loop: loop, warn: warn)
    }

    /// The socket's file.
    public var path: String { endpoint.path }
    /// The listening descriptor.
    public var listenFD: Int32 { endpoint.fd }
    /// Whether the descriptor came from systemd (then the file is never unlinked by touchd).
    public var isActivated: Bool { endpoint.isActivated }


    /// Closes every client and the listening socket; unlinks the file unless systemd owns it.
    /// Each client gets `goodbye` with `reason` after the lines it was being sent: lines not yet
    /// started are reported in a `dropped` notice instead, so none is cut.
    public func shutdown(reason: String) {
        guard !hasShutDown else { return }
        hasShutDown = true
        webSocketListener?.shutdown()
        webSocketListener = nil
        for client in clients.values.sorted(by: { $0.serial < $1.serial }) {
            client.outbox.abandonBacklog(lost: nil)
            client.outbox.sendFinal(MessageEncoder.goodbye(reason: reason))
            client.outbox.sendControlFrame(WebSocketFrameEncoder.close(.goingAway, reason: reason))
            _ = client.outbox.flush(final: true)
            forget(client)
            loop.unregister(client.fd)
            Descriptor.close(client.fd)
        }
        for fd in closing.keys { closeLingering(fd, stalled: false) }
        for timer in [turnTimer, closingTimer, idleTimer, keepaliveTimer] { timer?.cancel() }
        ready.removeAll()
        acceptor?.stop()
        endpoint.close()
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
        flushBatch()
    }

    /// Writes now what the current batch has queued so far (a touch-down frame's hits, ahead of
    /// the rest of their frame); the batch goes on.
    public func flushBatch() {
        // Taken out rather than copied (emptying a shared list would make it anew), and put back
        // with its room unless a flush queued clients meanwhile.
        var waiting: [ClientConnection] = []
        swap(&waiting, &unflushed)
        for client in waiting where clients[client.fd] === client { flush(client) }
        waiting.removeAll(keepingCapacity: true)
        if unflushed.isEmpty { swap(&waiting, &unflushed) }
    }

    /// Sends `message` to every client that wants it.
    public func broadcast(_ message: OutboundMessage) {
        for client in clients.values where client.wants(message) { deliver(message, to: client) }
    }

    /// Sends each of `messages`, in order, to every client that wants it, client by client.
    public func broadcast(_ messages: [OutboundMessage]) {
        guard !messages.isEmpty else { return }
        for client in clients.values {
            // A client ended for what it could not take gets nothing more.
            for i in messages.indices { guard offer(messages[i], to: client) else { break } }
        }
    }

    /// Delivers `message` to `client` when the client wants it; false when the client was ended
    /// for it. One call for the check and the delivery: a list's element passed to a call is
    /// copied (each of its parts retained) for each call.
    @inline(never)
    private func offer(_ message: OutboundMessage, to client: ClientConnection) -> Bool {
        client.wants(message) ? deliver(message, to: client) : true
    }

    /// Sends `message` to one client.
    public func send(_ message: OutboundMessage, to handle: ClientHandle) {
        guard let client = client(handle) else { return }
        deliver(message, to: client)
    }

    /// The connection `handle` names, while it is connected.
    func client(_ handle: ClientHandle) -> ClientConnection? {
        guard let client = clients[handle.fd], client.serial == handle.serial else { return nil }
        return client
    }

    /// The role of a connected client.
    public func role(of handle: ClientHandle) -> ClientRole? { client(handle)?.role }

    /// The credentials of a connected client, as it connected.
    public func credentials(of handle: ClientHandle) -> PeerCredentials? { client(handle)?.credentials }

    /// Changes a client's subscriptions.
    public func withSubscriptions<T>(of handle: ClientHandle, _ body: (inout [Subscription], inout Int) -> T) -> T? {
        guard let client = client(handle) else { return nil }
        return body(&client.subscriptions, &client.nextSubscriptionID)
    }

    /// What the connected clients' subscriptions want together.
    public var interest: MessageInterest { MessageInterest(clients.values.flatMap(\.subscriptions)) }

    /// Whether some connected client has a subscription to `topic`.
    public func hasSubscriber(to topic: Topic) -> Bool {
        clients.values.contains { client in client.subscriptions.contains { $0.topics.contains(topic) } }
    }

    /// Disconnects a client after sending it `reason` (`goodbye`), as ``shutdown(reason:)`` does
    /// for all.
    public func disconnect(_ handle: ClientHandle, reason: String) {
        guard let client = client(handle) else { return }
        end(client, reason: reason, code: .normal)
    }

    /// Per-client figures for the `stats` command.
    public var clientSummaries: [(fd: Int32, queuedBytes: Int, dropped: Int, subscriptions: Int)] {
        clients.values.sorted { $0.fd < $1.fd }.map { ($0.fd, $0.queuedBytes, $0.outbox.totalDropped, $0.subscriptions.count) }
    }

    /// Bytes queued for every client together, connected or being disconnected.
    public var totalQueuedBytes: Int {
        clients.values.reduce(0) { $0 + $1.queuedBytes } + closing.values.reduce(0) { $0 + $1.client.queuedBytes }
    }

    /// The most bytes one client's send queue has held at once, of every client connected since
    /// the daemon started: what a client that reads slowly (or not at all) made the daemon hold.
    public var largestQueuePeak: Int {
        let live = clients.values.map(\.outbox.peakQueuedBytes).max() ?? 0
        let ending = closing.values.map(\.client.outbox.peakQueuedBytes).max() ?? 0
        return max(statistics.goneQueuePeak, live, ending)
    }

    /// Clients being disconnected that have not yet read their last words.
    public var closingCount: Int { closing.count }

    /// Queues `message` for `client` (or drops it, as its queue allows); false when the client was
    /// ended for it (too slow for a message that may not be dropped).
    @discardableResult
    func deliver(_ message: OutboundMessage, to client: ClientConnection, heavy: Bool = false) -> Bool {
        switch client.outbox.send(message, limit: limits.maximumQueuedBytes) {
        case .queued:
            statistics.sentMessages += 1
            if heavy { client.outbox.markLastLineHeavy() }
            flushWhenBatchEnds(client)
        case .droppedWithNotice:
            statistics.droppedMessages += 1
            flushWhenBatchEnds(client)
        case .dropped:
            statistics.droppedMessages += 1
        case .overflow:
            statistics.disconnectedSlow += 1
            // The backlog goes (a line partly written is completed); the client is told what it
            // missed and why it is disconnected.
            let lost = client.outbox.nextSeq - 1
            let reason = "too slow: a message that may not be dropped could not be queued"
            statistics.droppedMessages += end(client, lost: lost, reason: reason)
            return false
        }
        return true
    }

    /// Flushes the client now, or when the batch ends while one runs.
    private func flushWhenBatchEnds(_ client: ClientConnection) {
        if !batching {
            flush(client)
        } else if !client.awaitsFlush {
            client.awaitsFlush = true
            unflushed.append(client)
        }
    }

    /// Writes what the client's socket takes now and watches for the rest.
    func flush(_ client: ClientConnection) {
        client.awaitsFlush = false
        switch client.outbox.flush() {
        case .done, .wouldBlock: updateWatching(client)
        case .failed: drop(client)
        }
    }

    /// Watches the client's descriptor for what it needs: requests while it has none waiting and
    /// may be served, writability while bytes wait for its socket.
    func updateWatching(_ client: ClientConnection) {
        var wanted: EventLoop.Readiness = []
        if client.inputEnd == nil && !client.isScheduled && client.queuedBytes <= limits.requestPauseBytes { wanted.insert(.readable) }
        if client.queuedBytes > 0 { wanted.insert(.writable) }
        guard wanted != client.watching else { return }
        client.watching = wanted
        loop.modify(client.fd, for: wanted)
    }

    /// Removes a client whose peer is gone or whose socket failed, at once.
    func drop(_ client: ClientConnection) {
        guard clients[client.fd] === client else { return }
        forget(client)
        loop.unregister(client.fd)
        Descriptor.close(client.fd)
        clientGone(client)
    }

    /// Takes a client out of the connected ones (it is being closed).
    func forget(_ client: ClientConnection) {
        clients.removeValue(forKey: client.fd)
        client.isScheduled = false
        statistics.goneQueuePeak = max(statistics.goneQueuePeak, client.outbox.peakQueuedBytes)
        delegate.clientsChanged()
    }

    /// Tells the delegate after the current wakeup's work (never in the middle of a delivery).
    func clientGone(_ client: ClientConnection) {
        let handle = ClientHandle(fd: client.fd, serial: client.serial)
        loop.deferWork { [weak self] in self?.delegate.clientLeft(handle) }
    }
}
