import Testing
import TouchCore
import TouchEvdev
@testable import TouchFuzzing

/// The fuzzing targets' checks find what they look for: each is shown a violation it must report.
@Suite(.timeLimit(.minutes(10))) struct CheckTests {
    func frame(_ time: Int64, _ contacts: [(UInt64, TouchPhase)]) -> ContactFrame {
        ContactFrame(time: EventTime(microseconds: time), contacts: contacts.map { DeviceContact(id: $0.0, phase: $0.1, x: 0, y: 0) })
    }

    @Test func aContactThatLivesAsItMustPasses() throws {
        var check = ContactLifeCheck()
        try check.check(frame(1, [(1, .began)]))
        try check.check(frame(2, [(1, .moved), (2, .began)]))
        try check.check(frame(3, [(1, .ended), (2, .stationary)]))
        try check.checkFinish(frame(4, [(2, .cancelled)]))
        #expect(check.isIdle)
    }

    @Test(arguments: [
        [[(1, .began)], [(1, .ended)], [(1, .began)]],  // an id used again
        [[(1, .began)], [(2, .began)]],  // a live contact missing from the next frame
        [[(1, .moved)]],  // first seen moving
        [[(1, .began)], [(1, .began)]],  // begun twice
        [[(2, .began), (1, .began)]],  // out of id order
        [[(1, .began), (1, .began)]],  // twice in a frame
    ] as [[[(UInt64, TouchPhase)]]])
    func aContactThatDoesNotIsReported(_ frames: [[(UInt64, TouchPhase)]]) {
        var check = ContactLifeCheck()
        #expect(throws: FuzzViolation.self) {
            for (time, contacts) in frames.enumerated() { try check.check(frame(Int64(time), contacts)) }
        }
    }

    @Test func aContactLeftDownAtTheEndIsReported() throws {
        var check = ContactLifeCheck()
        try check.check(frame(1, [(1, .began), (2, .began)]))
        #expect(throws: FuzzViolation.self) { try check.checkFinish(frame(2, [(1, .cancelled), (2, .ended)])) }
        var unfinished = ContactLifeCheck()
        try unfinished.check(frame(1, [(1, .began)]))
        #expect(throws: FuzzViolation.self) { try unfinished.checkFinish(nil) }
    }

    @Test func aRecordingWrittenAsEvemuReadsBackTheSame() throws {
        let description = DeviceDescription(
            name: "pad\u{0301} x", bus: 3, vendor: 0x4f3, product: 0x2a1c, version: 0x100, properties: [1, 2],
            codes: [0: [0, 2, 3], 1: [0x14a, 0x2ff], 3: [0, 1, 0x2f, 0x35]],
            absInfo: [0: AbsInfo(minimum: -5, maximum: 100, fuzz: 1, flat: 2, resolution: 3, value: 7), 0x2f: AbsInfo(minimum: 0, maximum: 9, value: 4)])
        let events = [InputEvent(time: EventTime(microseconds: 1_000_001), type: 3, code: 0x35, value: -1), InputEvent(time: EventTime(microseconds: 7), type: 0, code: 0, value: 0)]
        let recording = Recording(description: description, events: events, format: .libinputRecord)
        let again = try Recording.parse(text: EvemuText.write(recording), name: "w", format: .evemu)
        #expect(again.description == description)
        #expect(again.events == events)
    }

    /// A YAML string may hold line breaks, which no evemu line can: the name is written on one
    /// line, and the rest still reads back the same.
    @Test func aNameEvemuCannotHoldIsWrittenOnOneLine() throws {
        let events = [InputEvent(time: EventTime(microseconds: 5), type: 0, code: 0, value: 0)]
        let recording = Recording(description: DeviceDescription(name: "two\nlines\r"), events: events, format: .libinputRecord)
        #expect(!EvemuText.canWrite(name: recording.description.name))
        let again = try Recording.parse(text: EvemuText.write(recording), name: "w", format: .evemu)
        #expect(again.description.name == "two lines")
        #expect(again.events == events)
    }

    @Test func theReplayerRefusesAnUnreadableFile() {
        guard case .failure(let violation) = FuzzCorpus.replay("/nonexistent/input", through: .frames) else {
            Issue.record("an unreadable input passed")
            return
        }
        #expect(violation.message.contains("cannot read"))
    }
}
