/// What a client can subscribe to.
public enum Topic: String, CaseIterable, Hashable, Sendable {
    /// Where each touch landed, at touch-down.
    case hits
    /// Actions emitted by handlers.
    case actions
    /// Every touch in every phase, with every property.
    case touches
    /// Gesture recognizer state changes.
    case gestures
    /// Devices added and removed.
    case devices
    /// Keys going down and up (`press` messages).
    case presses
    /// Remote-control commands from media keys and remotes (`remote_control` messages).
    case remoteControl = "remote_control"
    /// Shakes (`motion` messages).
    case motion
    /// Changes of a window's first responder (`first_responder` messages).
    case firstResponder = "first_responder"
    /// Every responder call as the seeds log them: an `event` message per dispatched event, then a
    /// `call` per responder method called. Only when named: recording calls costs dispatch time.
    case calls
    /// The hit-test trace of every touch-down (`hit_test` messages): each view's `hitTest` and
    /// `pointInside`, entered and answered. Only when named: tracing costs hit-test time.
    case hitTests = "hit_tests"

    /// The topics a subscription without `topics` gets: all but ``calls`` and ``hitTests``, which
    /// a client names when it wants them (they make dispatch cost more while anyone has them).
    public static let defaultTopics: Set<Topic> = Set(allCases.filter { !$0.isOnRequestOnly })

    /// Every topic's name, in the protocol's order, for messages that list them: `hits, actions, ...`.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether the topic is given only to a subscription that names it.
    public var isOnRequestOnly: Bool {
        switch self {
        case .calls, .hitTests: true
        case .hits, .actions, .touches, .gestures, .devices, .presses, .remoteControl, .motion, .firstResponder: false
        }
    }

    /// The topic's bit in a set of topics kept as a mask.
    var bit: UInt32 {
        switch self {
        case .hits: 1
        case .actions: 2
        case .touches: 4
        case .gestures: 8
        case .devices: 16
        case .presses: 32
        case .remoteControl: 64
        case .motion: 128
        case .firstResponder: 256
        case .calls: 512
        case .hitTests: 1024
        }
    }
}

/// The protocol's version: incremented when a message or request changes incompatibly
/// (`docs/protocol.md`, *Versions*).
public let protocolVersion = 2
