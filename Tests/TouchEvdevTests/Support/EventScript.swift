import TouchCore
import TouchEvdev

/// Builds an event stream the way a driver writes it, one frame at a time; time advances 10 ms
/// per frame.
struct EventScript {
    private(set) var events: [InputEvent] = []
    private(set) var now = EventTime(microseconds: 1_000_000)

    mutating func abs(_ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: now, type: EventType.abs, code: code, value: value))
    }

    mutating func key(_ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: now, type: EventType.key, code: code, value: value))
    }

    mutating func slot(_ slot: Int32) { abs(AbsCode.mtSlot, slot) }

    mutating func trackingID(_ id: Int32) { abs(AbsCode.mtTrackingID, id) }

    mutating func position(_ x: Int32, _ y: Int32) {
        abs(AbsCode.mtPositionX, x)
        abs(AbsCode.mtPositionY, y)
    }

    /// Slot `slot` touches down with tracking id `id` at (x, y).
    mutating func down(slot: Int32, id: Int32, x: Int32, y: Int32) {
        self.slot(slot)
        trackingID(id)
        position(x, y)
    }

    /// Slot `slot` lifts.
    mutating func up(slot: Int32) {
        self.slot(slot)
        trackingID(-1)
    }

    /// One protocol-A contact.
    mutating func report(_ x: Int32, _ y: Int32, trackingID: Int32? = nil) {
        if let trackingID { abs(AbsCode.mtTrackingID, trackingID) }
        position(x, y)
        mtReport()
    }

    mutating func mtReport() {
        events.append(InputEvent(time: now, type: EventType.syn, code: SynCode.mtReport, value: 0))
    }

    mutating func dropped() {
        events.append(InputEvent(time: now, type: EventType.syn, code: SynCode.dropped, value: 0))
    }

    /// Ends the frame and moves the clock on.
    mutating func syn() {
        events.append(InputEvent(time: now, type: EventType.syn, code: SynCode.report, value: 0))
        now = EventTime(microseconds: now.microseconds + 10_000)
    }

    /// Takes the events written so far, leaving the script empty (the clock keeps going).
    mutating func take() -> [InputEvent] {
        defer { events.removeAll() }
        return events
    }
}

extension FrameAssembler {
    /// Feeds every event and returns the frames produced.
    mutating func feed(_ events: [InputEvent]) -> [ContactFrame] {
        events.compactMap { feed($0) }
    }
}

extension ContactFrame {
    /// The contact with this id, if it is in the frame.
    func contact(_ id: UInt64) -> DeviceContact? { contacts.first { $0.id == id } }

    /// The phases in contact order.
    var phases: [TouchPhase] { contacts.map(\.phase) }
}
