/// Multi-touch protocol B: one state machine per slot, fed `ABS_MT_*` events, settled at each
/// `SYN_REPORT`.
///
/// A slot keeps its axis values after its contact ends, as the kernel does: a new contact in the
/// same slot only reports the axes that differ, so the rest must be remembered.
///
/// Transitions of ``Life`` (T = tracking id event, F = frame end):
///
///     idle        T ≥ 0            → pending     id allocated, nothing emitted yet
///     idle        T -1             → idle        anomaly: release without contact
///     pending     T -1             → idle        anomaly: contact shorter than a frame
///     pending     T other ≥ 0      → pending     the unreported contact is forgotten
///     pending     F finger         → live        began
///     pending     F palm           → suppressed  (never reported)
///     live        T -1             → idle        ended (cancelled in a resync frame)
///     live        T other ≥ 0      → pending     old one ended (cancelled in a resync frame);
///                                                anomaly unless resyncing
///     live        F finger         → live        moved or stationary
///     live        F palm           → suppressed  cancelled
///     suppressed  T -1             → idle
///     suppressed  T other ≥ 0      → pending
///     live        cancel all       → suppressed  cancelled
///     pending     cancel all       → suppressed  (never reported)
///
/// The same tracking id again changes nothing.
struct SlotTracker: ContactTracker {
    enum Life: Sendable {
        case idle
        case pending(id: UInt64, trackingID: Int32)
        case live(id: UInt64, trackingID: Int32, last: ContactValues)
        case suppressed(trackingID: Int32)
    }

    struct Slot: Sendable {
        var axes: ContactAxes
        var life: Life = .idle
    }

    private let codes: ContactCodes
    private var slots: [Slot]
    /// The slot `ABS_MT_*` events go to; nil after an out-of-range `ABS_MT_SLOT`.
    private var current: Int?
    private var reportedOutOfRangeThisFrame = false

    init(description: DeviceDescription, capabilities: DeviceCapabilities) {
        codes = ContactCodes(capabilities)
        var axes = ContactAxes()
        for code in AbsCode.multitouchRange {
            if let value = description.absInfo[code]?.value { axes.apply(code: code, value: value) }
        }
        let count = max(capabilities.slotCount, 1)
        slots = Array(repeating: Slot(axes: axes), count: count)
        // The slot selected when the description was taken; a recording's first events go there.
        let initial = Int(description.absInfo[AbsCode.mtSlot]?.value ?? 0)
        current = min(max(initial, 0), count - 1)
    }

    mutating func handle(_ event: InputEvent, shared: SharedState, output: inout FrameOutput) {
        guard event.type == EventType.abs, AbsCode.multitouchRange.contains(event.code) else { return }
        if event.code == AbsCode.mtSlot {
            if event.value >= 0 && Int(event.value) < slots.count {
                current = Int(event.value)
            } else {
                current = nil
                if !reportedOutOfRangeThisFrame {
                    reportedOutOfRangeThisFrame = true
                    output.report(.slotOutOfRange(slot: event.value, slotCount: slots.count))
                }
            }
            return
        }
        guard let index = current else { return }
        if event.code == AbsCode.mtTrackingID {
            changeTrackingID(slot: index, to: event.value, shared: shared, output: &output)
        } else {
            slots[index].axes.apply(code: event.code, value: event.value)
        }
    }

    private mutating func changeTrackingID(slot index: Int, to trackingID: Int32, shared: SharedState, output: inout FrameOutput) {
        let slotNumber = Int32(truncatingIfNeeded: index)  // index < Limits.maximumSlots
        switch slots[index].life {
        case .idle:
            if trackingID < 0 {
                output.report(.releaseWithoutContact(slot: slotNumber))
            } else {
                slots[index].life = .pending(id: output.newID(), trackingID: trackingID)
            }
        case .pending(_, let old):
            if trackingID < 0 {
                output.report(.contactShorterThanAFrame(slot: slotNumber))
                slots[index].life = .idle
            } else if trackingID != old {
                slots[index].life = .pending(id: output.newID(), trackingID: trackingID)
            }
        case .live(let id, let old, _):
            if trackingID == old { return }
            let values = self.values(of: index, shared: shared)
            output.emit(id: id, phase: output.liftPhase, values: values, slot: slotNumber)
            if trackingID < 0 {
                slots[index].life = .idle
            } else {
                if !output.isResync {
                    output.report(.trackingIDReplaced(slot: slotNumber, old: old, new: trackingID))
                }
                slots[index].life = .pending(id: output.newID(), trackingID: trackingID)
            }
        case .suppressed(let old):
            if trackingID < 0 {
                slots[index].life = .idle
            } else if trackingID != old {
                slots[index].life = .pending(id: output.newID(), trackingID: trackingID)
            }
        }
    }

    mutating func endFrame(shared: SharedState, output: inout FrameOutput) {
        reportedOutOfRangeThisFrame = false
        for index in slots.indices {
            let slotNumber = Int32(truncatingIfNeeded: index)  // index < Limits.maximumSlots
            switch slots[index].life {
            case .idle, .suppressed:
                break
            case .pending(let id, let trackingID):
                let values = self.values(of: index, shared: shared)
                if output.palm.isPalm(values) {
                    slots[index].life = .suppressed(trackingID: trackingID)
                } else {
                    output.emit(id: id, phase: .began, values: values, slot: slotNumber)
                    slots[index].life = .live(id: id, trackingID: trackingID, last: values)
                }
            case .live(let id, let trackingID, let last):
                let values = self.values(of: index, shared: shared)
                if output.palm.isPalm(values) {
                    output.emit(id: id, phase: .cancelled, values: values, slot: slotNumber)
                    slots[index].life = .suppressed(trackingID: trackingID)
                } else {
                    output.emit(id: id, phase: values == last ? .stationary : .moved, values: values, slot: slotNumber)
                    slots[index].life = .live(id: id, trackingID: trackingID, last: values)
                }
            }
        }
    }

    mutating func cancelAll(output: inout FrameOutput) {
        for index in slots.indices {
            switch slots[index].life {
            case .idle, .suppressed:
                break
            case .pending(_, let trackingID):
                slots[index].life = .suppressed(trackingID: trackingID)
            case .live(let id, let trackingID, let last):
                output.emit(id: id, phase: .cancelled, values: last, slot: Int32(truncatingIfNeeded: index))
                slots[index].life = .suppressed(trackingID: trackingID)
            }
        }
    }

    private func values(of index: Int, shared: SharedState) -> ContactValues {
        slots[index].axes.values(codes: codes, shared: shared)
    }
}
