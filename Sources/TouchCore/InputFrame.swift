/// What an input source reports at one kernel `SYN_REPORT`: every contact of one device, already
/// mapped into a window's coordinates. Real devices and recordings produce the same frames.
public struct InputFrame: Hashable, Sendable {
    /// The device's stable identity (it survives replug).
    public var device: String
    /// The window the device is mapped to. Touches are hit-tested against the windows of its display.
    public var window: ResponderID
    /// When, on the input's timeline (from the kernel's event timestamp).
    public var timestamp: InputTime
    public var contacts: [InputContact]

    public init(device: String, window: ResponderID, timestamp: InputTime, contacts: [InputContact]) {
        self.device = device
        self.window = window
        self.timestamp = timestamp
        self.contacts = contacts
    }

    /// Whether every contact only moved or stood still: a frame the event queue may merge.
    public var isMoveOnly: Bool {
        // Each phase read in place (a closure over the elements would copy every contact).
        for i in contacts.indices where contacts[i].phase != .moved && contacts[i].phase != .stationary { return false }
        return true
    }
}

/// One contact in an ``InputFrame``.
public struct InputContact: Hashable, Sendable {
    /// The device's number for the contact, stable for the finger's life.
    public var id: UInt64
    public var phase: TouchPhase
    /// In the frame's window coordinates.
    public var location: Point
    public var majorRadius: Double
    public var majorRadiusTolerance: Double
    public var force: Double
    public var maximumPossibleForce: Double
    /// Earlier samples merged into this one by the event queue (oldest first).
    public var coalesced: [TouchSample]

    public init(
        id: UInt64, phase: TouchPhase, location: Point, majorRadius: Double = 0,
        majorRadiusTolerance: Double = 0, force: Double = 0, maximumPossibleForce: Double = 0,
        coalesced: [TouchSample] = []
    ) {
        self.id = id
        self.phase = phase
        self.location = location
        self.majorRadius = majorRadius
        self.majorRadiusTolerance = majorRadiusTolerance
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
        self.coalesced = coalesced
    }
}
