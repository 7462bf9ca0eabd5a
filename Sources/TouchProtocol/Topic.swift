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
        }
    }
}

/// The protocol's version: incremented when a message or request changes incompatibly
/// (`docs/protocol.md`, *Versions*).
public let protocolVersion = 2
