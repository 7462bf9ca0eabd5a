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
        var out: [String] = []
        for message in MessageEncoder.messages(for: report, interest: MessageInterest([subscription])) where subscription.matches(message) {
            out.append(message.line(seq: nextSeq))
            nextSeq += 1
        }
        return out
    }
}
