import Testing
import TouchCore
import TouchEvdev

/// libevdev's sanitising and state keeping, as the raw reader repeats them.
@Suite struct EvdevStateTests {
    static let codes: [UInt16: Set<UInt16>] = [
        EventType.key: [KeyCode.btnTouch, KeyCode.btnToolFinger],
        EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY],
        EventType.msc: [MscCode.timestamp],
        EventType.sw: [0x00],
        EventType.led: [0x01],
    ]

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: EventTime(microseconds: 5), type: type, code: code, value: value)
    }

    /// Admits `event`, returning whether it was kept and what it became.
    static func admit(_ state: inout EvdevState, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent? {
        var event = event(type, code, value)
        return state.admit(&event) ? event : nil
    }

    @Test func aFreshStateHasEveryTrackingIDFreeAndNoSlotSelected() {
        let state = EvdevState(codes: Self.codes, slotCount: 4)
        #expect(state.slotCount == 4 && state.currentSlot == nil)
        #expect((0..<4).map { state.slotValue(slot: $0, code: AbsCode.mtTrackingID) } == [-1, -1, -1, -1])
        #expect(state.slotValue(slot: 4, code: AbsCode.mtTrackingID) == nil, "no fifth slot")
        #expect(state.slotValue(slot: 0, code: AbsCode.mtPressure) == nil, "a code the device does not announce")
        #expect(state.slotCodes == [AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID])
        #expect(EvdevState(codes: Self.codes, slotCount: -1).slotCount == nil)
    }

    @Test func codesTheDeviceDoesNotAnnounceAreDroppedAndEverySynCodePasses() {
        var state = EvdevState(codes: Self.codes, slotCount: 2)
        #expect(Self.admit(&state, EventType.abs, AbsCode.pressure, 3) == nil)
        #expect(Self.admit(&state, EventType.key, KeyCode.btnLeft, 1) == nil)
        #expect(Self.admit(&state, EventType.rel, 0, 1) == nil, "a type the device does not have")
        #expect(Self.admit(&state, 0x1f, 0xffff, 1) == nil)
        #expect(Self.admit(&state, 0xffff, 0xffff, 1) == nil, "a type past EV_MAX")
        #expect(Self.admit(&state, EventType.syn, SynCode.dropped, 0) != nil)
        #expect(Self.admit(&state, EventType.syn, 0xffff, 0) != nil)
        #expect(Self.admit(&state, EventType.msc, MscCode.timestamp, 77) != nil, "kept, though libevdev keeps no value of it")
    }

    @Test func keysSwitchesAndLEDsAreKeptAsOnOrOff() {
        var state = EvdevState(codes: Self.codes, slotCount: 2)
        _ = Self.admit(&state, EventType.key, KeyCode.btnTouch, 2)
        _ = Self.admit(&state, EventType.sw, 0, 1)
        _ = Self.admit(&state, EventType.led, 1, 9)
        #expect(state.value(type: EventType.key, code: KeyCode.btnTouch) == 1)
        #expect(state.value(type: EventType.key, code: KeyCode.btnToolFinger) == 0)
        #expect(state.value(type: EventType.sw, code: 0) == 1 && state.value(type: EventType.led, code: 1) == 1)
        _ = Self.admit(&state, EventType.key, KeyCode.btnTouch, 0)
        #expect(state.value(type: EventType.key, code: KeyCode.btnTouch) == 0)
        #expect(state.value(type: EventType.msc, code: MscCode.timestamp) == nil)
    }

    @Test func slotsTakeTheMultitouchValuesAndAStraySlotIsCappedToTheLast() {
        var state = EvdevState(codes: Self.codes, slotCount: 3)
        _ = Self.admit(&state, EventType.abs, AbsCode.mtPositionX, 5)
        #expect((0..<3).allSatisfy { state.slotValue(slot: $0, code: AbsCode.mtPositionX) == 0 }, "no slot selected: nothing kept")
        _ = Self.admit(&state, EventType.abs, AbsCode.mtSlot, 1)
        _ = Self.admit(&state, EventType.abs, AbsCode.mtPositionX, 300)
        _ = Self.admit(&state, EventType.abs, AbsCode.x, 301)
        #expect(state.slotValue(slot: 1, code: AbsCode.mtPositionX) == 300)
        #expect(state.value(type: EventType.abs, code: AbsCode.x) == 301)
        #expect(state.value(type: EventType.abs, code: AbsCode.mtPositionX) == nil, "a slot's value, not an axis")
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, 9)?.value == 2)
        #expect(state.currentSlot == 2)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, -4)?.value == 2)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, Int32.min)?.value == 2)
    }

    @Test func aTrackingIDMustGoFromFreeToAnIDOrBack() {
        var state = EvdevState(codes: Self.codes, slotCount: 2)
        _ = Self.admit(&state, EventType.abs, AbsCode.mtSlot, 0)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) == nil, "from free to free")
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, 4) != nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, 5) == nil, "from an id to another")
        #expect(state.slotValue(slot: 0, code: AbsCode.mtTrackingID) == 4)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) != nil)
        #expect(state.slotValue(slot: 0, code: AbsCode.mtTrackingID) == -1)
    }

    @Test func withoutSlotsTheMultitouchCodesAreAxesAndAnyTrackingIDPasses() {
        var state = EvdevState(codes: Self.codes, slotCount: nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) != nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) != nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, 40)?.value == 40, "nothing to cap against")
        #expect(state.value(type: EventType.abs, code: AbsCode.mtSlot) == 40)
        #expect(state.slotValue(slot: 0, code: AbsCode.mtTrackingID) == nil)
    }

    @Test func aDeviceDeclaringHugelyManySlotsKeepsTheFirstOnesAndPassesTheRest() {
        var state = EvdevState(codes: Self.codes, slotCount: Int(Int32.max))
        #expect(state.keptSlots == Limits.maximumSlots)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, 1000)?.value == 1000)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) != nil, "not kept, so not checked")
        #expect(state.slotValue(slot: 1000, code: AbsCode.mtTrackingID) == nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, 255)?.value == 255)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, -1) == nil, "a kept slot is checked")
    }

    @Test func aDeviceWithNoSlotsAtAllSelectsNone() {
        var state = EvdevState(codes: Self.codes, slotCount: 0)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtSlot, 0)?.value == -1)
        #expect(state.currentSlot == nil)
        #expect(Self.admit(&state, EventType.abs, AbsCode.mtTrackingID, 3) != nil, "kept, though no slot holds it")
    }

    @Test func valuesSetAreTheOnesReadAndOnlyWhereTheDeviceHasThem() {
        var state = EvdevState(codes: Self.codes, slotCount: 2)
        state.setSlotValue(12, slot: 1, code: AbsCode.mtTrackingID)
        state.setSlotValue(12, slot: 5, code: AbsCode.mtTrackingID)
        state.setValue(1, type: EventType.key, code: KeyCode.btnTouch)
        state.setValue(1, type: EventType.key, code: KeyCode.btnLeft)
        state.selectSlot(1)
        #expect(state.slotValue(slot: 1, code: AbsCode.mtTrackingID) == 12 && state.currentSlot == 1)
        #expect(state.value(type: EventType.key, code: KeyCode.btnTouch) == 1)
        #expect(state.value(type: EventType.key, code: KeyCode.btnLeft) == nil)
        state.selectSlot(2)
        #expect(state.currentSlot == nil)
        #expect(state.codes(of: EventType.key) == [KeyCode.btnToolFinger, KeyCode.btnTouch], "in order")
        #expect(state.codes(of: 0xffff).isEmpty)
    }
}
