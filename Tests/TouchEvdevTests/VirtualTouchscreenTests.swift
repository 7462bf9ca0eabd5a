import Testing
import TouchCore
import TouchEvdev

/// The virtual touchscreen of a window: what it says it is, and the events of forwarded touches,
/// event by event.
@Suite struct VirtualTouchscreenTests {
    let description = VirtualTouchscreenDescription(window: "screen", size: Size(width: 1280, height: 800), pointsPerMillimetre: 5)

    func touch(_ id: TouchID, _ phase: ForwardedTouch.Phase, _ x: Double, _ y: Double) -> ForwardedTouch {
        ForwardedTouch(touch: id, window: "screen", phase: phase, location: Point(x: x, y: y), timestamp: 0)
    }

    /// Events as `ABS_MT_SLOT 0`-style names (`SYN` for a report).
    func names(_ events: [InputEvent]) -> [String] {
        events.map { event in
            let name = EventCodes.codeName(type: event.type, code: event.code) ?? "?"
            return event.type == EventType.syn ? "SYN" : "\(name) \(event.value)"
        }
    }

    @Test func itIsADirectMultitouchScreenInTheWindowsPointsWithItsSizeInMillimetres() {
        #expect(description.name == "touchd virtual touchscreen screen")
        #expect(description.phys == "touchd/screen")
        #expect(description.properties == [InputProperty.direct])
        #expect(description.keys == [KeyCode.btnTouch])
        #expect(description.bus == 0x06)
        let x = description.axis(AbsCode.mtPositionX)
        let y = description.axis(AbsCode.mtPositionY)
        // 1280 points in eighths: 0...10239, 40 units per millimetre (5 points per millimetre): 256 mm.
        #expect(x == VirtualAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: 10_239, resolution: 40))
        #expect(y == VirtualAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: 6_399, resolution: 40))
        #expect(description.axis(AbsCode.x) == VirtualAxis(code: AbsCode.x, minimum: 0, maximum: 10_239, resolution: 40))
        #expect(description.axis(AbsCode.mtSlot)?.maximum == 9)
        #expect(description.axis(AbsCode.mtToolType)?.maximum == MTToolType.palm)
        #expect(description.axis(AbsCode.mtTrackingID) == VirtualAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65_535))
        #expect(description.axis(AbsCode.mtPressure)?.maximum == 255)
        #expect(description.axis(AbsCode.mtTouchMajor)?.resolution == 40)
    }

    @Test func itsNameAndPhysFitTheKernelsLimitsAndNameItAsTouchds() {
        let long = VirtualTouchscreenDescription(window: String(repeating: "é", count: 100), size: Size(width: 10, height: 10), pointsPerMillimetre: 1)
        #expect(long.name.utf8.count <= 79)
        #expect(long.phys.utf8.count <= 63)
        #expect(VirtualTouchscreenDescription.isVirtualTouchscreen(name: long.name))
        #expect(VirtualTouchscreenDescription.isVirtualTouchscreen(name: description.name))
        #expect(!VirtualTouchscreenDescription.isVirtualTouchscreen(name: "ILITEK Multi-Touch"))
    }

    @Test func aTouchLandsMovesAndLiftsInProtocolB() {
        var screen = VirtualTouchscreen(description)
        #expect(
            names(screen.events(for: [touch(1, .began, 100, 50.5)])) == [
                "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 800", "ABS_MT_POSITION_Y 404",
                "ABS_X 800", "ABS_Y 404", "BTN_TOUCH 1", "SYN",
            ])
        #expect(screen.touches == [1])
        #expect(
            names(screen.events(for: [touch(1, .moved, 100.0625, 60)])) == [
                "ABS_MT_POSITION_X 801", "ABS_MT_POSITION_Y 480", "ABS_X 801", "ABS_Y 480", "SYN",
            ])
        #expect(names(screen.events(for: [touch(1, .ended, 100, 60)])) == ["ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN"])
        #expect(screen.touches.isEmpty)
        // The next touch gets the next tracking id, in the free slot.
        #expect(names(screen.events(for: [touch(2, .began, 0, 0)])).prefix(2) == ["ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 1"])
    }

    /// libinput turns `MT_TOOL_PALM` on a touch that is down into a touch cancel; the lift, in the
    /// next frame, then ends nothing.
    @Test func aCancelledTouchIsAPalmThenLiftsInTheNextFrame() {
        var screen = VirtualTouchscreen(description)
        _ = screen.events(for: [touch(1, .began, 10, 10)])
        #expect(
            names(screen.events(for: [touch(1, .cancelled, 10, 10)])) == [
                "ABS_MT_TOOL_TYPE 2", "SYN", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN",
            ])
        #expect(screen.touches.isEmpty)
        #expect(screen.events(for: [touch(1, .moved, 20, 20), touch(1, .ended, 20, 20)]).isEmpty, "it is gone")
        // The next touch in the slot is a finger before its tracking id: libinput reads the tool
        // type when a touch begins, and would take it for a palm still.
        #expect(names(screen.events(for: [touch(2, .began, 10, 10)])).prefix(2) == ["ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 1"])
    }

    @Test func twoTouchesShareAFrameInTheirOwnSlots() {
        var screen = VirtualTouchscreen(description)
        #expect(
            names(screen.events(for: [touch(1, .began, 1, 2), touch(2, .began, 3, 4)])) == [
                "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 8", "ABS_MT_POSITION_Y 16",
                "ABS_MT_SLOT 1", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 1", "ABS_MT_POSITION_X 24", "ABS_MT_POSITION_Y 32",
                "ABS_X 8", "ABS_Y 16", "BTN_TOUCH 1", "SYN",
            ])
        // The first lifts: ABS_X/Y follow the touch now in the lowest slot; BTN_TOUCH stays down.
        #expect(
            names(screen.events(for: [touch(1, .ended, 1, 2)])) == [
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_X 24", "ABS_Y 32", "SYN",
            ])
    }

    /// A touch held back until its recognizer failed may land and lift in one event: two frames.
    @Test func aTouchThatLandsAndLiftsInOneCallGetsTwoFrames() {
        var screen = VirtualTouchscreen(description)
        #expect(
            names(screen.events(for: [touch(1, .began, 1, 1), touch(1, .ended, 1, 1)])) == [
                "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 8", "ABS_MT_POSITION_Y 8",
                "ABS_X 8", "ABS_Y 8", "BTN_TOUCH 1", "SYN", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN",
            ])
    }

    @Test func sizeAndPressureGoWhereTheSourceHasThemAndPositionsStayOnTheAxes() {
        var screen = VirtualTouchscreen(description)
        var sized = touch(1, .began, -5, 2000)
        sized.majorRadius = 2
        sized.force = 1
        sized.maximumPossibleForce = 2
        #expect(
            names(screen.events(for: [sized])) == [
                "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 0", "ABS_MT_POSITION_X 0", "ABS_MT_POSITION_Y 6399",
                "ABS_MT_TOUCH_MAJOR 32", "ABS_MT_PRESSURE 127", "ABS_X 0", "ABS_Y 6399", "BTN_TOUCH 1", "SYN",
            ])
    }

    /// A move writes only what changed (the kernel would drop a value written again); a touch that
    /// begins in a slot another had writes everything, whatever that one last had.
    @Test func aMoveWritesOnlyWhatChangedAndANewTouchEverything() {
        var screen = VirtualTouchscreen(description)
        var sized = touch(1, .began, 10, 20)
        sized.majorRadius = 2
        sized.force = 1
        sized.maximumPossibleForce = 2
        _ = screen.events(for: [sized])
        var moved = sized
        moved.phase = .moved
        moved.location = Point(x: 11, y: 20)
        #expect(names(screen.events(for: [moved])) == ["ABS_MT_POSITION_X 88", "ABS_X 88", "SYN"])
        moved.force = 2
        #expect(names(screen.events(for: [moved])) == ["ABS_MT_PRESSURE 255", "SYN"])
        moved.phase = .ended
        _ = screen.events(for: [moved])
        var again = sized
        again.touch = 2
        again.location = Point(x: 11, y: 20)
        #expect(
            names(screen.events(for: [again])) == [
                "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 1", "ABS_MT_POSITION_X 88", "ABS_MT_POSITION_Y 160",
                "ABS_MT_TOUCH_MAJOR 32", "ABS_MT_PRESSURE 127", "BTN_TOUCH 1", "SYN",
            ])
    }

    @Test func touchesBeyondTheSlotsAndUnknownTouchesAreLeftOut() {
        var screen = VirtualTouchscreen(description)
        let eleven = (1...11).map { touch(TouchID($0), .began, Double($0), 1) }
        _ = screen.events(for: eleven)
        #expect(screen.touches == Array(1...10))
        #expect(screen.events(for: [touch(11, .moved, 5, 5), touch(42, .ended, 1, 1)]).isEmpty)
        #expect(screen.events(for: []).isEmpty)
    }

    @Test func cancellingEverythingCancelsEachTouchItCarries() {
        var screen = VirtualTouchscreen(description)
        _ = screen.events(for: [touch(1, .began, 1, 1), touch(2, .began, 2, 2)])
        #expect(
            names(screen.cancelAll(timestamp: 3)) == [
                "ABS_MT_SLOT 0", "ABS_MT_TOOL_TYPE 2", "ABS_MT_SLOT 1", "ABS_MT_TOOL_TYPE 2", "SYN",
                "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "SYN",
            ])
        #expect(screen.touches.isEmpty)
    }
}
