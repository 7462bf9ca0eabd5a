import TouchCore

/// The events that play forwarded touches on a virtual touchscreen (multitouch protocol B): pure,
/// so what a compositor will read is tested byte for byte without a kernel.
///
/// Each forwarded touch gets a free slot and a new tracking id when it begins, and gives them back
/// when it ends (`ABS_MT_TRACKING_ID -1`). A cancelled touch is first marked `MT_TOOL_PALM`, in a
/// frame of its own, then lifted in the next: libinput turns the palm into a touch cancel, where a
/// plain lift would be a tap. One call's touches make one frame (`SYN_REPORT`), unless a touch
/// appears twice in it (a touch held back that begins and ends in one event): then a new frame
/// begins before its second step. A touch beyond the ``VirtualTouchscreenDescription/slotCount``
/// slots is left out, as are steps of touches it does not know.
///
/// Slots, per touch:
///
///     free --began--> down --moved--> down
///     down --ended--> free
///     down --cancelled--> palm --(the next frame)--> free
public struct VirtualTouchscreen: Sendable {
    /// What the device is.
    public let description: VirtualTouchscreenDescription
    /// What a slot carries: its touch, if any, and the values last written for it (`nil`: none
    /// since its touch began). A value that did not change is not written again (the kernel would
    /// drop it).
    private struct Slot {
        var touch: TouchID?
        var x: Int32?
        var y: Int32?
        var major: Int32?
        var pressure: Int32?
    }

    private var slots: [Slot]
    /// The tracking id the next touch gets (0...65535, then from 0 again).
    private var nextTrackingID: Int32 = 0
    /// The slot the kernel's `ABS_MT_SLOT` was last set to (nil: not yet).
    private var currentSlot: Int32?
    /// The position `ABS_X/Y` last gave.
    private var primary: (x: Int32, y: Int32)?
    private var touchDown = false

    public init(_ description: VirtualTouchscreenDescription) {
        self.description = description
        slots = Array(repeating: Slot(), count: Int(VirtualTouchscreenDescription.slotCount))
    }

    /// The touches it carries now.
    public var touches: [TouchID] { slots.compactMap(\.touch) }

    /// The events for `touches` (those of this device's window), each frame ending in `SYN_REPORT`;
    /// none when nothing changed.
    public mutating func events(for touches: [ForwardedTouch]) -> [InputEvent] {
        var out: [InputEvent] = []
        // A slot, a position, a size and a pressure each, and the frame's end.
        out.reserveCapacity(5 * touches.count + 4)
        var inFrame: [TouchID] = []
        var palms: [Int] = []
        for touch in touches {
            if inFrame.contains(touch.touch) {
                endFrame(&out)
                inFrame.removeAll()
            }
            if step(touch, into: &out, palms: &palms) { inFrame.append(touch.touch) }
        }
        if !inFrame.isEmpty { endFrame(&out) }
        guard !palms.isEmpty else { return out }
        // The palms' lifts, in a frame of their own.
        for slot in palms { lift(slot, into: &out) }
        endFrame(&out)
        return out
    }

    /// The events that cancel every touch it carries (the daemon stops, or the window goes).
    public mutating func cancelAll(timestamp: InputTime) -> [InputEvent] {
        var cancels: [ForwardedTouch] = []
        for slot in slots.indices {
            guard let touch = slots[slot].touch else { continue }
            cancels.append(ForwardedTouch(touch: touch, window: ResponderID(description.window), phase: .cancelled, location: .zero, timestamp: timestamp))
        }
        return events(for: cancels)
    }

    /// One touch's step; returns whether it wrote anything.
    private mutating func step(_ touch: ForwardedTouch, into out: inout [InputEvent], palms: inout [Int]) -> Bool {
        let known = slots.firstIndex { $0.touch == touch.touch }
        switch touch.phase {
        case .began:
            guard known == nil, let slot = slots.firstIndex(where: { $0.touch == nil }) else { return false }
            slots[slot] = Slot(touch: touch.touch)
            select(slot, into: &out)
            // A finger before the tracking id: a reader (libinput) takes the slot's tool type when
            // the touch begins, and a slot's last touch may have ended as a palm.
            emit(EventType.abs, AbsCode.mtToolType, MTToolType.finger, into: &out)
            emit(EventType.abs, AbsCode.mtTrackingID, nextTrackingID, into: &out)
            nextTrackingID = nextTrackingID >= 65_535 ? 0 : nextTrackingID + 1
            place(touch, slot: slot, into: &out)
        case .moved:
            guard let slot = known, !palms.contains(slot) else { return false }
            select(slot, into: &out)
            place(touch, slot: slot, into: &out)
        case .ended:
            guard let slot = known, !palms.contains(slot) else { return false }
            lift(slot, into: &out)
        case .cancelled:
            guard let slot = known, !palms.contains(slot) else { return false }
            select(slot, into: &out)
            emit(EventType.abs, AbsCode.mtToolType, MTToolType.palm, into: &out)
            palms.append(slot)
        }
        return true
    }

    /// The touch's position, size and pressure in its slot (selected already).
    private mutating func place(_ touch: ForwardedTouch, slot: Int, into out: inout [InputEvent]) {
        let x = Self.clamp(VirtualTouchscreenDescription.units(touch.location.x), description.axis(AbsCode.mtPositionX))
        let y = Self.clamp(VirtualTouchscreenDescription.units(touch.location.y), description.axis(AbsCode.mtPositionY))
        // A touch that began writes everything; a move what changed.
        if slots[slot].x != x { emit(EventType.abs, AbsCode.mtPositionX, x, into: &out) }
        if slots[slot].y != y { emit(EventType.abs, AbsCode.mtPositionY, y, into: &out) }
        slots[slot].x = x
        slots[slot].y = y
        if touch.majorRadius > 0 {
            let major = Self.clamp(VirtualTouchscreenDescription.units(2 * touch.majorRadius), description.axis(AbsCode.mtTouchMajor))
            if slots[slot].major != major { emit(EventType.abs, AbsCode.mtTouchMajor, major, into: &out) }
            slots[slot].major = major
        }
        if touch.maximumPossibleForce > 0 {
            let fraction = max(0, min(1, touch.force / touch.maximumPossibleForce))
            // 0...255 by the clamp above (a NaN force fails both comparisons and gives 0).
            let pressure = Int32((fraction.isNaN ? 0 : fraction) * Double(VirtualTouchscreenDescription.pressureMaximum))
            if slots[slot].pressure != pressure { emit(EventType.abs, AbsCode.mtPressure, pressure, into: &out) }
            slots[slot].pressure = pressure
        }
    }

    private mutating func lift(_ slot: Int, into out: inout [InputEvent]) {
        select(slot, into: &out)
        emit(EventType.abs, AbsCode.mtTrackingID, -1, into: &out)
        slots[slot] = Slot()
    }

    private mutating func select(_ slot: Int, into out: inout [InputEvent]) {
        let value = Int32(truncatingIfNeeded: slot)
        guard currentSlot != value else { return }
        emit(EventType.abs, AbsCode.mtSlot, value, into: &out)
        currentSlot = value
    }

    /// `ABS_X/Y` for the lowest slot's touch, `BTN_TOUCH`, then `SYN_REPORT`.
    private mutating func endFrame(_ out: inout [InputEvent]) {
        if let lowest = slots.firstIndex(where: { $0.touch != nil }), let x = slots[lowest].x, let y = slots[lowest].y {
            if primary?.x != x { emit(EventType.abs, AbsCode.x, x, into: &out) }
            if primary?.y != y { emit(EventType.abs, AbsCode.y, y, into: &out) }
            primary = (x, y)
        }
        let down = slots.contains { $0.touch != nil }
        if down != touchDown {
            emit(EventType.key, KeyCode.btnTouch, down ? 1 : 0, into: &out)
            touchDown = down
        }
        emit(EventType.syn, SynCode.report, 0, into: &out)
    }

    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32, into out: inout [InputEvent]) {
        out.append(InputEvent(time: EventTime(microseconds: 0), type: type, code: code, value: value))
    }

    private static func clamp(_ value: Int32, _ axis: VirtualAxis?) -> Int32 {
        guard let axis else { return value }
        return min(max(value, axis.minimum), axis.maximum)
    }
}
