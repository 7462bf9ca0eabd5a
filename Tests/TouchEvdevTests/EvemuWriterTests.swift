import Testing
import TouchCore
@testable import TouchEvdev

/// What touchd records reads back as it was: the same description and the same events, through
/// touchd's own evemu parser; and the lines are evemu's own format.
@Suite(.timeLimit(.minutes(10))) struct EvemuWriterTests {
    /// A description as an evemu file gives it back: type 0's codes are the event types that have
    /// codes (evemu's `B: 00`), and every axis has its value.
    static func touchscreen() -> DeviceDescription {
        var device = TestDevices.slotted(slots: 10, pressure: true, touchMajor: true, initialSlot: 3)
        device.name = "vm touchscreen ® \u{1}"
        (device.bus, device.vendor, device.product, device.version) = (0x3, 0x1234, 0x1, 0x110)
        device.codes[EventType.syn] = [EventType.syn, EventType.key, EventType.abs]
        device.codes[EventType.key] = [KeyCode.btnTouch, KeyCode.btnToolFinger, 0x2ff]
        device.absInfo[AbsCode.x]?.resolution = 16
        device.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: -5, maximum: 4095, fuzz: 4, flat: 1, resolution: 16, value: 12)
        return device
    }

    @Test func aRecordingReadsBackWithTheSameDescriptionAndEvents() throws {
        var script = EventScript()
        script.down(slot: 0, id: 7, x: 100, y: 200)
        script.abs(AbsCode.mtPressure, 60)
        script.key(KeyCode.btnTouch, 1)
        script.syn()
        script.position(-1, 4095)
        script.syn()
        script.up(slot: 0)
        script.key(KeyCode.btnTouch, 0)
        script.syn()
        let recording = Recording(description: Self.touchscreen(), events: script.events)
        let text = EvemuWriter.text(recording)
        let parsed = try Recording.parse(text: text, name: "round-trip.evemu")
        #expect(parsed.description == recording.description)
        #expect(parsed.events == recording.events)
        #expect(parsed.format == .evemu && parsed.descriptionSource == .embedded)
    }

    @Test func linesAreInEvemusFormat() {
        let text = EvemuWriter.description(Self.touchscreen())
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "# EVEMU 1.3")
        #expect(lines.contains("N: vm touchscreen ® \u{1}"))
        #expect(lines.contains("I: 0003 1234 0001 0110"))
        #expect(lines.contains("P: 02 00 00 00 00 00 00 00"))
        #expect(lines.contains("B: 00 0b 00 00 00 00 00 00 00"))
        #expect(lines.contains("A: 35 -5 4095 4 1 16"))
        // BTN_TOOL_FINGER (0x145) is bit 5 of byte 40 and BTN_TOUCH (0x14a) bit 2 of byte 41, on
        // the sixth line of EV_KEY's mask; KEY_MAX's bit (0x2ff) makes the mask 96 bytes: twelve lines.
        #expect(lines.filter { $0.hasPrefix("B: 01") }.count == 12)
        #expect(lines.filter { $0.hasPrefix("B: 01") }[5] == "B: 01 20 04 00 00 00 00 00 00")
        let event = InputEvent(time: EventTime(microseconds: 12_000_345), type: EventType.abs, code: AbsCode.mtTrackingID, value: -1)
        #expect(EvemuWriter.eventLine(event) == "E: 12.000345 0003 0039 -001")
        #expect(EvemuWriter.eventLine(InputEvent(time: EventTime(microseconds: 5), type: 0, code: 0, value: 7)) == "E: 0.000005 0000 0000 0007")
        #expect(EvemuWriter.eventLine(InputEvent(time: EventTime(microseconds: -5), type: 1, code: 0x14a, value: 12345)) == "E: 0.000000 0001 014a 12345")
    }

    @Test func aNameThatSpansLinesIsWrittenOnOne() throws {
        var device = Self.touchscreen()
        device.name = "two\nlines\r"
        let parsed = try Recording.parseDescription(text: EvemuWriter.description(device), name: "name.desc")
        #expect(parsed.name == "two lines")
    }

    /// A read with lost events is kept so that replaying it decodes as the live read did: the
    /// resync frame brings the finger to where libevdev's delta said.
    @Test func aResyncIsRecordedSoThatItReplaysAsItWasRead() throws {
        let device = TestDevices.slotted()
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        let before = script.events
        let dropped = InputEvent(time: script.now, type: EventType.syn, code: SynCode.dropped, value: 0)
        var delta = EventScript()
        delta.slot(0)
        delta.position(600, 700)
        delta.syn()
        let read = DeviceRead(segments: [.events(before), .resync(dropped: dropped, delta: delta.events)])

        var live = FrameAssembler(description: device)
        var liveFrames: [ContactFrame] = []
        live.decode(read, into: &liveFrames)
        var replayed = FrameAssembler(description: device)
        let replayedFrames = read.recordedEvents.compactMap { replayed.feed($0) }
        #expect(liveFrames.last?.contacts.map { [$0.x, $0.y] } == [[600, 700]])
        #expect(replayedFrames.last?.contacts.map { [$0.x, $0.y] } == [[600, 700]])
        #expect(replayedFrames.last?.contacts.first?.phase != .cancelled)
    }
}
