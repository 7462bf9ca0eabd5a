import TouchCore
import TouchProtocol

/// Numbers messages as one subscriber would receive them.
public struct SubscriberView: Sendable {
    public var subscription: Subscription
    public private(set) var nextSeq: UInt64 = 1

    public init(topics: Set<Topic>, views: [String]? = nil, actions: Set<String>? = nil, touchSamples: TouchSampleForm = .default) {
        subscription = Subscription(id: 1, topics: topics, views: views, actions: actions, touchSamples: touchSamples)
    }

    /// The lines this subscriber gets for `report`.
    public mutating func lines(for report: DispatchReport) -> [String] {
        MessageEncoder.messages(for: report, interest: MessageInterest([subscription])).compactMap { line(for: $0) }
    }

    /// The line this subscriber gets for `message` (one about no dispatched event: a device added
    /// or removed), numbered; nil when its subscription does not take it.
    public mutating func line(for message: OutboundMessage) -> String? {
        guard subscription.matches(message) else { return nil }
        defer { nextSeq += 1 }
        return message.line(seq: nextSeq)
    }
}
