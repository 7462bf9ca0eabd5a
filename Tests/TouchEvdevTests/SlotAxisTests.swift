import Testing
import TouchCore
import TouchEvdev

/// A recording's `ABS_MT_SLOT` means what the live device's does: the same slots, the same
/// classification, the same warnings.
@Suite(.timeLimit(.minutes(10))) struct SlotAxisTests {
    /// A gaming keyboard (or a keyboard cover) that declares every axis from `ABS_MISC` on,
    /// `ABS_RESERVED` and `ABS_MT_SLOT` included, from -127 to 127.
    static let fakeMultitouchKeyboard: DeviceDescription = {
        var absInfo: [UInt16: AbsInfo] = [0x20: AbsInfo(minimum: 0, maximum: 572)]
        for code in UInt16(0x28)...0x3f { absInfo[code] = AbsInfo(minimum: -127, maximum: 127) }
        return DeviceDescription(
            name: "Razer Razer BlackWidow", bus: 3, vendor: 0x1532, product: 0x011b, version: 0x111,
            codes: [EventType.syn: [SynCode.report], EventType.key: [1, 30, 57], EventType.abs: Set(absInfo.keys)],
            absInfo: absInfo)
    }()

    /// A key (`A`) pressed and released.
    static let keyPress = [
        InputEvent(time: EventTime(microseconds: 1_000_000), type: EventType.key, code: 30, value: 1),
        InputEvent(time: EventTime(microseconds: 1_000_000), type: EventType.syn, code: SynCode.report, value: 0),
        InputEvent(time: EventTime(microseconds: 1_100_000), type: EventType.key, code: 30, value: 0),
        InputEvent(time: EventTime(microseconds: 1_100_000), type: EventType.syn, code: SynCode.report, value: 0),
    ]

    /// `device` and `events` as an evemu text.
    static func evemu(_ device: DeviceDescription, _ events: [InputEvent]) -> String {
        EvemuWriter.description(device) + events.map { EvemuWriter.eventLine($0) + "\n" }.joined()
    }

    /// `device` and `events` as a libinput-record text, one frame per `SYN_REPORT`.
    static func libinputRecord(_ device: DeviceDescription, _ events: [InputEvent]) -> String {
        var lines = [
            "version: 1", "ndevices: 1", "devices:", "- node: /dev/input/event3", "  evdev:",
            "    name: \"\(device.name)\"", "    id: [\(device.bus), \(device.vendor), \(device.product), \(device.version)]",
            "    codes:",
        ]
        for (type, codes) in device.codes.sorted(by: { $0.key < $1.key }) {
            lines.append("      \(type): [\(codes.sorted().map(String.init).joined(separator: ", "))]")
        }
        lines.append("    absinfo:")
        for (code, info) in device.absInfo.sorted(by: { $0.key < $1.key }) {
            lines.append("      \(code): [\(info.minimum), \(info.maximum), \(info.fuzz), \(info.flat), \(info.resolution)]")
        }
        lines.append("    properties: [\(device.properties.sorted().map(String.init).joined(separator: ", "))]")
        lines.append("  events:")
        var frameOpen = false
        for event in events {
            if !frameOpen { lines.append("  - evdev:") }
            let micros = event.time.microseconds
            lines.append("    - [\(micros / 1_000_000), \(micros % 1_000_000), \(event.type), \(event.code), \(event.value)]")
            frameOpen = !(event.type == EventType.syn && event.code == SynCode.report)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The recording of `device` in both formats that declare axes, parsed.
    static func recordings(of device: DeviceDescription, _ events: [InputEvent]) throws -> [Recording] {
        [
            try Recording.parse(text: evemu(device, events), name: "device.evemu"),
            try Recording.parse(text: libinputRecord(device, events), name: "device.yml"),
        ]
    }

    @Test func aFakeMultitouchRecordingReadsAsTheLiveDeviceDoes() throws {
        let live = DeviceClassification(description: Self.fakeMultitouchKeyboard)
        #expect(live.kind == .keys && live.capabilities.slotCount == 0)
        for recording in try Self.recordings(of: Self.fakeMultitouchKeyboard, Self.keyPress) {
            #expect(recording.description.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: -127, maximum: 127))
            let recorded = DeviceClassification(description: recording.description)
            #expect(recorded.kind == live.kind, "\(recording.format)")
            #expect(recorded.capabilities == live.capabilities, "\(recording.format)")
            #expect(recording.events == Self.keyPress, "\(recording.format)")
        }
    }

    /// A touchscreen whose `ABS_MT_SLOT` is declared from 1 to 4: the kernel numbers slots from 0
    /// and libevdev gives it `maximum + 1` slots, 0 to 4.
    static let slotsFromOne: DeviceDescription = {
        var device = TestDevices.slotted(slots: 5)
        device.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 1, maximum: 4)
        return device
    }()

    /// Two fingers, on slots 0 and 4, down and up.
    static let twoFingers: [InputEvent] = {
        let script: [(Int64, UInt16, UInt16, Int32)] = [
            (0, EventType.abs, AbsCode.mtSlot, 0), (0, EventType.abs, AbsCode.mtTrackingID, 10),
            (0, EventType.abs, AbsCode.mtPositionX, 100), (0, EventType.abs, AbsCode.mtPositionY, 200),
            (0, EventType.abs, AbsCode.mtSlot, 4), (0, EventType.abs, AbsCode.mtTrackingID, 11),
            (0, EventType.abs, AbsCode.mtPositionX, 900), (0, EventType.abs, AbsCode.mtPositionY, 800),
            (0, EventType.key, KeyCode.btnTouch, 1), (0, EventType.syn, SynCode.report, 0),
            (20_000, EventType.abs, AbsCode.mtSlot, 0), (20_000, EventType.abs, AbsCode.mtTrackingID, -1),
            (20_000, EventType.abs, AbsCode.mtSlot, 4), (20_000, EventType.abs, AbsCode.mtTrackingID, -1),
            (20_000, EventType.key, KeyCode.btnTouch, 0), (20_000, EventType.syn, SynCode.report, 0),
        ]
        return script.map { InputEvent(time: EventTime(microseconds: $0.0), type: $0.1, code: $0.2, value: $0.3) }
    }()

    /// The contacts' slots in each frame, and the anomalies met, of `events` on `device`.
    static func assemble(_ device: DeviceDescription, _ events: [InputEvent]) -> (slots: [[Int32?]], anomalies: [DeviceAnomaly.Kind]) {
        var assembler = FrameAssembler(description: device)
        var anomalies = assembler.takeAnomalies().map(\.kind)
        var slots: [[Int32?]] = []
        for event in events {
            if let frame = assembler.feed(event) { slots.append(frame.contacts.map(\.slot)) }
            anomalies += assembler.takeAnomalies().map(\.kind)
        }
        return (slots, anomalies)
    }

    @Test func aSlotAxisFromANonzeroMinimumHasTheKernelsSlots() throws {
        let capabilities = DeviceCapabilities(description: Self.slotsFromOne)
        #expect(capabilities.multitouch == .slotted(slotCount: 5) && capabilities.slotCount == 5)
        let live = Self.assemble(Self.slotsFromOne, Self.twoFingers)
        #expect(live.slots == [[0, 4], [0, 4]] && live.anomalies.isEmpty)
        for recording in try Self.recordings(of: Self.slotsFromOne, Self.twoFingers) {
            #expect(recording.description.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: 1, maximum: 4))
            let replayed = Self.assemble(recording.description, recording.events)
            #expect(replayed.slots == live.slots && replayed.anomalies == live.anomalies, "\(recording.format)")
        }
    }

    /// A finger on slot 0, and one on slot 299 of a device that declares 300 slots: past the
    /// first 256, the ones read.
    static let pastTheKeptSlots: [InputEvent] = {
        let script: [(Int64, UInt16, UInt16, Int32)] = [
            (0, EventType.abs, AbsCode.mtSlot, 0), (0, EventType.abs, AbsCode.mtTrackingID, 10),
            (0, EventType.abs, AbsCode.mtPositionX, 100), (0, EventType.abs, AbsCode.mtPositionY, 200),
            (0, EventType.abs, AbsCode.mtSlot, 299), (0, EventType.abs, AbsCode.mtTrackingID, 11),
            (0, EventType.abs, AbsCode.mtPositionX, 900), (0, EventType.key, KeyCode.btnTouch, 1),
            (0, EventType.syn, SynCode.report, 0),
            (20_000, EventType.abs, AbsCode.mtSlot, 0), (20_000, EventType.abs, AbsCode.mtTrackingID, -1),
            (20_000, EventType.key, KeyCode.btnTouch, 0), (20_000, EventType.syn, SynCode.report, 0),
        ]
        return script.map { InputEvent(time: EventTime(microseconds: $0.0), type: $0.1, code: $0.2, value: $0.3) }
    }()

    /// `events` as Android `getevent -t` prints them (hex types, codes and values).
    static func getevent(_ events: [InputEvent]) -> String {
        func hex(_ value: some BinaryInteger, _ width: Int) -> String {
            let digits = String(UInt32(truncatingIfNeeded: value), radix: 16)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        return events.map { event in
            let micros = event.time.microseconds
            let fraction = String(micros % 1_000_000)
            let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
            return "[ \(micros / 1_000_000).\(padded)] /dev/input/event2: \(hex(event.type, 4)) \(hex(event.code, 4)) \(hex(event.value, 8))\n"
        }.joined()
    }

    @Test func aRecordingOfMoreSlotsThanAreReadPlaysAsTheLiveDeviceDoes() throws {
        let device = TestDevices.slotted(slots: 300)
        let live = Self.assemble(device, Self.pastTheKeptSlots)
        #expect(live.slots == [[0], [0]])
        #expect(live.anomalies == [.tooManySlots(declared: 300, limit: Limits.maximumSlots), .slotOutOfRange(slot: 299, slotCount: Limits.maximumSlots)])
        var recordings = try Self.recordings(of: device, Self.pastTheKeptSlots)
        recordings.append(try Recording.parse(text: Self.getevent(Self.pastTheKeptSlots), name: "device.getevent"))
        for recording in recordings {
            #expect(recording.description.absInfo[AbsCode.mtSlot]?.maximum == 299, "\(recording.format)")
            let replayed = Self.assemble(recording.description, recording.events)
            #expect(replayed.slots == live.slots && replayed.anomalies == live.anomalies, "\(recording.format)")
        }
    }

    @Test func aSlotAxisThatDeclaresNoSlotIsReadAsOneWithAWarning() throws {
        var device = TestDevices.slotted(slots: 1)
        device.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: -1, maximum: -1)
        let script: [(Int64, UInt16, UInt16, Int32)] = [
            (0, EventType.abs, AbsCode.mtTrackingID, 10), (0, EventType.abs, AbsCode.mtPositionX, 100),
            (0, EventType.abs, AbsCode.mtPositionY, 200), (0, EventType.key, KeyCode.btnTouch, 1),
            (0, EventType.syn, SynCode.report, 0), (20_000, EventType.abs, AbsCode.mtTrackingID, -1),
            (20_000, EventType.key, KeyCode.btnTouch, 0), (20_000, EventType.syn, SynCode.report, 0),
        ]
        let fingers = script.map { InputEvent(time: EventTime(microseconds: $0.0), type: $0.1, code: $0.2, value: $0.3) }
        let live = Self.assemble(device, fingers)
        #expect(DeviceCapabilities(description: device).slotCount == 1)
        #expect(live.slots == [[0], [0]] && live.anomalies.count == 1)
        let warning = live.anomalies.first.map { DeviceAnomaly(time: EventTime(microseconds: 0), kind: $0).description }
        #expect(warning == "0.000000 [device] ABS_MT_SLOT declares no slots (its maximum is -1); slot 0 is read", "\(live.anomalies)")
        for recording in try Self.recordings(of: device, fingers) {
            let replayed = Self.assemble(recording.description, recording.events)
            #expect(replayed.slots == live.slots && replayed.anomalies == live.anomalies, "\(recording.format)")
        }
    }
}
