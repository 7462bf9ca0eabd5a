import Testing
import TouchCore
import TouchEvdev

@Suite(.timeLimit(.minutes(10))) struct EventCodeTests {
    @Test func namesAndNumbersAgreeWithTheNamedConstants() throws {
        let named: [(String, UInt16, UInt16)] = [
            ("SYN_REPORT", EventType.syn, SynCode.report), ("SYN_MT_REPORT", EventType.syn, SynCode.mtReport),
            ("SYN_DROPPED", EventType.syn, SynCode.dropped), ("BTN_LEFT", EventType.key, KeyCode.btnLeft),
            ("BTN_TOUCH", EventType.key, KeyCode.btnTouch), ("BTN_TOOL_FINGER", EventType.key, KeyCode.btnToolFinger),
            ("BTN_TOOL_PEN", EventType.key, KeyCode.btnToolPen), ("BTN_STYLUS", EventType.key, KeyCode.btnStylus),
            ("BTN_TOOL_QUINTTAP", EventType.key, KeyCode.btnToolQuintTap),
            ("BTN_TOOL_DOUBLETAP", EventType.key, KeyCode.btnToolDoubleTap),
            ("ABS_X", EventType.abs, AbsCode.x), ("ABS_PRESSURE", EventType.abs, AbsCode.pressure),
            ("ABS_MT_SLOT", EventType.abs, AbsCode.mtSlot), ("ABS_MT_TOUCH_MAJOR", EventType.abs, AbsCode.mtTouchMajor),
            ("ABS_MT_WIDTH_MAJOR", EventType.abs, AbsCode.mtWidthMajor),
            ("ABS_MT_POSITION_X", EventType.abs, AbsCode.mtPositionX),
            ("ABS_MT_TOOL_TYPE", EventType.abs, AbsCode.mtToolType),
            ("ABS_MT_TRACKING_ID", EventType.abs, AbsCode.mtTrackingID),
            ("ABS_MT_PRESSURE", EventType.abs, AbsCode.mtPressure), ("ABS_MT_TOOL_Y", EventType.abs, AbsCode.mtToolY),
            ("MSC_SCAN", EventType.msc, MscCode.scan), ("MSC_TIMESTAMP", EventType.msc, MscCode.timestamp),
        ]
        for (name, type, code) in named {
            let found = try #require(EventCodes.code(named: name), "\(name)")
            #expect(found.type == type && found.code == code, "\(name)")
            #expect(EventCodes.codeName(type: type, code: code) == name)
        }
        #expect(EventCodes.type(named: "EV_ABS") == EventType.abs)
        #expect(EventCodes.typeName(EventType.key) == "EV_KEY")
        #expect(EventCodes.property(named: "INPUT_PROP_SEMI_MT") == InputProperty.semiMT)
        #expect(EventCodes.propertyName(InputProperty.direct) == "INPUT_PROP_DIRECT")
        #expect(EventCodes.toolTypeName(MTToolType.palm) == "MT_TOOL_PALM")
    }

    @Test func sharedValuesAcceptEveryNameAndPrintTheSpecificOne() {
        #expect(EventCodes.code(named: "BTN_DIGI")?.code == KeyCode.btnToolPen)
        #expect(EventCodes.codeName(type: EventType.key, code: KeyCode.btnToolPen) == "BTN_TOOL_PEN")
        #expect(EventCodes.codeName(type: EventType.key, code: 0x110) == "BTN_LEFT")
        #expect(EventCodes.codeName(type: EventType.key, code: 0x71) == "KEY_MUTE")
        #expect(EventCodes.code(named: "KEY_BRIGHTNESS_MAX") != nil, "a key whose name ends in _MAX")
        #expect(EventCodes.code(named: "ABS_MAX") == nil, "limits are not codes")
        #expect(EventCodes.code(named: "ABS_X", type: EventType.key) == nil)
        #expect(EventCodes.describe(type: 3, code: 0x2f) == "EV_ABS / ABS_MT_SLOT")
        #expect(EventCodes.describe(type: 0x1e, code: 2) == "0x1e / 0x0002")
    }
}

@Suite(.timeLimit(.minutes(10))) struct CapabilityTests {
    @Test func aSlottedTouchscreen() {
        let classification = DeviceClassification(description: TestDevices.slotted(slots: 10, toolType: true, pressure: true))
        let capabilities = classification.capabilities
        #expect(classification.kind == .touchscreen)
        #expect(capabilities.multitouch == .slotted(slotCount: 10))
        #expect(capabilities.positionXCode == AbsCode.mtPositionX)
        #expect(capabilities.pressureCode == AbsCode.mtPressure)
        #expect(capabilities.hasToolType && capabilities.isDirect && capabilities.hasPressure)
        #expect(!capabilities.hasTouchMajor && !capabilities.isSemiMT)
    }

    @Test func udevPropertiesWin() {
        let description = TestDevices.slotted()
        #expect(DeviceClassification(description: description, udevProperties: ["ID_INPUT_TOUCHPAD": "1"]).kind == .touchpad)
        #expect(DeviceClassification(description: description, udevProperties: ["ID_INPUT_TABLET": "1"]).kind == .tablet)
        #expect(DeviceClassification(description: description, udevProperties: ["ID_INPUT_TOUCHPAD": "0"]).kind == .touchscreen)
    }

    @Test func heuristicsWithoutUdev() {
        var pad = TestDevices.slotted()
        pad.properties = [InputProperty.pointer, InputProperty.buttonpad]
        #expect(DeviceClassification(description: pad).kind == .touchpad)

        var semi = TestDevices.slotted(slots: 2)
        semi.properties = [InputProperty.semiMT]
        let semiClassification = DeviceClassification(description: semi)
        #expect(semiClassification.kind == .touchpad && semiClassification.capabilities.isSemiMT)

        var pen = TestDevices.singleTouch(key: KeyCode.btnTouch)
        pen.codes[EventType.key, default: []].insert(KeyCode.btnStylus)
        #expect(DeviceClassification(description: pen).kind == .tablet)

        #expect(DeviceClassification(description: TestDevices.singleTouch(key: KeyCode.btnLeft)).kind == .touchscreen)
        #expect(DeviceClassification(description: DeviceDescription(name: "keyboard")).kind == .other)
    }

    @Test func aKeyboardWhoseAxesOverlapTheMultitouchCodesIsNoTouchscreen() {
        // Gaming keyboards and mice declare every axis from ABS_MISC (0x28) on, ABS_RESERVED
        // (0x2e) and the ABS_MT_* codes included: libevdev gives them no slots, udev no
        // multi-touch coordinates, libinput calls them fake multi-touch.
        var absInfo: [UInt16: AbsInfo] = [0x20: AbsInfo(minimum: 0, maximum: 572)]
        for code in UInt16(0x28)...0x3f { absInfo[code] = AbsInfo(minimum: 0, maximum: 255) }
        let keyboard = DeviceDescription(
            name: "Razer Razer BlackWidow 2013",
            codes: [EventType.syn: [SynCode.report], EventType.key: [1, 30, 57, 113], EventType.abs: Set(absInfo.keys)],
            absInfo: absInfo)
        let classification = DeviceClassification(description: keyboard)
        #expect(classification.kind == .keys)
        #expect(classification.capabilities.multitouch == .singleTouch)
        #expect(classification.capabilities.positionXCode == nil && classification.capabilities.slotCount == 0)

        // With ABS_X and ABS_Y as well (a keyboard cover's pointer), its positions are those.
        var cover = keyboard
        cover.absInfo[AbsCode.x] = AbsInfo(minimum: 0, maximum: 1022)
        cover.absInfo[AbsCode.y] = AbsInfo(minimum: 0, maximum: 487)
        cover.codes[EventType.abs, default: []].formUnion([AbsCode.x, AbsCode.y])
        let coverCapabilities = DeviceCapabilities(description: cover)
        #expect(coverCapabilities.multitouch == .singleTouch && coverCapabilities.positionXCode == AbsCode.x)
        #expect(!coverCapabilities.hasToolType && coverCapabilities.touchMajorCode == nil && coverCapabilities.pressureCode == nil)
    }

    @Test func tooManySlotsAreClampedAndReported() {
        let assembler = FrameAssembler(description: TestDevices.slotted(slots: 100_000))
        #expect(assembler.capabilities.slotCount == Limits.maximumSlots)
        #expect(assembler.anomalies.map(\.kind) == [.tooManySlots(declared: 100_000, limit: Limits.maximumSlots)])
    }
}
