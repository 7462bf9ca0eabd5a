/// One key that went down or up, as the kernel reported it.
public struct KeyTransition: Hashable, Sendable {
    /// The key code (`KEY_*`, `BTN_*`).
    public var code: UInt16
    /// The kernel's name for the code (from the event code table), or `KEY_0x...` for an unnamed one.
    public var name: String
    /// True for down, false for up.
    public var isDown: Bool

    /// A transition from its parts.
    public init(code: UInt16, name: String, isDown: Bool) {
        self.code = code
        self.name = name
        self.isDown = isDown
    }
}

/// The keys of one `SYN_REPORT`.
public struct KeyFrame: Hashable, Sendable {
    /// The `SYN_REPORT`'s time (or the resync's).
    public var time: EventTime
    /// The keys that went down or up, in the order the kernel reported them.
    public var transitions: [KeyTransition]
    /// The frame brings the keys up to date after lost events, or ends them: a key that is up in
    /// it was not seen to lift, so its press is cancelled rather than ended.
    public var isResync: Bool

    /// A frame from its parts.
    public init(time: EventTime, transitions: [KeyTransition], isResync: Bool = false) {
        self.time = time
        self.transitions = transitions
        self.isResync = isResync
    }
}

/// Decodes a key device's events into key frames: `EV_KEY` 1 and 0 between `SYN_REPORT`s
/// (auto-repeat, value 2, is not a new press). Pure: no I/O.
///
/// It keeps which keys are down, so that a repeated down or an up without a down is dropped.
/// Lost events follow libevdev's rules (``EventSync``): the incomplete frame is dropped, the keys
/// are brought up to date from the kernel's state (libevdev's delta through ``resync(with:at:)``,
/// or the frame after the drop in a raw stream) in a resync frame, and a device that goes away
/// ends its keys (``finish(at:)``).
public struct KeyDecoder: EventStreamDecoder, Sendable {
    private var down: Set<UInt16> = []
    private var pending: [KeyTransition] = []
    private var sync = EventSync()
    private var log = AnomalyLog()

    /// A decoder with no key down.
    public init() {}

    /// The keys currently down.
    public var keysDown: Set<UInt16> { down }

    /// The name of a key code from the event code table.
    public static func name(of code: UInt16) -> String {
        EventCodes.codeName(type: EventType.key, code: code) ?? "KEY_0x" + String(code, radix: 16)
    }

    /// Feeds one event; returns the frame at a `SYN_REPORT` that changed keys.
    public mutating func feed(_ event: InputEvent) -> KeyFrame? {
        switch sync.step(event) {
        case .collect:
            if event.type == EventType.key { apply(code: event.code, value: event.value) }
            return nil
        case .settle(let isResync):
            return takeFrame(at: event.time, isResync: isResync)
        case .drop(let kind):
            pending.removeAll(keepingCapacity: true)
            log.record(DeviceAnomaly(time: event.time, kind: kind))
            return nil
        case .ignore:
            return nil
        }
    }

    /// Brings the keys up to date after lost events, from the kernel's state as libevdev's sync
    /// delta gives it (the `EV_KEY` events that differ from what was last known).
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> KeyFrame? {
        sync.resynchronised()
        pending.removeAll(keepingCapacity: true)
        for event in delta where event.type == EventType.key { apply(code: event.code, value: event.value) }
        return takeFrame(at: time, isResync: true)
    }

    /// Ends every key still down (the device went away): a resync frame of ups, which the caller
    /// reports as cancelled.
    public mutating func finish(at time: EventTime) -> KeyFrame? {
        let held = down.sorted()
        down = []
        pending.removeAll(keepingCapacity: true)
        sync.resynchronised()
        guard !held.isEmpty else { return nil }
        return KeyFrame(time: time, transitions: held.map { KeyTransition(code: $0, name: Self.name(of: $0), isDown: false) }, isResync: true)
    }

    /// Returns and forgets the anomalies (lost events, overlong frames) since the last call.
    public mutating func takeAnomalies() -> [DeviceAnomaly] { log.take() }

    private mutating func takeFrame(at time: EventTime, isResync: Bool) -> KeyFrame? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        return KeyFrame(time: time, transitions: pending, isResync: isResync)
    }

    private mutating func apply(code: UInt16, value: Int32) {
        switch value {
        case 1:
            guard down.insert(code).inserted else { return }
            pending.append(KeyTransition(code: code, name: Self.name(of: code), isDown: true))
        case 0:
            guard down.remove(code) != nil else { return }
            pending.append(KeyTransition(code: code, name: Self.name(of: code), isDown: false))
        default:
            break  // auto-repeat
        }
    }
}
