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
    /// The JSON members after `seq`, without braces: `"type":"hit",...`.
    public var body: String

    public init(topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, body: String) {
        self.topic = topic
        self.views = views
        self.action = action
        self.droppable = droppable
        self.body = body
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
        self.init(topic: topic, views: views, action: action, droppable: droppable, body: writer.text)
    }

    /// Builds a message whose members `body` writes (``JSONWriter/member(_:)`` and a value each).
    public init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, writing body: (inout JSONWriter) -> Void
    ) {
        var writer = JSONWriter()
        body(&writer)
        self.init(topic: topic, views: views, action: action, droppable: droppable, body: writer.text)
    }

    /// The line sent to a client: `{"seq":N,<body>}` and a newline.
    public func line(seq: UInt64) -> String {
        body.isEmpty ? "{\"seq\":\(seq)}\n" : "{\"seq\":\(seq),\(body)}\n"
    }

    /// Appends ``line(seq:)``'s bytes to `buffer` without building the line as a string first.
    public func appendLine(seq: UInt64, to buffer: inout [UInt8]) {
        let prefix: StaticString = #"{"seq":"#
        prefix.withUTF8Buffer { buffer.append(contentsOf: $0) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var n = seq
            var i = raw.count
            repeat {
                i -= 1
                raw[i] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0
            buffer.append(contentsOf: raw[i...])
        }
        if !body.isEmpty {
            buffer.append(UInt8(ascii: ","))
            var text = body
            text.withUTF8 { buffer.append(contentsOf: $0) }
        }
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "\n"))
    }
}
