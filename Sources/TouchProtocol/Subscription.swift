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
    private var topicBits: UInt32

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
            let ok = message.views.contains { view in
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
