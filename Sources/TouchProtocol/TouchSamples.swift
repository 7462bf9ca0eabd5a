import TouchCore

/// What a subscription's `touch` messages carry of the samples a display-rate move merged
/// (`touch_samples` on `subscribe`).
public enum TouchSampleForm: String, CaseIterable, Hashable, Sendable {
    /// One message per touch and dispatched event, with the newest sample only.
    case latest
    /// One message per touch and dispatched event, with the earlier samples in `coalesced` (the
    /// default: UIKit's `coalescedTouches(for:)`).
    case coalesced
    /// One `touch` message per touch and input frame, as with `refresh_hz = 0`, sent when the frame
    /// is read rather than at the display tick: each merged sample becomes a `moved` message of its
    /// own (for drawing and signature clients).
    case input
    /// One `touch_frame` message per input frame with every touch it changed, compactly, sent when
    /// the frame is read (the input's rate at the least cost).
    case frames

    /// The form a subscription gets when it names none.
    public static let `default` = TouchSampleForm.coalesced

    var bit: TouchForms {
        switch self {
        case .latest: .latest
        case .coalesced: .coalesced
        case .input: .input
        case .frames: .frames
        }
    }
}

/// A set of ``TouchSampleForm``s: the forms a `touch` message is right for, or the forms some
/// subscription wants.
public struct TouchForms: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let latest = TouchForms(rawValue: 1)
    public static let coalesced = TouchForms(rawValue: 2)
    public static let input = TouchForms(rawValue: 4)
    public static let frames = TouchForms(rawValue: 8)
    /// The forms of `touch` messages: a `touch` message that is the same in each (a touch without
    /// merged samples) is right for these.
    public static let perTouch: TouchForms = [.latest, .coalesced, .input]
    /// Every form: what a message that is not about touches is right for.
    public static let all: TouchForms = [.latest, .coalesced, .input, .frames]
    /// The forms sent as input frames are read, ahead of their display tick.
    public static let atArrival: TouchForms = [.input, .frames]

    public init(_ form: TouchSampleForm) { self = form.bit }
}

/// What some client wants, so that nothing else is encoded: the topics subscribed, and the forms
/// of `touch` messages.
public struct MessageInterest: Hashable, Sendable {
    var topicBits: UInt32
    public var touchForms: TouchForms

    /// Everything but the compact `frames` form, which says again what the `touch` messages say:
    /// every topic, every form of `touch` message (tests, reports to read).
    public static let everything = MessageInterest(topicBits: .max, touchForms: .perTouch)

    public init(_ subscriptions: some Sequence<Subscription>) {
        topicBits = 0
        touchForms = []
        for subscription in subscriptions {
            topicBits |= subscription.topicBits
            if subscription.topics.contains(.touches) { touchForms.insert(subscription.touchSamples.bit) }
        }
    }

    init(topicBits: UInt32, touchForms: TouchForms) {
        self.topicBits = topicBits
        self.touchForms = touchForms
    }

    /// Whether some subscription has `topic`.
    public func wants(_ topic: Topic) -> Bool { topicBits & topic.bit != 0 }
}
