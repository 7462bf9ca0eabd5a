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
            members: [("type", "reply"), ("id", id), ("ok", false), ("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))]))])
    }
}

/// The results of the requests whose answer is not a description of the tree (``TreeDescription``)
/// or of an installer's session (``RecordingReply``, ``CalibrationReply``): one function each.
public enum ReplyResult {
    /// `ping`: `{"pong":true}`.
    public static let pong: JSONValue = .object([("pong", true)])

    /// A request that has nothing to report: `{}`.
    public static let done: JSONValue = .object([])

    /// `subscribe`: the new subscription's number.
    public static func subscribed(_ subscription: Int) -> JSONValue { .object([("subscription", .int(Int64(subscription)))]) }

    /// `set_control`: the control as it is now.
    public static func control(_ spec: ControlSpec) -> JSONValue { TreeDescription.control(spec) }

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

    /// `begin_receiving_remote_control` and `end_receiving_remote_control`: whether the
    /// application receives remote-control events now.
    public static func receivingRemoteControl(_ receiving: Bool) -> JSONValue { .object([("receiving", .bool(receiving))]) }

    /// `devices`: each device's description, as its input source gives it.
    public static func devices(_ devices: [DeviceListing]) -> JSONValue { .array(devices.map(\.listed)) }

    /// `stats`: the daemon's counters, by their names in `docs/protocol.md`.
    public static func stats(_ counters: StatsCounters) -> JSONValue {
        .object(counters.named.map { ($0.name, .int(Int64($0.value))) })
    }
}

/// What the `stats` request reports (`docs/protocol.md`): counts since the daemon started, and a
/// few figures of the moment (`clients`, `active_touches`).
public struct StatsCounters: Hashable, Sendable {
    /// Input frames read from devices and recordings.
    public var framesIn = 0
    /// Events dispatched into the tree (touches, presses, remote control, motion).
    public var eventsDispatched = 0
    public var touchesBegan = 0
    public var touchesCancelled = 0
    public var actionsEmitted = 0
    /// Anomalies of the input (a contact that began twice, one that moved without beginning, ...).
    public var anomalies = 0
    /// The most events the application's queue held at once.
    public var queueHighWaterMark = 0
    /// Moves merged into later ones while the queue had a backlog.
    public var queueCoalesced = 0
    /// Clients connected now.
    public var clients = 0
    /// Clients accepted since the start.
    public var clientsAccepted = 0
    /// Clients refused by the socket's user and group lists.
    public var clientsRefused = 0
    /// Clients refused because the most clients were connected.
    public var clientsRefusedFull = 0
    /// Times accepting paused because the process ran out of descriptors.
    public var acceptBackoffs = 0
    /// Requests answered.
    public var requestsServed = 0
    public var messagesSent = 0
    /// Messages a slow client did not get (it was told, with `dropped`).
    public var messagesDropped = 0
    /// Clients let go because they did not read.
    public var clientsDisconnectedSlow = 0
    /// Connections closed before their last words could all be written.
    public var clientsClosedStalled = 0
    /// Read-only clients refused: the places left are kept for control clients, or their user (or
    /// WebSocket token) had the most read-only connections.
    public var clientsRefusedPlaces = 0
    /// Read-only connections without a subscription closed for being quiet.
    public var clientsClosedIdle = 0
    /// The most bytes one client's send queue has held at once.
    public var clientQueuePeakBytes = 0
    /// WebSocket handshakes completed.
    public var websocketHandshakes = 0
    /// WebSocket handshakes refused with an HTTP status.
    public var websocketRefused = 0
    /// WebSocket connections whose handshake did not arrive in time.
    public var websocketHandshakeTimeouts = 0
    /// WebSocket clients closed for breaking the protocol or a bound.
    public var websocketProtocolErrors = 0
    /// WebSocket clients closed for not answering a ping.
    public var websocketPingTimeouts = 0
    /// Remote-control events that came while the application was not receiving them.
    public var remoteControlIgnored = 0
    /// Touches down now.
    public var activeTouches = 0
    /// Times the event loop woke up.
    public var wakeups = 0
    /// Input devices in use now.
    public var devices = 0
    /// Reloads that replaced the layout.
    public var reloads = 0
    /// Reloads refused (the file had problems; the old layout ran on).
    public var reloadsRefused = 0

    public init() {}

    /// Whether a figure counts up from the start (a counter) or is a figure of the moment (a gauge).
    public enum Kind: String, Sendable {
        case counter
        case gauge
    }

    /// Every figure with its name in the reply, its kind and what it counts, in the reply's order.
    public var described: [(name: String, value: Int, kind: Kind, help: String)] {
        [
            ("frames_in", framesIn, .counter, "Input frames read from devices and recordings."),
            ("events_dispatched", eventsDispatched, .counter, "Events dispatched into the view tree (touches, presses, remote control, motion)."),
            ("touches_began", touchesBegan, .counter, "Touches that began."),
            ("touches_cancelled", touchesCancelled, .counter, "Touches that were cancelled."),
            ("actions_emitted", actionsEmitted, .counter, "Actions sent by handlers, gesture recognizers and controls."),
            ("anomalies", anomalies, .counter, "Faults of the input (a contact that began twice, a lift without a touch-down, ...)."),
            ("queue_high_water_mark", queueHighWaterMark, .gauge, "The most events the application's event queue held at once."),
            ("queue_coalesced", queueCoalesced, .counter, "Moves merged into later ones while the event queue had a backlog."),
            ("clients", clients, .gauge, "Clients connected now."),
            ("clients_accepted", clientsAccepted, .counter, "Connections accepted."),
            ("clients_refused", clientsRefused, .counter, "Connections refused by the socket's user and group lists."),
            ("clients_refused_full", clientsRefusedFull, .counter, "Connections refused because the most clients were connected."),
            ("accept_backoffs", acceptBackoffs, .counter, "Times accepting paused because the process ran out of file descriptors."),
            ("requests_served", requestsServed, .counter, "Requests answered."),
            ("messages_sent", messagesSent, .counter, "Messages written to clients."),
            ("messages_dropped", messagesDropped, .counter, "Droppable messages a slow client did not get."),
            ("client_queue_peak_bytes", clientQueuePeakBytes, .gauge, "The most bytes one client's send queue has held at once."),
            ("clients_disconnected_slow", clientsDisconnectedSlow, .counter, "Clients let go because they did not read."),
            ("clients_closed_stalled", clientsClosedStalled, .counter, "Connections closed before their last words could all be written."),
            ("clients_refused_places", clientsRefusedPlaces, .counter, "Read-only connections refused: places kept for control clients, or a user's quota."),
            ("clients_closed_idle", clientsClosedIdle, .counter, "Read-only connections without a subscription closed for being quiet."),
            ("websocket_handshakes", websocketHandshakes, .counter, "WebSocket handshakes completed."),
            ("websocket_refused", websocketRefused, .counter, "WebSocket handshakes refused with an HTTP status."),
            ("websocket_handshake_timeouts", websocketHandshakeTimeouts, .counter, "WebSocket connections whose handshake did not arrive in time."),
            ("websocket_protocol_errors", websocketProtocolErrors, .counter, "WebSocket clients closed for breaking the protocol or a bound."),
            ("websocket_ping_timeouts", websocketPingTimeouts, .counter, "WebSocket clients closed for not answering a ping."),
            ("remote_control_ignored", remoteControlIgnored, .counter, "Remote-control events that came while the application was not receiving them."),
            ("active_touches", activeTouches, .gauge, "Touches down now."),
            ("wakeups", wakeups, .counter, "Times the event loop woke up."),
            ("devices", devices, .gauge, "Input devices in use now."),
            ("reloads", reloads, .counter, "Reloads that replaced the layout."),
            ("reloads_refused", reloadsRefused, .counter, "Reloads refused; the previous layout kept running."),
        ]
    }

    /// Every figure with its name in the reply, in the reply's order.
    public var named: [(name: String, value: Int)] { described.map { ($0.name, $0.value) } }
}
