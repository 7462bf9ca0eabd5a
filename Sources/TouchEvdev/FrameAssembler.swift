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
/// The kernel's `SYN_DROPPED` means events were lost. Feeding a raw kernel stream (or a
/// recording), the assembler drops the incomplete frame, ignores events up to and including the
/// next `SYN_REPORT`, and treats the frame after that as a resync: it brings each slot up to date,
/// as libevdev's sync mode does (tracking id -1, then the new id, for a changed touch). Contacts
/// that the resync shows gone are cancelled (their lift was not seen), new ones begin, unchanged
/// ones continue with the same id.
///
/// Reading through libevdev, whose sync mode already discarded the kernel's incomplete frames:
/// pass the `SYN_DROPPED` to ``feed(_:)``, then the events read with `LIBEVDEV_READ_FLAG_SYNC` to
/// ``resync(with:at:)`` in one call.
///
/// The sync state machine (``SyncState``):
///
///     inSync      SYN_REPORT      → inSync      frame settled
///     inSync      SYN_DROPPED     → discarding  frame dropped; anomaly (reader)
///     inSync      frame too long  → discarding  frame dropped; anomaly (device)
///     discarding  SYN_REPORT      → resyncing   nothing settled
///     discarding  other events    → discarding  ignored
///     resyncing   SYN_REPORT      → inSync      frame settled as a resync
///     resyncing   SYN_DROPPED     → discarding  frame dropped; anomaly (reader)
///     any         resync(with:)   → inSync      events settled as one resync frame
///     any         finish(at:)     → inSync      frame dropped; live contacts cancelled
public struct FrameAssembler: Sendable {
    /// The most protocol-B slots tracked; more declared slots are ignored (with an anomaly).
    public static let maximumSlots = 256
    /// The most protocol-A contacts tracked in one frame.
    public static let maximumAnonymousContacts = 32
    /// The most events buffered for one frame before it is discarded as garbage.
    public static let maximumFrameEvents = 16_384
    /// The most anomalies kept until ``takeAnomalies()``; later ones are only counted.
    public static let maximumPendingAnomalies = 256

    enum SyncState: Sendable {
        case inSync
        case discarding
        case resyncing
    }

    private enum Tracker: Sendable {
        case slotted(SlotTracker)
        case anonymous(AnonymousTracker)
        case single(SingleTouchTracker)
        /// While a tracker is being changed: it is taken out of the enum first, so that its arrays
        /// are changed in place (a payload bound with `var` shares them with the enum, and the
        /// first change would copy them, on every frame).
        case taken
    }

    /// The device's capabilities, as the assembler reads them.
    public let capabilities: DeviceCapabilities
    /// Palm thresholds; change them at any time, they apply from the next frame.
    public var palmThresholds: PalmThresholds
    /// Anomalies since the last ``takeAnomalies()``, oldest first.
    public private(set) var anomalies: [DeviceAnomaly] = []
    /// Anomalies not kept because ``anomalies`` was full.
    public private(set) var droppedAnomalyCount = 0

    private var sync = SyncState.inSync
    private var pending: [InputEvent] = []
    private var shared: SharedState
    private var tracker: Tracker
    private var nextID: UInt64 = 1

    /// An assembler for the device `description` describes.
    ///
    /// - Parameters:
    ///   - description: The device; its axes' values (``AbsInfo/value``) give the starting state,
    ///     `ABS_MT_SLOT`'s value the slot the first events go to.
    ///   - udevProperties: udev properties, used to classify the device (``DeviceCapabilities``).
    ///   - palmThresholds: Limits above which a contact is cancelled as a palm.
    public init(
        description: DeviceDescription, udevProperties: [String: String] = [:],
        palmThresholds: PalmThresholds = .none
    ) {
        let capabilities = DeviceCapabilities(description: description, udevProperties: udevProperties)
        self.capabilities = capabilities
        self.palmThresholds = palmThresholds
        shared = SharedState(description: description)
        switch capabilities.multitouch {
        case .slotted:
            tracker = .slotted(SlotTracker(description: description, capabilities: capabilities))
        case .anonymous:
            tracker = .anonymous(AnonymousTracker(capabilities: capabilities))
        case .singleTouch:
            tracker = .single(SingleTouchTracker(description: description, capabilities: capabilities))
        }
        if let slots = description.absInfo[AbsCode.mtSlot], capabilities.slotCount > 0 {
            let declared = Int(slots.maximum) - Int(slots.minimum) + 1
            if declared > Self.maximumSlots {
                record([DeviceAnomaly(time: EventTime(microseconds: 0), kind: .tooManySlots(declared: declared, limit: Self.maximumSlots))])
            }
        }
    }

    /// Takes one event.
    ///
    /// - Returns: At a `SYN_REPORT` that began, moved, ended or cancelled a contact, the frame;
    ///   otherwise nil.
    public mutating func feed(_ event: InputEvent) -> ContactFrame? {
        let isSyn = event.type == EventType.syn
        switch sync {
        case .inSync, .resyncing:
            if isSyn && event.code == SynCode.report {
                let isResync: Bool
                switch sync {
                case .resyncing: isResync = true
                case .inSync, .discarding: isResync = false
                }
                sync = .inSync
                let frame = settle(pending, at: event.time, isResync: isResync)
                // Emptied once `settle` no longer holds the events: their room is kept, not copied.
                pending.removeAll(keepingCapacity: true)
                return frame
            }
            if isSyn && event.code == SynCode.dropped {
                pending.removeAll(keepingCapacity: true)
                sync = .discarding
                record([DeviceAnomaly(time: event.time, kind: .eventsDropped)])
                return nil
            }
            guard event.type == EventType.key || event.type == EventType.abs
                || (isSyn && event.code == SynCode.mtReport)
            else { return nil }
            guard pending.count < Self.maximumFrameEvents else {
                pending.removeAll(keepingCapacity: true)
                sync = .discarding
                record([DeviceAnomaly(time: event.time, kind: .frameTooLong(limit: Self.maximumFrameEvents))])
                return nil
            }
            pending.append(event)
            return nil
        case .discarding:
            if isSyn && event.code == SynCode.report { sync = .resyncing }
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
        sync = .inSync
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
        sync = .inSync
        var output = FrameOutput(time: time, isResync: true, palm: palmThresholds, capabilities: capabilities, nextID: nextID)
        switch tracker {
        case .slotted(var slots):
            tracker = .taken
            slots.cancelAll(output: &output)
            tracker = .slotted(slots)
        case .anonymous(var anonymous):
            tracker = .taken
            anonymous.cancelAll(output: &output)
            tracker = .anonymous(anonymous)
        case .single(var single):
            tracker = .taken
            single.cancelAll(output: &output)
            tracker = .single(single)
        case .taken:
            preconditionFailure("a frame assembler's tracker is only taken while it is changed")
        }
        nextID = output.nextID
        return output.frame()
    }

    /// Returns and clears ``anomalies`` (and ``droppedAnomalyCount``).
    public mutating func takeAnomalies() -> [DeviceAnomaly] {
        defer {
            anomalies.removeAll()
            droppedAnomalyCount = 0
        }
        return anomalies
    }

    private mutating func settle(_ events: [InputEvent], at time: EventTime, isResync: Bool) -> ContactFrame? {
        var output = FrameOutput(time: time, isResync: isResync, palm: palmThresholds, capabilities: capabilities, nextID: nextID)
        var state = shared
        state.beginFrame()
        switch tracker {
        case .slotted(var slots):
            tracker = .taken
            for event in events {
                state.apply(event)
                slots.handle(event, shared: state, output: &output)
            }
            slots.endFrame(shared: state, output: &output)
            tracker = .slotted(slots)
        case .anonymous(var anonymous):
            tracker = .taken
            for event in events {
                state.apply(event)
                anonymous.handle(event, shared: state, output: &output)
            }
            anonymous.endFrame(shared: state, output: &output)
            tracker = .anonymous(anonymous)
        case .single(var single):
            tracker = .taken
            for event in events {
                state.apply(event)
                single.handle(event, shared: state, output: &output)
            }
            single.endFrame(shared: state, output: &output)
            tracker = .single(single)
        case .taken:
            preconditionFailure("a frame assembler's tracker is only taken while it is changed")
        }
        shared = state
        nextID = output.nextID
        record(output.anomalies)
        return output.frame()
    }

    private mutating func record(_ new: [DeviceAnomaly]) {
        for anomaly in new {
            if anomalies.count < Self.maximumPendingAnomalies {
                anomalies.append(anomaly)
            } else {
                droppedAnomalyCount += 1
            }
        }
    }
}
