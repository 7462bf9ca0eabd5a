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
