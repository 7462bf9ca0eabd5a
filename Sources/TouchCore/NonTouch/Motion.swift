/// The kind of a motion event. The counterpart of `UIEvent.EventSubtype.motionShake`.
public enum MotionSubtype: String, Hashable, Sendable, CaseIterable {
    case shake
}

/// Where a motion is: `motionBegan`, `motionEnded` or `motionCancelled`.
public enum MotionPhase: String, Hashable, Sendable, CaseIterable {
    case began
    case ended
    case cancelled
}

/// A motion event from an accelerometer (a shake that began, ended or was cancelled).
public struct MotionInput: Hashable, Sendable {
    /// The device's stable identity.
    public var device: String
    /// The window whose first responder gets the event; `nil` means the key window.
    public var window: ResponderID?
    /// When, on the input's timeline (from the kernel's event timestamp).
    public var timestamp: InputTime
    public var subtype: MotionSubtype
    public var phase: MotionPhase

    public init(device: String, window: ResponderID?, timestamp: InputTime, subtype: MotionSubtype = .shake, phase: MotionPhase) {
        self.device = device
        self.window = window
        self.timestamp = timestamp
        self.subtype = subtype
        self.phase = phase
    }
}
