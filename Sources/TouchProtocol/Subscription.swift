import TouchCore

/// What one subscription asks for: topics, and optional filters.
///
/// A message matches when its topic is one of ``topics`` and it passes every filter that is set:
/// ``views`` (one of the message's views equals an entry, or its UTF-8 bytes begin with those of an
/// entry ending in `*`, without the `*`) and ``actions`` (the action's name is listed; messages
/// without an action name pass). A `touch` message must also be of the subscription's
/// ``touchSamples`` form.
public struct Subscription: Hashable, Sendable {
    public var id: Int
    public var topics: Set<Topic> { didSet { topicBits = Self.bits(topics) } }
    public var views: [String]? { didSet { viewPatterns = ViewPatterns(views ?? []) } }
    public var actions: Set<String>?
    /// What its `touch` messages carry of a display-rate move's samples.
    public var touchSamples: TouchSampleForm
    /// ``topics`` as one bit per topic: every message is matched against every subscription.
    private(set) var topicBits: UInt32
    /// ``views`` compiled (``ViewPatterns``).
    private(set) var viewPatterns: ViewPatterns

    public init(
        id: Int, topics: Set<Topic>, views: [String]? = nil, actions: Set<String>? = nil, touchSamples: TouchSampleForm = .default
    ) {
        self.id = id
        self.topics = topics
        self.views = views
        self.actions = actions
        self.touchSamples = touchSamples
        topicBits = Self.bits(topics)
        viewPatterns = ViewPatterns(views ?? [])
    }

    private static func bits(_ topics: Set<Topic>) -> UInt32 { topics.reduce(0) { $0 | $1.bit } }

    public func matches(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard passesAllButViews(message, topic: topic) else { return false }
        return views == nil || message.containsView { viewPatterns.matches($0) }
    }

    /// Whether `message` (of `topic`) passes every test but the views filter.
    func passesAllButViews(_ message: OutboundMessage, topic: Topic) -> Bool {
        guard topicBits & topic.bit != 0 else { return false }
        if message.touchForms != .all && !message.touchForms.contains(touchSamples.bit) { return false }
        if let actions, let name = message.action, !actions.contains(name) { return false }
        return true
    }
}

/// One client's subscriptions, with what every message is checked against first: the union of
/// their topics, and whether any of them filters or they ask for `touch` messages of more than one
/// form. Most messages are answered by one bit test, without going through the subscriptions one
/// by one; the others by one pass over the subscriptions and one look-up per view of the message in
/// the views patterns of all of them, compiled together (``ViewPatterns``), 64 subscriptions to a
/// group: the work per message is bounded by its views, whatever the patterns.
public struct SubscriptionSet: Sendable {
    public let subscriptions: [Subscription]
    /// What the subscriptions together want.
    public let interest: MessageInterest
    private let filters: Bool
    private let severalForms: Bool
    /// The views patterns of each group of 64 subscriptions, bit `k` of a mask for the group's `k`th.
    private let viewGroups: [ViewPatterns]

    public init(_ subscriptions: [Subscription] = []) {
        self.subscriptions = subscriptions
        interest = MessageInterest(subscriptions)
        filters = subscriptions.contains { $0.views != nil || $0.actions != nil }
        severalForms = interest.touchForms.rawValue.nonzeroBitCount > 1
        viewGroups = stride(from: 0, to: subscriptions.count, by: 64).map { start in
            let group = subscriptions[start..<min(start + 64, subscriptions.count)]
            return ViewPatterns(masked: group.enumerated().map { k, s in (s.views ?? [], UInt64(1) << k) })
        }
    }

    /// Whether any subscription matches `message` (``Subscription/matches(_:)``).
    public func wants(_ message: OutboundMessage) -> Bool {
        guard let topic = message.topic else { return true }
        guard interest.topicBits & topic.bit != 0 else { return false }
        if message.touchForms != .all {
            guard !message.touchForms.isDisjoint(with: interest.touchForms) else { return false }
            if severalForms { return anyMatches(message, topic: topic) }
        }
        guard filters else { return true }
        return anyMatches(message, topic: topic)
    }

    /// Whether any subscription matches `message` (of `topic`): the subscriptions that pass all
    /// but their views filter, then the message's views against the group's patterns once.
    private func anyMatches(_ message: OutboundMessage, topic: Topic) -> Bool {
        for (g, patterns) in viewGroups.enumerated() {
            var candidates: UInt64 = 0
            let start = g * 64
            for k in 0..<min(64, subscriptions.count - start) {
                let subscription = subscriptions[start + k]
                guard subscription.passesAllButViews(message, topic: topic) else { continue }
                if subscription.views == nil { return true }
                candidates |= UInt64(1) << k
            }
            if candidates != 0, message.containsView(where: { patterns.mask(of: $0) & candidates != 0 }) { return true }
        }
        return false
    }
}
