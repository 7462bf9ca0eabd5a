import Testing
import TouchCore
import TouchEvdev

/// Protocol B: the per-slot state machine, on synthetic streams.
@Suite(.timeLimit(.minutes(10))) struct SlotAssemblyTests {
    @Test func aFingerBeginsMovesStaysAndEnds() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 7, x: 100, y: 200)
        script.key(KeyCode.btnTouch, 1)
        script.syn()
        let began = try #require(assembler.feed(script.take()).last)
        #expect(began.contacts == [DeviceContact(id: 1, phase: .began, x: 100, y: 200, slot: 0)])

        script.position(110, 205)
        script.syn()
        let moved = try #require(assembler.feed(script.take()).last)
        #expect(moved.contacts.map(\.phase) == [.moved])
        #expect(moved.contacts.first?.x == 110)

        // A frame that changes nothing about the contact produces no frame.
        script.abs(AbsCode.mtPositionX, 110)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)

        script.up(slot: 0)
        script.key(KeyCode.btnTouch, 0)
        script.syn()
        let ended = try #require(assembler.feed(script.take()).last)
        #expect(ended.contacts == [DeviceContact(id: 1, phase: .ended, x: 110, y: 205, slot: 0)])
        #expect(assembler.anomalies.isEmpty)
    }

    @Test func aStillFingerIsStationaryWhileAnotherMoves() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 500, y: 500)
        script.syn()
        let both = try #require(assembler.feed(script.take()).last)
        #expect(both.phases == [.began, .began], "two fingers landing in one frame begin together")
        #expect(both.contacts.map(\.slot) == [0, 1])

        script.slot(1)
        script.position(520, 530)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.map(\.id) == [1, 2])
        #expect(frame.phases == [.stationary, .moved], "every live contact is in the frame")
    }

    @Test func aNewTrackingIDOnALiveSlotEndsTheOldContactAndBeginsANewOne() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        _ = assembler.feed(script.take())

        script.trackingID(2)
        script.position(300, 300)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts == [
            DeviceContact(id: 1, phase: .ended, x: 100, y: 100, slot: 0),
            DeviceContact(id: 2, phase: .began, x: 300, y: 300, slot: 0),
        ])
        #expect(assembler.anomalies.map(\.kind) == [.trackingIDReplaced(slot: 0, old: 1, new: 2)])
        #expect(assembler.anomalies.first?.blame == .device)
    }

    @Test func minusOneThenANewIDInOneFrameIsAnEndAndABeginWithoutAnomaly() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        _ = assembler.feed(script.take())

        script.trackingID(-1)
        script.trackingID(2)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.phases == [.ended, .began])
        #expect(frame.contacts.map(\.id) == [1, 2])
        // The new contact keeps the slot's remembered position: the kernel sends only what changed.
        #expect(frame.contacts.last?.x == 100)
        #expect(assembler.anomalies.isEmpty)
    }

    @Test func theFirstEventsGoToTheSlotTheDescriptionSelected() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted(initialSlot: 3))
        var script = EventScript()
        script.trackingID(5)
        script.position(10, 20)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.first?.slot == 3)
    }

    @Test func aSlotOutOfRangeIsIgnoredAndReported() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted(slots: 2))
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 7, id: 2, x: 500, y: 500)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.count == 1)
        #expect(assembler.anomalies.map(\.kind) == [.slotOutOfRange(slot: 7, slotCount: 2)])

        // A valid ABS_MT_SLOT restores normal operation.
        script.down(slot: 1, id: 3, x: 600, y: 600)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.stationary, .began])
    }

    @Test func aReleaseOfAnIdleSlotAndATouchShorterThanAFrameAreReported() {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.up(slot: 2)
        script.down(slot: 1, id: 9, x: 1, y: 1)
        script.trackingID(-1)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
        #expect(assembler.takeAnomalies().map(\.kind) == [
            .releaseWithoutContact(slot: 2), .contactShorterThanAFrame(slot: 1),
        ])
        #expect(assembler.anomalies.isEmpty, "takeAnomalies clears the list")
    }

    @Test func identifiersAreNeverReused() {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        var seen: [UInt64] = []
        for round in 0..<5 {
            script.down(slot: 0, id: Int32(round), x: 10, y: 10)
            script.syn()
            script.up(slot: 0)
            script.syn()
            for frame in assembler.feed(script.take()) {
                seen += frame.contacts.filter { $0.phase == .began }.map(\.id)
            }
        }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test func finishCancelsEveryLiveContactAndSilencesFingersStillDown() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.down(slot: 1, id: 2, x: 200, y: 200)
        script.syn()
        _ = assembler.feed(script.take())
        // An incomplete frame is in progress when the device goes away.
        script.slot(0)
        script.position(150, 150)
        _ = assembler.feed(script.take())

        let finished = assembler.finish(at: script.now)
        let cancelled = try #require(finished)
        #expect(cancelled.phases == [.cancelled, .cancelled])
        #expect(cancelled.contacts.first?.x == 100, "the incomplete frame's events were dropped")
        #expect(assembler.finish(at: script.now) == nil, "nothing is live any more")

        // The fingers stay silent until they lift; a new touch after that begins normally.
        script.slot(0)
        script.position(160, 160)
        script.syn()
        script.up(slot: 0)
        script.up(slot: 1)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
        script.down(slot: 0, id: 3, x: 1, y: 1)
        script.syn()
        let next = try #require(assembler.feed(script.take()).last)
        #expect(next.contacts.map(\.id) == [3])
        #expect(next.phases == [.began])
    }

    @Test func pressureAndTouchMajorComeFromTheMultitouchAxes() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted(pressure: true, touchMajor: true))
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 1, y: 2)
        script.abs(AbsCode.mtPressure, 40)
        script.abs(AbsCode.mtTouchMajor, 12)
        script.syn()
        let contact = try #require(assembler.feed(script.take()).last?.contacts.first)
        #expect(contact.pressure == 40)
        #expect(contact.touchMajor == 12)
        #expect(contact.toolType == nil, "the device has no tool-type axis")

        script.abs(AbsCode.mtPressure, 41)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.moved], "a pressure change is a change")
    }
}
