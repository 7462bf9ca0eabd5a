/// The phase of a press. The counterpart of `UIPress.Phase` (touchd reports no `changed` or
/// `stationary` presses: keys have no analogue force).
public enum PressPhase: String, Hashable, Sendable, CaseIterable {
    case began
    case ended
    case cancelled
}

/// A press's unique number in one application: never reused.
public typealias PressID = UInt64

/// One physical key held down, for its whole life. The counterpart of `UIPress`.
public struct Press: Hashable, Sendable {
    public let id: PressID
    /// The device that reported the key (its stable identity).
    public let device: String
    /// The kernel's key code (`KEY_*`).
    public let keyCode: UInt16
    /// The kernel's name for the key code, e.g. `KEY_ENTER`.
    public let keyName: String
    public internal(set) var phase: PressPhase
    /// When, on the input's timeline (from the kernel's event timestamp).
    public internal(set) var timestamp: InputTime
    /// The window the press belongs to.
    public let window: ResponderID?
    /// The responder the press was delivered to first (the first responder when it began, else the
    /// window's root). Its end goes to the same responder, as UIKit keeps a press's responder.
    public let responder: ResponderID?
}

/// One key change in a ``PressInput``.
public struct KeyChange: Hashable, Sendable {
    public var keyCode: UInt16
    public var keyName: String
    public var phase: PressPhase

    public init(keyCode: UInt16, keyName: String, phase: PressPhase) {
        self.keyCode = keyCode
        self.keyName = keyName
        self.phase = phase
    }
}

/// What a key device reports at one kernel `SYN_REPORT`: the keys that went down or up.
public struct PressInput: Hashable, Sendable {
    /// The device's stable identity.
    public var device: String
    /// The window whose first responder gets the presses; `nil` means the key window.
    public var window: ResponderID?
    /// When, on the input's timeline (from the kernel's event timestamp).
    public var timestamp: InputTime
    public var changes: [KeyChange]

    public init(device: String, window: ResponderID?, timestamp: InputTime, changes: [KeyChange]) {
        self.device = device
        self.window = window
        self.timestamp = timestamp
        self.changes = changes
    }
}
