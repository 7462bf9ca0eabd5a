import TouchCore

/// What one subscription asks for: topics, and optional filters.
///
/// A message matches when its topic is one of ``topics`` and it passes every filter that is set:
/// ``views`` (one of the message's views equals an entry, or starts with an entry ending in `*`)
/// and ``actions`` (the action's name is listed; messages without an action name pass). A `touch`
/// message must also be of the subscription's ``touchSamples`` form.
public struct Subscription: Hashable, Sendable {
    public var id: Int
    public var topics: Set<Topic> { didSet { topicBits = Self.bits(topics) } }
    public var views: [String]?
    public var actions: Set<String>?
    /// What its `touch` messages carry of a display-rate move's samples.
    public var touchSamples: TouchSampleForm
    /// ``topics`` as one bit per topic: every message is matched against every subscription.
    private(set) var topicBits: UInt32

    public init(
        id: Int, topics: Set<Topic>, views: [String]? = nil, actions: Set<String>? = nil, touchSamples: TouchSampleForm = .default
    ) {
        self.id = id
        self.topics = topics
        self.views = views
        self.actions = actions
        self.touchSamples = touchSamples
        topicBits = Self.bits(topics)
    }

    private static func bits(_ topics: Set<Topic>) -> UInt32 { topics.reduce(0) { $0 | $1.bit } }

    public func matches(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard topicBits & topic.bit != 0 else { return false }
        if message.touchForms != .all && !message.touchForms.contains(touchSamples.bit) { return false }
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
/// their topics, and whether any of them filters or they ask for `touch` messages of more than one
/// form. Most messages are answered by one bit test, without going through the subscriptions one
/// by one.
public struct SubscriptionSet: Sendable {
    public let subscriptions: [Subscription]
    /// What the subscriptions together want.
    public let interest: MessageInterest
    private let filters: Bool
    private let severalForms: Bool

    public init(_ subscriptions: [Subscription] = []) {
        self.subscriptions = subscriptions
        interest = MessageInterest(subscriptions)
        filters = subscriptions.contains { $0.views != nil || $0.actions != nil }
        severalForms = interest.touchForms.rawValue.nonzeroBitCount > 1
    }

    /// Whether any subscription matches `message` (``Subscription/matches(_:)``).
    public func wants(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard interest.topicBits & topic.bit != 0 else { return false }
        if message.touchForms != .all {
            guard !message.touchForms.isDisjoint(with: interest.touchForms) else { return false }
            if severalForms { return subscriptions.contains { $0.matches(message) } }
        }
        guard filters else { return true }
        for i in subscriptions.indices where subscriptions[i].matches(message) { return true }
        return false
    }
}
