import TouchCore

/// Reply messages: the answer to a request, carrying its `id`.
public enum Reply {
    /// A request that succeeded, with its result.
    public static func ok(_ id: JSONValue, _ result: JSONValue = .object([])) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false, members: [("type", "reply"), ("id", id), ("ok", true), ("result", result)])
    }

    /// A request that was refused, with the reason.
    public static func error(_ id: JSONValue, _ error: RequestError) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [("type", "reply"), ("id", id), ("ok", false), ("error", .object([("code", .string(error.code)), ("message", .string(error.message))]))])
    }
}

/// The results of the requests whose answer is not a description of the tree or the devices
/// (``TreeDescription``; the device sources describe their devices): one function each.
public enum ReplyResult {
    /// `ping`: `{"pong":true}`.
    public static let pong: JSONValue = .object([("pong", true)])

    /// A request that has nothing to report: `{}`.
    public static let done: JSONValue = .object([])

    /// `subscribe`: the new subscription's number.
    public static func subscribed(_ subscription: Int) -> JSONValue { .object([("subscription", .int(Int64(subscription)))]) }

    /// `reload`: how many views the new layout has.
    public static func reloaded(views: Int) -> JSONValue { .object([("views", .int(Int64(views)))]) }

    /// `snapshot`: the picture of `window`.
    public static func snapshot(window: ResponderID, svg: String) -> JSONValue {
        .object([("window", .string(window.rawValue)), ("svg", .string(svg))])
    }

    /// `become_first_responder` and `resign_first_responder`: the window and its first responder
    /// after the change.
    public static func firstResponder(window: ResponderID?, current: ResponderID?) -> JSONValue {
        .object([("window", window.map { .string($0.rawValue) } ?? .null), ("first_responder", current.map { .string($0.rawValue) } ?? .null)])
    }

    /// `stats`: the daemon's counters.
    public static func stats(_ counters: StatsCounters) -> JSONValue {
        let c = counters
        return .object(
            [
                ("frames_in", c.framesIn), ("events_dispatched", c.eventsDispatched), ("touches_began", c.touchesBegan),
                ("touches_cancelled", c.touchesCancelled), ("actions_emitted", c.actionsEmitted), ("anomalies", c.anomalies),
                ("queue_high_water_mark", c.queueHighWaterMark), ("queue_coalesced", c.queueCoalesced), ("clients", c.clients),
                ("messages_sent", c.messagesSent), ("messages_dropped", c.messagesDropped),
                ("clients_disconnected_slow", c.clientsDisconnectedSlow), ("active_touches", c.activeTouches), ("wakeups", c.wakeups),
            ].map { ($0.0, .int(Int64($0.1))) })
    }
}

/// What the `stats` request reports (`docs/protocol.md`).
public struct StatsCounters: Hashable, Sendable {
    public var framesIn: Int
    public var eventsDispatched: Int
    public var touchesBegan: Int
    public var touchesCancelled: Int
    public var actionsEmitted: Int
    public var anomalies: Int
    public var queueHighWaterMark: Int
    public var queueCoalesced: Int
    public var clients: Int
    public var messagesSent: Int
    public var messagesDropped: Int
    public var clientsDisconnectedSlow: Int
    public var activeTouches: Int
    public var wakeups: Int

    public init(
        framesIn: Int, eventsDispatched: Int, touchesBegan: Int, touchesCancelled: Int, actionsEmitted: Int, anomalies: Int,
        queueHighWaterMark: Int, queueCoalesced: Int, clients: Int, messagesSent: Int, messagesDropped: Int, clientsDisconnectedSlow: Int,
        activeTouches: Int, wakeups: Int
    ) {
        self.framesIn = framesIn
        self.eventsDispatched = eventsDispatched
        self.touchesBegan = touchesBegan
        self.touchesCancelled = touchesCancelled
        self.actionsEmitted = actionsEmitted
        self.anomalies = anomalies
        self.queueHighWaterMark = queueHighWaterMark
        self.queueCoalesced = queueCoalesced
        self.clients = clients
        self.messagesSent = messagesSent
        self.messagesDropped = messagesDropped
        self.clientsDisconnectedSlow = clientsDisconnectedSlow
        self.activeTouches = activeTouches
        self.wakeups = wakeups
    }
}
