import TouchCore

/// libevdev's view of one device, kept by a reader that takes the device's events with `read(2)`
/// itself instead of one `libevdev_next_event` call per event.
///
/// libevdev does two things to every event it returns, and a raw reader must do both to decode
/// the same frames and to let libevdev resynchronise after `SYN_DROPPED`:
/// - it *sanitises* the event (``admit(_:)``): an event of a code the device does not announce is
///   dropped; on a device with slots, an `ABS_MT_SLOT` outside the slots is capped to the last
///   one, and a tracking id that does not go from -1 to an id or from an id to -1 is dropped;
/// - it *keeps the device's state*: every key, switch and LED, every absolute axis, and on a
///   device with slots the multitouch values of every slot and the current slot.
///
/// The state is what libevdev's sync delta starts from: before a resync the reader gives it back
/// to libevdev (`libevdev_set_slot_value`, `libevdev_set_event_value`), lets libevdev compute the
/// delta to the kernel's state, and loads the state after it.
///
/// Values are kept for the first ``TouchCore/Limits/maximumSlots`` slots, the ones libevdev
/// synchronises and touchd reads; events of a slot past them pass as read (a device that declares
/// more is read through its first slots). Every code and slot index comes from an event, checked
/// here against the device's codes and slots: no event can index out of bounds.
public struct EvdevState: Hashable, Sendable {
    /// The multitouch codes libevdev keeps per slot: `ABS_MT_SLOT` (0x2f) to `ABS_MT_TOOL_Y` (0x3d).
    public static let multitouchCodes = AbsCode.multitouchRange
    private static let slotStride = multitouchCodes.count

    /// The codes the device announces, by type: one bit per code, indexed by type.
    private let present: [[UInt64]]
    /// The number of slots, or nil for a device without (protocol A, single touch, no touch).
    public let slotCount: Int?
    /// The slots whose values are kept: the first ``TouchCore/Limits/maximumSlots``.
    public let keptSlots: Int
    /// The slot that multitouch events change, or nil when none is selected.
    public private(set) var currentSlot: Int?
    /// The multitouch values by kept slot: `slot * slotStride + code - ABS_MT_SLOT`.
    private var slotValues: [Int32]
    /// Keys (0 or 1), indexed by code.
    private var keys: [Int32]
    /// Absolute axes, indexed by code (on a device with slots, the multitouch codes are the
    /// slots' values instead).
    private var axes: [Int32]
    /// Switches (0 or 1), indexed by code.
    private var switches: [Int32]
    /// LEDs (0 or 1), indexed by code.
    private var leds: [Int32]

    /// A state with every value 0, every tracking id -1 and no slot selected.
    ///
    /// - Parameters:
    ///   - codes: The codes the device announces, by type (as `libevdev_has_event_code` answers).
    ///   - slotCount: The device's slots (`libevdev_get_num_slots`); nil or negative for none.
    public init(codes: [UInt16: Set<UInt16>], slotCount: Int?) {
        var present = [[UInt64]](repeating: [], count: Int(EventType.maximum) + 1)
        for (type, typeCodes) in codes where Int(type) < present.count {
            guard let largest = typeCodes.max() else { continue }
            var bits = [UInt64](repeating: 0, count: Int(largest) / 64 + 1)
            for code in typeCodes { bits[Int(code) / 64] |= 1 << UInt64(code % 64) }
            present[Int(type)] = bits
        }
        self.present = present
        let slots = slotCount.flatMap { $0 >= 0 ? $0 : nil }
        self.slotCount = slots
        self.keptSlots = min(slots ?? 0, Limits.maximumSlots)
        self.currentSlot = nil
        self.slotValues = [Int32](repeating: 0, count: keptSlots * Self.slotStride)
        self.keys = Self.values(for: codes[EventType.key])
        self.axes = Self.values(for: codes[EventType.abs])
        self.switches = Self.values(for: codes[EventType.sw])
        self.leds = Self.values(for: codes[EventType.led])
        for slot in 0..<keptSlots { setSlotValue(-1, slot: slot, code: AbsCode.mtTrackingID) }
    }

    private static func values(for codes: Set<UInt16>?) -> [Int32] {
        [Int32](repeating: 0, count: codes?.max().map { Int($0) + 1 } ?? 0)
    }

    /// Whether the device announces `code` of `type` (every `EV_SYN` code counts as announced, as
    /// in libevdev).
    @inline(__always)
    public func has(type: UInt16, code: UInt16) -> Bool {
        if type == EventType.syn { return true }
        guard Int(type) < present.count else { return false }
        let bits = present[Int(type)]
        let word = Int(code) / 64
        guard word < bits.count else { return false }
        return bits[word] & (1 << UInt64(code % 64)) != 0
    }

    /// Sanitises `event` as libevdev does and applies it to the state.
    ///
    /// - Returns: False when libevdev would drop the event (the reader skips it); `event` may have
    ///   been changed (a slot index capped).
    @inline(__always)
    public mutating func admit(_ event: inout InputEvent) -> Bool {
        guard has(type: event.type, code: event.code) else { return false }
        switch event.type {
        case EventType.abs: return admitAxis(&event)
        case EventType.key: keys[Int(event.code)] = event.value != 0 ? 1 : 0
        case EventType.sw: switches[Int(event.code)] = event.value != 0 ? 1 : 0
        case EventType.led: leds[Int(event.code)] = event.value != 0 ? 1 : 0
        default: break
        }
        return true
    }

    @inline(__always)
    private mutating func admitAxis(_ event: inout InputEvent) -> Bool {
        guard let slotCount, Self.multitouchCodes.contains(event.code) else {
            axes[Int(event.code)] = event.value
            return true
        }
        if event.code == AbsCode.mtSlot {
            if event.value < 0 || Int(event.value) >= slotCount { event.value = Int32(truncatingIfNeeded: slotCount - 1) }
            currentSlot = event.value >= 0 ? Int(event.value) : nil
            axes[Int(event.code)] = event.value
            return true
        }
        guard let slot = currentSlot, slot < keptSlots else { return true }
        let index = slot * Self.slotStride + Int(event.code - AbsCode.mtSlot)
        if event.code == AbsCode.mtTrackingID && (event.value == -1) == (slotValues[index] == -1) {
            // Neither a touch beginning in a free slot nor one ending in a used one.
            return false
        }
        slotValues[index] = event.value
        return true
    }

    /// A key's, switch's, LED's or absolute axis's value; nil for a code the device does not
    /// announce and for the multitouch codes of a device with slots (``slotValue(slot:code:)``).
    public func value(type: UInt16, code: UInt16) -> Int32? {
        guard has(type: type, code: code), type != EventType.syn else { return nil }
        switch type {
        case EventType.abs:
            if slotCount != nil && Self.multitouchCodes.contains(code) { return nil }
            return axes[Int(code)]
        case EventType.key: return keys[Int(code)]
        case EventType.sw: return switches[Int(code)]
        case EventType.led: return leds[Int(code)]
        default: return nil
        }
    }

    /// Sets a value that ``value(type:code:)`` reports (a key, switch or LED to 0 or 1); ignored
    /// for anything it reports nil for.
    public mutating func setValue(_ value: Int32, type: UInt16, code: UInt16) {
        guard self.value(type: type, code: code) != nil else { return }
        let bit: Int32 = value != 0 ? 1 : 0
        switch type {
        case EventType.abs: axes[Int(code)] = value
        case EventType.key: keys[Int(code)] = bit
        case EventType.sw: switches[Int(code)] = bit
        case EventType.led: leds[Int(code)] = bit
        default: break
        }
    }

    /// A slot's multitouch value; nil outside the kept slots and for a code that is not a multitouch
    /// code the device announces (`ABS_MT_SLOT` itself: ``currentSlot``).
    public func slotValue(slot: Int, code: UInt16) -> Int32? {
        guard let index = slotIndex(slot: slot, code: code) else { return nil }
        return slotValues[index]
    }

    /// Sets a slot's multitouch value; ignored where ``slotValue(slot:code:)`` is nil.
    public mutating func setSlotValue(_ value: Int32, slot: Int, code: UInt16) {
        guard let index = slotIndex(slot: slot, code: code) else { return }
        slotValues[index] = value
    }

    /// Selects the slot multitouch events change; nil, or a slot outside the slots, selects none.
    public mutating func selectSlot(_ slot: Int?) {
        guard let slot, let slotCount, slot >= 0, slot < slotCount else {
            currentSlot = nil
            return
        }
        currentSlot = slot
        axes[Int(AbsCode.mtSlot)] = Int32(truncatingIfNeeded: slot)
    }

    /// The announced codes of `type`, in order.
    public func codes(of type: UInt16) -> [UInt16] {
        guard Int(type) < present.count else { return [] }
        let bits = present[Int(type)]
        var codes: [UInt16] = []
        for (word, value) in bits.enumerated() where value != 0 {
            for bit in 0..<64 where value & (1 << UInt64(truncatingIfNeeded: bit)) != 0 { codes.append(UInt16(truncatingIfNeeded: word * 64 + bit)) }
        }
        return codes
    }

    /// The announced multitouch codes a slot holds values of (`ABS_MT_SLOT` excluded), in order;
    /// empty for a device without slots.
    public var slotCodes: [UInt16] {
        guard slotCount != nil else { return [] }
        return codes(of: EventType.abs).filter { Self.multitouchCodes.contains($0) && $0 != AbsCode.mtSlot }
    }

    private func slotIndex(slot: Int, code: UInt16) -> Int? {
        guard slot >= 0, slot < keptSlots, code != AbsCode.mtSlot,
              Self.multitouchCodes.contains(code), has(type: EventType.abs, code: code) else { return nil }
        return slot * Self.slotStride + Int(code - AbsCode.mtSlot)
    }
}
