import TouchCore

/// One finger in one frame, in device units.
public struct DeviceContact: Hashable, Sendable {
    /// Unique for the assembler's whole life (a counter from 1), the same for the finger's whole
    /// life, never reused.
    public var id: UInt64
    /// Where the contact is in its life in this frame, in UIKit's terms: `began` when the finger
    /// touched down, `moved` when its position, size or pressure changed, `stationary` when
    /// nothing did, `ended` when it lifted, `cancelled` when it stopped without a lift (a palm, a
    /// threshold, lost events, the device went away, or the stream ended; never followed by
    /// `ended` for the same id).
    public var phase: TouchPhase
    /// Position in device units: the multi-touch axes when the device has them, else `ABS_X`.
    public var x: Int32
    /// See ``x``.
    public var y: Int32
    /// `ABS_MT_TOUCH_MAJOR`, else `ABS_MT_WIDTH_MAJOR`, in surface units; nil when the device has
    /// neither.
    public var touchMajor: Int32?
    /// `ABS_MT_PRESSURE`, else `ABS_PRESSURE` (then shared by every contact), in device units; nil
    /// when the device has neither.
    public var pressure: Int32?
    /// `ABS_MT_TOOL_TYPE` (``MTToolType``), nil when the device has no such axis.
    public var toolType: Int32?
    /// The protocol-B slot, nil for protocol A and single-touch devices.
    public var slot: Int32?

    /// A contact; the optional values default to nil (the device lacks the axis).
    public init(
        id: UInt64, phase: TouchPhase, x: Int32, y: Int32, touchMajor: Int32? = nil, pressure: Int32? = nil,
        toolType: Int32? = nil, slot: Int32? = nil
    ) {
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        self.touchMajor = touchMajor
        self.pressure = pressure
        self.toolType = toolType
        self.slot = slot
    }
}

/// Everything touching a device at one `SYN_REPORT`.
public struct ContactFrame: Hashable, Sendable {
    /// The `SYN_REPORT`'s time.
    public var time: EventTime
    /// Every live contact, changed or not, plus those that ended or were cancelled in this frame;
    /// ordered by ``DeviceContact/id`` (oldest first).
    public var contacts: [DeviceContact]

    /// A frame at `time` holding `contacts`.
    public init(time: EventTime, contacts: [DeviceContact]) {
        self.time = time
        self.contacts = contacts
    }

    /// The contacts still down after this frame.
    public var liveContacts: [DeviceContact] { contacts.filter { !$0.phase.isFinal } }
}
