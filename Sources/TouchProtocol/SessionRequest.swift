import TouchCore

/// The requests about the connection itself.
public enum SessionRequest: Hashable, Sendable, RequestFamily {
    case ping
    case subscribe(topics: Set<Topic>, views: [String]?, actions: Set<String>?, touchSamples: TouchSampleForm = .default)
    case unsubscribe(subscription: Int)

    static let commands: [(name: String, arguments: Set<String>)] = [
        ("ping", []), ("subscribe", ["topics", "views", "actions", "touch_samples"]), ("unsubscribe", ["subscription"]),
    ]

    init(command: String, fields d: [String: JSONValue]) throws(RequestError) {
        switch command {
        case "subscribe": self = try Self.subscribe(d)
        case "unsubscribe":
            self = .unsubscribe(subscription: try RequestField.integer(d["subscription"], "subscription", in: Limits.subscriptionNumber))
        default: self = .ping
        }
    }

    public var command: String {
        switch self {
        case .ping: "ping"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        }
    }

    /// Every connection may manage itself.
    public var requiredRole: ClientRole { .readOnly }

    private static func subscribe(_ d: [String: JSONValue]) throws(RequestError) -> SessionRequest {
        var topics: Set<Topic> = []
        for name in try RequestField.optionalStrings(d["topics"], "topics") ?? Topic.defaultTopics.map(\.rawValue) {
            guard let topic = Topic(rawValue: name) else {
                throw RequestError(
                    .badArgument, "unknown topic \"\(excerpt(name))\": expected one of \(Topic.names)")
            }
            topics.insert(topic)
        }
        let views = try RequestField.optionalStrings(d["views"], "views")
        let actions = try RequestField.optionalStrings(d["actions"], "actions").map { Set($0) }
        var form = TouchSampleForm.default
        if let value = d["touch_samples"] {
            guard case .string(let name) = value, let named = TouchSampleForm(rawValue: name) else {
                throw .badArgument("touch_samples", expected: #""latest", "coalesced", "input" or "frames""#)
            }
            form = named
        }
        return .subscribe(topics: topics, views: views, actions: actions, touchSamples: form)
    }
}
