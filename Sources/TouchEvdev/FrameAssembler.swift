import TouchCore

/// Turns one device's kernel events into frames of contacts: the shared path of live devices and
/// recordings.
///
/// Like libinput's fallback dispatch, it only collects events until `SYN_REPORT`, then settles
/// every contact at once and emits one ``ContactFrame`` (nil when nothing changed). It handles
/// multi-touch protocol B (slots and tracking ids), protocol A (anonymous contacts matched frame to
/// frame) and single-touch devices (see ``MultitouchProtocol``, ``TouchSignal``).
///
/// A value type with no clock, no I/O and no logging: time comes from the events, and anything odd
/// about the stream is collected in ``anomalies`` for the caller to log.
///
/// Semi-MT touchpads (`INPUT_PROP_SEMI_MT`) are assembled like any protocol-B device: the number
/// of contacts and their lifetimes are right, but the two slots hold the corners of the fingers'
/// bounding box, not the fingers. Their distance still grows and shrinks with the fingers' spread,
/// so pinch magnitudes stay usable; single positions are not. A third finger shows only as
/// `BTN_TOOL_TRIPLETAP` and produces no contact. ``DeviceCapabilities/isSemiMT`` tells consumers.
///
/// ## Lost events
/// The kernel's `SYN_DROPPED` means events were lost. The assembler follows libevdev's rules, as
/// every decoder does (``EventSync``, which has the state machine): feeding a raw kernel stream
/// (or a recording), it drops the incomplete frame, ignores events up to and including the next
/// `SYN_REPORT`, and treats the frame after that as a resync: it brings each slot up to date, as
/// libevdev's sync mode does (tracking id -1, then the new id, for a changed touch). Contacts that
/// the resync shows gone are cancelled (their lift was not seen), new ones begin, unchanged ones
/// continue with the same id.
///
/// Reading a live device, whose reader (libevdev's sync) already discarded the kernel's incomplete
/// frames: pass the `SYN_DROPPED` to ``feed(_:)``, then the events of the sync delta to
/// ``resync(with:at:)`` in one call (``EventStreamDecoder/decode(_:into:)`` does both for a
/// whole ``DeviceRead``). ``finish(at:)`` cancels every live contact and leaves the stream in sync.
///
/// Any value a device may send is safe: slot numbers, tracking ids and axis values are 32-bit
/// integers used without arithmetic that can overflow.
public struct FrameAssembler: EventStreamDecoder, Sendable {
    /// The most protocol-A contacts tracked in one frame.
    public static let maximumAnonymousContacts = 32

    /// What never changes, kept apart (the assembler is moved in and out of its owners on every
    /// read, and a large value would be copied each time).
    private final class Constants: Sendable {
        let capabilities: DeviceCapabilities
        init(_ capabilities: DeviceCapabilities) { self.capabilities = capabilities }
    }

    /// The device's capabilities, as the assembler reads them.
    public var capabilities: DeviceCapabilities { constants.capabilities }
    private let constants: Constants
    /// Palm thresholds; change them at any time, they apply from the next frame.
    public var palmThresholds: PalmThresholds
    /// Anomalies since the last ``takeAnomalies()``, oldest first.
    public var anomalies: [DeviceAnomaly] { log.pending }
    /// Anomalies not kept because ``anomalies`` was full.
    public var droppedAnomalyCount: Int { log.droppedCount }

    private var log = AnomalyLog()
    private var sync = EventSync()
    private var pending: [InputEvent] = []
    /// The list the next frame's contacts are collected in (see ``recycle(_:)``).
    private var spareContacts: [DeviceContact] = []
    private var shared: SharedState
    /// The device's protocol: slots, anonymous reports or a single touch.
    private var tracker: any ContactTracker
    private var nextID: UInt64 = 1

    /// An assembler for the device `description` describes.
    ///
    /// - Parameters:
    ///   - description: The device; its axes' values (``AbsInfo/value``) give the starting state,
    ///     `ABS_MT_SLOT`'s value the slot the first events go to.
    ///   - palmThresholds: Limits above which a contact is cancelled as a palm.
    public init(description: DeviceDescription, palmThresholds: PalmThresholds = .none) {
        let capabilities = DeviceCapabilities(description: description)
        constants = Constants(capabilities)
        self.palmThresholds = palmThresholds
        shared = SharedState(description: description)
        switch capabilities.multitouch {
        case .slotted: tracker = SlotTracker(description: description, capabilities: capabilities)
        case .anonymous: tracker = AnonymousTracker(capabilities: capabilities)
        case .singleTouch: tracker = SingleTouchTracker(description: description, capabilities: capabilities)
        }
        // A live device and a recording alike: the slot axis is read whatever it declares.
        if let slots = description.absInfo[AbsCode.mtSlot], capabilities.slotCount > 0 {
            let declared = DeviceCapabilities.declaredSlots(slots)
            if declared > Limits.maximumSlots {
                log.record(DeviceAnomaly(time: EventTime(microseconds: 0), kind: .tooManySlots(declared: declared, limit: Limits.maximumSlots)))
            } else if declared < 1 {
                log.record(DeviceAnomaly(time: EventTime(microseconds: 0), kind: .noSlots(maximum: slots.maximum)))
            }
        }
    }

    /// Takes one event.
    ///
    /// - Returns: At a `SYN_REPORT` that began, moved, ended or cancelled a contact, the frame;
    ///   otherwise nil.
    public mutating func feed(_ event: InputEvent) -> ContactFrame? {
        switch sync.step(event) {
        case .collect:
            guard event.type == EventType.key || event.type == EventType.abs
                || (event.type == EventType.syn && event.code == SynCode.mtReport)
            else { return nil }
            pending.append(event)
            return nil
        case .settle(let isResync):
            let frame = settle(pending, at: event.time, isResync: isResync)
            // Emptied once `settle` no longer holds the events: their room is kept, not copied.
            pending.removeAll(keepingCapacity: true)
            return frame
        case .drop(let kind):
            pending.removeAll(keepingCapacity: true)
            log.record(DeviceAnomaly(time: event.time, kind: kind))
            return nil
        case .ignore:
            return nil
        }
    }

    /// Brings the contacts up to date after lost events, from libevdev's sync delta: the events
    /// `libevdev_next_event` returns with `LIBEVDEV_READ_FLAG_SYNC` after a `SYN_DROPPED`.
    ///
    /// The events are settled as one frame whatever `SYN_REPORT`s they contain (libevdev may end the
    /// terminated touches' part with one). A contact whose tracking id went to -1 or changed is
    /// cancelled (a changed one's successor begins); unchanged contacts continue with their ids.
    ///
    /// - Parameters:
    ///   - events: The sync delta, in order.
    ///   - time: The frame's time (usually the `SYN_DROPPED`'s, or the last delta event's).
    /// - Returns: The frame, or nil when nothing changed.
    public mutating func resync(with events: [InputEvent], at time: EventTime) -> ContactFrame? {
        pending.removeAll(keepingCapacity: true)
        sync.resynchronised()
        let frameEvents = events.filter { event in
            event.type == EventType.key || event.type == EventType.abs
                || (event.type == EventType.syn && event.code == SynCode.mtReport)
        }
        return settle(frameEvents, at: time, isResync: true)
    }

    /// Cancels every live contact: the device went away, the replay ended, or the consumer needs a
    /// clean slate. Fingers still down stay silent until they lift; the events of the frame in
    /// progress are dropped.
    ///
    /// - Returns: A frame of cancelled contacts, or nil when none was live.
    public mutating func finish(at time: EventTime) -> ContactFrame? {
        pending.removeAll(keepingCapacity: true)
        sync.resynchronised()
        var output = makeOutput(at: time, isResync: true)
        tracker.cancelAll(output: &output)
        return finishOutput(&output)
    }

    /// How many contacts a frame of the device may hold: its slots (within ``Limits/maximumSlots``),
    /// or ten for a device without.
    private var contactCapacity: Int {
        let slots = constants.capabilities.slotCount
        return slots > 0 ? min(slots, Limits.maximumSlots) : 10
    }

    /// Returns and clears ``anomalies`` (and ``droppedAnomalyCount``).
    public mutating func takeAnomalies() -> [DeviceAnomaly] { log.take() }

    /// Gives back the list of a frame this assembler made, once its contacts have been read: the
    /// next frame is collected in it rather than in a list of its own.
    public mutating func recycle(_ frame: inout ContactFrame) {
        swap(&spareContacts, &frame.contacts)
        spareContacts.removeAll(keepingCapacity: true)
    }

    private mutating func settle(_ events: [InputEvent], at time: EventTime, isResync: Bool) -> ContactFrame? {
        var output = makeOutput(at: time, isResync: isResync)
        tracker.assemble(events, shared: &shared, output: &output)
        return finishOutput(&output)
    }

    /// A frame's output at `time`, collected in the spare list.
    private mutating func makeOutput(at time: EventTime, isResync: Bool) -> FrameOutput {
        FrameOutput(
            time: time, isResync: isResync, palm: palmThresholds, xAxis: constants.capabilities.xAxis,
            yAxis: constants.capabilities.yAxis, nextID: nextID, room: &spareContacts, capacity: contactCapacity)
    }

    /// The frame `output` collected, if any; its list stays for the next frame when there is none.
    private mutating func finishOutput(_ output: inout FrameOutput) -> ContactFrame? {
        nextID = output.nextID
        log.record(output.anomalies)
        guard let frame = output.takeFrame() else {
            spareContacts = output.takeRoom()
            return nil
        }
        return frame
    }
}
