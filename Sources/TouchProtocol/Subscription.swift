import TouchCore

/// What one subscription asks for: topics, and optional filters.
///
/// A message matches when its topic is one of ``topics`` and it passes every filter that is set:
/// ``views`` (one of the message's views equals an entry, or starts with an entry ending in `*`)
/// and ``actions`` (the action's name is listed; messages without an action name pass).
public struct Subscription: Hashable, Sendable {
    public var id: Int
    public var topics: Set<Topic> { didSet { topicBits = Self.bits(topics) } }
    public var views: [String]?
    public var actions: Set<String>?
    /// ``topics`` as one bit per topic: every message is matched against every subscription.
    private(set) var topicBits: UInt32

    public init(id: Int, topics: Set<Topic>, views: [String]? = nil, actions: Set<String>? = nil) {
        self.id = id
        self.topics = topics
        self.views = views
        self.actions = actions
        topicBits = Self.bits(topics)
    }

    private static func bits(_ topics: Set<Topic>) -> UInt32 { topics.reduce(0) { $0 | $1.bit } }

    public func matches(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard topicBits & topic.bit != 0 else { return false }
        if let views {
            let ok = message.containsView { view in
                views.contains { pattern in
                    pattern.hasSuffix("*") ? view.rawValue.hasPrefix(String(pattern.dropLast())) : view.rawValue == pattern
                }
            }
            if !ok { return false }
        }
        if let actions, let name = message.action, !actions.contains(name) { return false }
        return true
    }
}

/// One client's subscriptions, with what every message is checked against first: the union of
/// their topics, and whether any of them filters. Most messages are answered by one bit test,
/// without going through the subscriptions one by one.
public struct SubscriptionSet: Sendable {
    public let subscriptions: [Subscription]
    private let topicBits: UInt32
    private let filters: Bool

    public init(_ subscriptions: [Subscription] = []) {
        self.subscriptions = subscriptions
        topicBits = subscriptions.reduce(0) { $0 | $1.topicBits }
        filters = subscriptions.contains { $0.views != nil || $0.actions != nil }
    }

    /// Whether any subscription matches `message` (``Subscription/matches(_:)``).
    public func wants(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard topicBits & topic.bit != 0 else { return false }
        guard filters else { return true }
        for i in subscriptions.indices where subscriptions[i].matches(message) { return true }
        return false
    }
}
