import TouchCore

/// One message for clients, rendered once and sent to every client whose subscriptions match.
///
/// Each client numbers its own messages: the sequence number is added when the message is written
/// to that client, so a client sees `1, 2, 3, ...` with a gap only where messages were dropped.
public struct OutboundMessage: Hashable, Sendable {
    /// The topic, or `nil` for messages every client gets (hello, replies, notices).
    public var topic: Topic?
    /// The views the message is about (hit view and its path, the acting responder...), for filters.
    public var views: [ResponderID]
    /// The action's name, for action filters.
    public var action: String?
    /// Whether the message may be dropped for a slow client (touch moves may; hits, actions and
    /// replies may not: a client that cannot take them is disconnected instead).
    public var droppable: Bool
    /// The JSON members after `seq`, without braces (`"type":"hit",...`), as UTF-8: the bytes every
    /// client's line copies.
    public var bodyBytes: [UInt8]

    /// The JSON members after `seq`, without braces: `"type":"hit",...`.
    public var body: String { String(decoding: bodyBytes, as: UTF8.self) }

    public init(topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, body: String) {
        self.init(topic: topic, views: views, action: action, droppable: droppable, bodyBytes: Array(body.utf8))
    }

    init(topic: Topic?, views: [ResponderID], action: String?, droppable: Bool, bodyBytes: [UInt8]) {
        self.topic = topic
        self.views = views
        self.action = action
        self.droppable = droppable
        self.bodyBytes = bodyBytes
    }

    /// Builds a message from a JSON object's members.
    public init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, members: [(String, JSONValue)]
    ) {
        var writer = JSONWriter()
        for (key, value) in members {
            writer.member(escaping: key)
            writer.value(value)
        }
        self.init(topic: topic, views: views, action: action, droppable: droppable, bodyBytes: writer.bytes)
    }

    /// Builds a message whose members `body` writes (``JSONWriter/member(_:)`` and a value each).
    public init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, writing body: (inout JSONWriter) -> Void
    ) {
        var writer = JSONWriter()
        body(&writer)
        self.init(topic: topic, views: views, action: action, droppable: droppable, bodyBytes: writer.bytes)
    }

    /// Builds a message whose members `body` writes, with `writer`'s room (emptied first): a
    /// writer reused from message to message saves allocating one for each.
    init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, writer: inout JSONWriter,
        writing body: (inout JSONWriter) -> Void
    ) {
        writer.removeAll()
        body(&writer)
        self.init(topic: topic, views: views, action: action, droppable: droppable, bodyBytes: writer.bytes)
    }

    /// The line sent to a client: `{"seq":N,<body>}` and a newline.
    public func line(seq: UInt64) -> String {
        bodyBytes.isEmpty ? "{\"seq\":\(seq)}\n" : "{\"seq\":\(seq),\(body)}\n"
    }
}
