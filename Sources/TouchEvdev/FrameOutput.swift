import TouchCore

/// What one contact looks like at a moment: the values a ``DeviceContact`` carries besides its
/// identity and phase.
struct ContactValues: Hashable, Sendable {
    var x: Int32
    var y: Int32
    var touchMajor: Int32?
    var pressure: Int32?
    var toolType: Int32?
}

/// What the trackers need of a device's capabilities: the codes its contacts carry size and
/// pressure in, whether they carry a tool type, and what says a single-touch device is touched.
/// Kept small on purpose: a tracker is moved out of the assembler and back on every frame.
struct ContactCodes: Sendable {
    var touchMajor: UInt16?
    var pressure: UInt16?
    var hasToolType: Bool
    var touchSignal: TouchSignal

    init(_ capabilities: DeviceCapabilities) {
        touchMajor = capabilities.touchMajorCode
        pressure = capabilities.pressureCode
        hasToolType = capabilities.hasToolType
        touchSignal = capabilities.touchSignal
    }
}

/// Device-wide state outside the per-contact axes: the single-touch position, `ABS_PRESSURE`, and
/// the keys that say whether something touches.
struct SharedState: Sendable {
    var x: Int32
    var y: Int32
    var pressure: Int32
    var touchKey = false
    var leftButton = false
    /// `BTN_TOUCH` went to 0 in the frame being assembled.
    var touchKeyReleasedThisFrame = false

    init(description: DeviceDescription) {
        x = description.absInfo[AbsCode.x]?.value ?? 0
        y = description.absInfo[AbsCode.y]?.value ?? 0
        pressure = description.absInfo[AbsCode.pressure]?.value ?? 0
    }

    mutating func beginFrame() {
        touchKeyReleasedThisFrame = false
    }

    mutating func apply(_ event: InputEvent) {
        if event.type == EventType.key {
            if event.code == KeyCode.btnTouch {
                touchKey = event.value != 0
                if event.value == 0 { touchKeyReleasedThisFrame = true }
            } else if event.code == KeyCode.btnLeft {
                leftButton = event.value != 0
            }
        } else if event.type == EventType.abs {
            if event.code == AbsCode.x {
                x = event.value
            } else if event.code == AbsCode.y {
                y = event.value
            } else if event.code == AbsCode.pressure {
                pressure = event.value
            }
        }
    }
}

/// Collects one frame's output while the trackers work through its events.
struct FrameOutput {
    let time: EventTime
    /// The frame restores state after lost events: a contact that is gone was not seen to lift, so
    /// it is cancelled rather than ended.
    let isResync: Bool
    let palm: PalmThresholds
    /// The position axes, to notice contacts that begin outside them.
    let xAxis: AbsInfo?
    let yAxis: AbsInfo?
    private(set) var contacts: [DeviceContact] = []
    private(set) var anomalies: [DeviceAnomaly] = []
    private(set) var nextID: UInt64

    /// - Parameters:
    ///   - room: An empty list to collect the contacts in (a recycled frame's), taken from there.
    ///   - capacity: How many contacts the frame may hold (its device's slots), room for which is
    ///     made at once rather than as they come.
    init(
        time: EventTime, isResync: Bool, palm: PalmThresholds, xAxis: AbsInfo?, yAxis: AbsInfo?, nextID: UInt64,
        room: inout [DeviceContact], capacity: Int
    ) {
        swap(&contacts, &room)
        contacts.reserveCapacity(capacity)
        self.time = time
        self.isResync = isResync
        self.palm = palm
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.nextID = nextID
    }

    /// The phase of a contact whose lift the stream shows.
    var liftPhase: TouchPhase { isResync ? .cancelled : .ended }

    mutating func newID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }

    mutating func emit(id: UInt64, phase: TouchPhase, values: ContactValues, slot: Int32?) {
        if phase == .began, !Self.contains(xAxis, values.x) || !Self.contains(yAxis, values.y) {
            report(.beganOutsideAxisRange(x: values.x, y: values.y))
        }
        contacts.append(
            DeviceContact(
                id: id, phase: phase, x: values.x, y: values.y, touchMajor: values.touchMajor,
                pressure: values.pressure, toolType: values.toolType, slot: slot))
    }

    private static func contains(_ axis: AbsInfo?, _ value: Int32) -> Bool {
        guard let axis, axis.minimum < axis.maximum else { return true }
        return (axis.minimum...axis.maximum).contains(value)
    }

    mutating func report(_ kind: DeviceAnomaly.Kind) {
        anomalies.append(DeviceAnomaly(time: time, kind: kind))
    }

    /// The list the contacts were collected in, emptied, for the next frame (when ``takeFrame()``
    /// made none).
    mutating func takeRoom() -> [DeviceContact] {
        var room: [DeviceContact] = []
        swap(&room, &contacts)
        room.removeAll(keepingCapacity: true)
        return room
    }

    /// The frame, or nil when nothing began, moved, ended or was cancelled; its contacts are
    /// taken (sorted in place, in their order of beginning), leaving none.
    mutating func takeFrame() -> ContactFrame? {
        guard contacts.contains(where: { $0.phase != .stationary }) else { return nil }
        var taken: [DeviceContact] = []
        swap(&taken, &contacts)
        taken.sort { $0.id < $1.id }
        return ContactFrame(time: time, contacts: taken)
    }
}
