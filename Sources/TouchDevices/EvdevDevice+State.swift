import CEvdev
import TouchEvdev

extension EvdevDevice {
    /// The types whose values libevdev keeps, besides the slots.
    private static let statefulTypes: [UInt16] = [EventType.key, EventType.abs, EventType.sw, EventType.led]

    /// libevdev's state of `dev` now: its slots, values and current slot, for the device's codes
    /// (``announcedCodes(of:)``).
    static func loadState(of dev: OpaquePointer, codes: [UInt16: Set<UInt16>]) -> EvdevState {
        var state = EvdevState(codes: codes, slotCount: Int(libevdev_get_num_slots(dev)))
        reload(&state, from: dev)
        return state
    }

    /// Copies libevdev's values into `state` (after a resync, libevdev's state is the kernel's).
    static func reload(_ state: inout EvdevState, from dev: OpaquePointer) {
        for type in statefulTypes {
            for code in state.codes(of: type) where state.value(type: type, code: code) != nil {
                state.setValue(libevdev_get_event_value(dev, UInt32(type), UInt32(code)), type: type, code: code)
            }
        }
        let slotCodes = state.slotCodes
        for slot in 0..<state.keptSlots {
            for code in slotCodes {
                state.setSlotValue(libevdev_get_slot_value(dev, UInt32(truncatingIfNeeded: slot), UInt32(code)), slot: slot, code: code)
            }
        }
        let current = Int(libevdev_get_current_slot(dev))
        state.selectSlot(current >= 0 ? current : nil)
    }

    /// Gives `state` to libevdev as its own (`libevdev_set_slot_value`, `libevdev_set_event_value`),
    /// so that a forced sync computes the delta from what the reader last saw.
    static func push(_ state: EvdevState, to dev: OpaquePointer) {
        let slotCodes = state.slotCodes
        for slot in 0..<state.keptSlots {
            for code in slotCodes {
                guard let value = state.slotValue(slot: slot, code: code) else { continue }
                _ = libevdev_set_slot_value(dev, UInt32(truncatingIfNeeded: slot), UInt32(code), value)
            }
        }
        for type in statefulTypes {
            for code in state.codes(of: type) {
                guard let value = state.value(type: type, code: code) else { continue }
                _ = libevdev_set_event_value(dev, UInt32(type), UInt32(code), value)
            }
        }
        // Last: selecting the slot also copies its values into the multitouch axes libevdev reports.
        if let slot = state.currentSlot {
            _ = libevdev_set_event_value(dev, UInt32(EventType.abs), UInt32(AbsCode.mtSlot), Int32(truncatingIfNeeded: slot))
        }
    }
}
