/// One key that went down or up, as the kernel reported it.
public struct KeyTransition: Hashable, Sendable {
    /// The key code (`KEY_*`, `BTN_*`).
    public var code: UInt16
    /// The kernel's name for the code (from the event code table), or `KEY_0x...` for an unnamed one.
    public var name: String
    /// True for down, false for up.
    public var isDown: Bool

    public init(code: UInt16, name: String, isDown: Bool) {
        self.code = code
        self.name = name
        self.isDown = isDown
    }
}

/// The keys of one `SYN_REPORT`.
public struct KeyFrame: Hashable, Sendable {
    public var time: EventTime
    public var transitions: [KeyTransition]
}

/// Decodes a key device's events into key frames: `EV_KEY` 1 and 0 between `SYN_REPORT`s
/// (auto-repeat, value 2, is not a new press). Pure: no I/O.
///
/// It keeps which keys are down, so that a repeated down or an up without a down is dropped, lost
/// events are made good from the kernel's state (``resync(with:at:)``), and a device that goes away
/// ends its keys (``finish(at:)``).
public struct KeyDecoder: Sendable {
    private var down: Set<UInt16> = []
    private var pending: [KeyTransition] = []
    /// Between `SYN_DROPPED` and the resync: events are ignored.
    private var dropping = false

    public init() {}

    /// The keys currently down.
    public var keysDown: Set<UInt16> { down }

    /// The name of a key code from the event code table.
    public static func name(of code: UInt16) -> String {
        EventCodes.codeName(type: EventType.key, code: code) ?? "KEY_0x" + String(code, radix: 16)
    }

    /// Feeds one event; returns the frame at a `SYN_REPORT` that changed keys.
    public mutating func feed(_ event: InputEvent) -> KeyFrame? {
        switch (event.type, event.code) {
        case (EventType.syn, SynCode.dropped):
            dropping = true
            pending = []
            return nil
        case (EventType.syn, SynCode.report):
            guard !dropping, !pending.isEmpty else { return nil }
            defer { pending = [] }
            return KeyFrame(time: event.time, transitions: pending)
        case (EventType.key, _) where !dropping:
            apply(code: event.code, value: event.value)
            return nil
        default:
            return nil
        }
    }

    /// Brings the keys up to date after lost events, from the kernel's state as libevdev's sync
    /// delta gives it (the `EV_KEY` events that differ from what was last known).
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> KeyFrame? {
        dropping = false
        pending = []
        for event in delta where event.type == EventType.key { apply(code: event.code, value: event.value) }
        defer { pending = [] }
        return pending.isEmpty ? nil : KeyFrame(time: time, transitions: pending)
    }

    /// Ends every key still down (the device went away): the transitions are ups, which the
    /// caller reports as cancelled.
    public mutating func finish(at time: EventTime) -> KeyFrame? {
        let held = down.sorted()
        down = []
        pending = []
        guard !held.isEmpty else { return nil }
        return KeyFrame(time: time, transitions: held.map { KeyTransition(code: $0, name: Self.name(of: $0), isDown: false) })
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
