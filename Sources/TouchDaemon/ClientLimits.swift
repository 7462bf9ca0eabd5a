import TouchCore

/// Limits that protect the daemon and its clients from one another (`docs/limits.md`,
/// `docs/protocol.md`). The defaults are ``Limits``' (one home for each bound); tests make them
/// small.
public struct ClientLimits: Hashable, Sendable {
    /// Bytes a client may have waiting unwritten before droppable messages are dropped for it.
    public var maximumQueuedBytes: Int
    /// The longest request line accepted; a longer one is an error and a disconnect.
    public var maximumLineLength: Int
    /// The most clients connected at once.
    public var maximumClients: Int
    /// Of ``maximumClients``, the places kept for clients with the control role (at most a quarter
    /// of them).
    public var reservedControlClients: Int
    /// The most read-only connections of one user.
    public var maximumReadOnlyClientsPerUser: Int
    /// How long a read-only connection without a subscription may go without a request before it
    /// is closed: it holds a place and receives nothing.
    public var idleTimeout: TimeSpan
    /// The most request lines served for one client in one turn of the loop.
    public var maximumRequestsPerTurn: Int
    /// The most request bytes read from one client in one turn of the loop.
    public var maximumRequestBytesPerTurn: Int
    /// The longest reply; a longer one is replaced by a `reply_too_large` error.
    public var maximumReplyBytes: Int
    /// The most bytes of `snapshot` and `views` replies unwritten for all clients together.
    public var maximumHeavyReplyBytesInFlight: Int
    /// The most subscriptions one connection may hold.
    public var maximumSubscriptionsPerClient: Int
    /// The most views one connection may have added and not removed.
    public var maximumViewsPerClient: Int
    /// How long accepting pauses when the process or the system is out of descriptors.
    public var acceptBackoff: TimeSpan
    /// How long a client being disconnected may go without reading before its connection is closed
    /// with its last words unread.
    public var closingStallTimeout: TimeSpan
    /// The longest a client being disconnected is kept while it reads its last words.
    public var maximumClosingTime: TimeSpan
    /// How long a WebSocket client may be quiet before touchd pings it, and then how long it has
    /// to answer before its connection is closed: a peer that vanished without closing
    /// (a half-open connection) does not hold its place.
    public var webSocketPingInterval: TimeSpan
    /// How long a WebSocket connection's handshake may take, from its accept.
    public var webSocketHandshakeTimeout: TimeSpan
    /// The most WebSocket connections accepted and still in their handshake.
    public var maximumPendingWebSocketHandshakes: Int

    public init(
        maximumQueuedBytes: Int = Limits.maximumQueuedBytesPerClient, maximumLineLength: Int = Limits.maximumRequestLineBytes,
        maximumClients: Int = Limits.maximumClients, maximumRequestsPerTurn: Int = Limits.maximumRequestsPerTurn,
        maximumRequestBytesPerTurn: Int = Limits.maximumRequestBytesPerTurn, maximumReplyBytes: Int = Limits.maximumReplyBytes,
        maximumHeavyReplyBytesInFlight: Int = Limits.maximumHeavyReplyBytesInFlight,
        maximumSubscriptionsPerClient: Int = Limits.maximumSubscriptionsPerClient, maximumViewsPerClient: Int = Limits.maximumViewsPerClient,
        acceptBackoff: TimeSpan = 1, closingStallTimeout: TimeSpan = 10, maximumClosingTime: TimeSpan = 60,
        reservedControlClients: Int = Limits.reservedControlClients, maximumReadOnlyClientsPerUser: Int = Limits.maximumReadOnlyClientsPerUser,
        idleTimeout: TimeSpan = 60, webSocketPingInterval: TimeSpan = 30, webSocketHandshakeTimeout: TimeSpan = 5,
        maximumPendingWebSocketHandshakes: Int = 64
    ) {
        self.webSocketPingInterval = max(webSocketPingInterval, 0.01 as TimeSpan)
        self.webSocketHandshakeTimeout = max(webSocketHandshakeTimeout, 0.01 as TimeSpan)
        self.maximumPendingWebSocketHandshakes = max(maximumPendingWebSocketHandshakes, 1)
        self.maximumQueuedBytes = maximumQueuedBytes
        self.maximumLineLength = maximumLineLength
        self.maximumClients = maximumClients
        self.maximumRequestsPerTurn = max(maximumRequestsPerTurn, 1)
        self.maximumRequestBytesPerTurn = max(maximumRequestBytesPerTurn, 1)
        self.maximumReplyBytes = maximumReplyBytes
        self.maximumHeavyReplyBytesInFlight = maximumHeavyReplyBytesInFlight
        self.maximumSubscriptionsPerClient = maximumSubscriptionsPerClient
        self.maximumViewsPerClient = maximumViewsPerClient
        self.acceptBackoff = acceptBackoff
        self.closingStallTimeout = closingStallTimeout
        self.maximumClosingTime = maximumClosingTime
        // A quarter of the places at most: a small daemon (a test's, the fuzzer's) keeps most for all.
        self.reservedControlClients = min(max(reservedControlClients, 0), max(maximumClients, 0) / 4)
        self.maximumReadOnlyClientsPerUser = max(maximumReadOnlyClientsPerUser, 0)
        self.idleTimeout = idleTimeout
    }

    /// The queued bytes past which a client's requests wait (its replies would only pile up):
    /// half its queue.
    var requestPauseBytes: Int { maximumQueuedBytes / 2 }
}
