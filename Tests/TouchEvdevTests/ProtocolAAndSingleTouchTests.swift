import Testing
import TouchCore
import TouchEvdev

/// Protocol A (anonymous contacts matched frame to frame) and single-touch devices.
@Suite(.timeLimit(.minutes(10))) struct ProtocolATests {
    @Test func contactsKeepTheirIdentityWhenReportedInAnotherOrder() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        #expect(assembler.capabilities.multitouch == .anonymous)
        var script = EventScript()
        script.report(100, 100)
        script.report(800, 800)
        script.key(KeyCode.btnTouch, 1)
        script.syn()
        let began = try #require(assembler.feed(script.take()).last)
        #expect(began.phases == [.began, .began])
        #expect(began.contacts.map(\.slot) == [nil, nil])

        // The driver lists the fingers the other way round; each still matches the nearest one.
        script.report(790, 810)
        script.report(110, 95)
        script.syn()
        let moved = try #require(assembler.feed(script.take()).last)
        #expect(moved.contacts.map(\.id) == [1, 2])
        #expect(moved.contacts.map(\.x) == [110, 790])
        #expect(moved.phases == [.moved, .moved])
    }

    @Test func aMissingContactEndsAndANewOneBegins() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        var script = EventScript()
        script.report(100, 100)
        script.report(800, 800)
        script.syn()
        _ = assembler.feed(script.take())

        script.report(805, 800)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.ended, .moved])

        script.report(805, 800)
        script.report(300, 300)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.map(\.id) == [2, 3])
        #expect(frame.phases == [.stationary, .began])
    }

    @Test func anEmptyReportEndsEverything() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        var script = EventScript()
        script.report(100, 100)
        script.report(800, 800)
        script.syn()
        _ = assembler.feed(script.take())
        script.mtReport()
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.ended, .ended])
    }

    @Test func btnTouchReleaseWithoutReportsEndsEverything() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        var script = EventScript()
        script.report(100, 100)
        script.key(KeyCode.btnTouch, 1)
        script.syn()
        _ = assembler.feed(script.take())
        // A frame with key events only changes nothing.
        script.key(KeyCode.btnToolFinger, 1)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
        script.key(KeyCode.btnTouch, 0)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.ended])
    }

    @Test func theLastReportMayBeOmitted() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        var script = EventScript()
        script.report(100, 100)
        script.position(500, 500)  // no SYN_MT_REPORT before SYN_REPORT
        script.syn()
        #expect(assembler.feed(script.take()).last?.contacts.count == 2)
    }

    @Test func extremeCoordinatesDoNotTrap() {
        var assembler = FrameAssembler(description: TestDevices.anonymous())
        var script = EventScript()
        script.report(.min, .min)
        script.report(.max, .max)
        script.syn()
        script.report(.max, .min)
        script.report(.min, .max)
        script.syn()
        #expect(assembler.feed(script.take()).count == 2)
    }

    @Test func trackingIDsDecideIdentityWhenEveryContactHasOne() throws {
        var assembler = FrameAssembler(description: TestDevices.anonymous(trackingID: true))
        var script = EventScript()
        script.report(100, 100, trackingID: 0)
        script.report(200, 200, trackingID: 1)
        script.syn()
        _ = assembler.feed(script.take())
        // The fingers cross: by distance they would swap, by tracking id they do not.
        script.report(190, 190, trackingID: 0)
        script.report(110, 110, trackingID: 1)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.map(\.id) == [1, 2])
        #expect(frame.contacts.map(\.x) == [190, 110])
    }

    @Test func aNegativeTrackingIDIsNoContact() throws {
        // A driver (or a stream stripped of its slots) that says a finger lifted with tracking id
        // -1 and no report of it: the finger ends, and no contact begins where it was.
        var assembler = FrameAssembler(description: TestDevices.anonymous(trackingID: true))
        var script = EventScript()
        script.abs(AbsCode.mtTrackingID, 5)
        script.position(300, 400)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.began])
        script.abs(AbsCode.mtTrackingID, -1)
        script.syn()
        let lifted = try #require(assembler.feed(script.take()).last)
        #expect(lifted.phases == [.ended])
        #expect(lifted.contacts.map(\.id) == [1])
        // The next finger begins as a touch of its own, the only one.
        script.abs(AbsCode.mtTrackingID, 6)
        script.position(500, 600)
        script.syn()
        let next = try #require(assembler.feed(script.take()).last)
        #expect(next.phases == [.began])
        #expect(next.contacts.map(\.x) == [500])

        // Listed with other contacts, it ends only its own.
        script.report(510, 600, trackingID: 6)
        script.report(900, 100, trackingID: 7)
        script.syn()
        _ = assembler.feed(script.take())
        script.abs(AbsCode.mtTrackingID, -1)
        script.mtReport()
        script.report(910, 110, trackingID: 7)
        script.syn()
        let one = try #require(assembler.feed(script.take()).last)
        #expect(one.contacts.map(\.id) == [2, 3])
        #expect(one.phases == [.ended, .moved])
    }
}

@Suite(.timeLimit(.minutes(10))) struct SingleTouchTests {
    @Test(arguments: [KeyCode.btnTouch, KeyCode.btnLeft])
    func aKeyMakesOneContact(key: UInt16) throws {
        var assembler = FrameAssembler(description: TestDevices.singleTouch(key: key))
        #expect(assembler.capabilities.multitouch == .singleTouch)
        #expect(assembler.capabilities.touchSignal == (key == KeyCode.btnTouch ? .touchKey : .leftButton))
        var script = EventScript()
        script.key(key, 1)
        script.abs(AbsCode.x, 1942)
        script.abs(AbsCode.y, 2104)
        script.syn()
        #expect(assembler.feed(script.take()).last?.contacts == [DeviceContact(id: 1, phase: .began, x: 1942, y: 2104)])
        script.abs(AbsCode.x, 1950)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.moved])
        script.key(key, 0)
        script.syn()
        #expect(assembler.feed(script.take()).last?.contacts == [DeviceContact(id: 1, phase: .ended, x: 1950, y: 2104)])
        // Position changes while nothing touches are not contacts.
        script.abs(AbsCode.x, 10)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
    }

    @Test func pressureAloneSaysWhenItTouches() throws {
        var assembler = FrameAssembler(description: TestDevices.singleTouch(key: nil))
        #expect(assembler.capabilities.touchSignal == .pressure)
        var script = EventScript()
        script.abs(AbsCode.x, 5)
        script.abs(AbsCode.pressure, 30)
        script.syn()
        let began = try #require(assembler.feed(script.take()).last?.contacts.first)
        #expect(began.phase == .began)
        #expect(began.pressure == 30)
        script.abs(AbsCode.pressure, 0)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.ended])
    }
}

@Suite(.timeLimit(.minutes(10))) struct PalmTests {
    @Test func mtToolPalmCancelsAndStaysSilentUntilLift() throws {
        var assembler = FrameAssembler(description: TestDevices.slotted(toolType: true))
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        #expect(assembler.feed(script.take()).last?.contacts.first?.toolType == MTToolType.finger)

        script.abs(AbsCode.mtToolType, MTToolType.palm)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.cancelled])

        // Back to a finger, moving, then lifting: nothing more about this contact, never "ended".
        script.abs(AbsCode.mtToolType, MTToolType.finger)
        script.position(150, 150)
        script.syn()
        script.up(slot: 0)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
    }

    @Test func aPalmFromTheStartNeverBegins() {
        var assembler = FrameAssembler(description: TestDevices.slotted(toolType: true))
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.abs(AbsCode.mtToolType, MTToolType.palm)
        script.syn()
        script.up(slot: 0)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
    }

    @Test func pressureAboveTheThresholdCancels() throws {
        var assembler = FrameAssembler(
            description: TestDevices.slotted(pressure: true), palmThresholds: PalmThresholds(pressure: 100))
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.abs(AbsCode.mtPressure, 100)
        script.down(slot: 1, id: 2, x: 500, y: 500)
        script.abs(AbsCode.mtPressure, 20)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.began, .began], "equal to the limit is not above it")

        script.slot(0)
        script.abs(AbsCode.mtPressure, 101)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.phases == [.cancelled, .stationary])
        #expect(frame.liveContacts.map(\.id) == [2])
    }

    @Test func touchMajorAboveTheThresholdCancelsInProtocolAToo() throws {
        var description = TestDevices.anonymous()
        description.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255)
        var assembler = FrameAssembler(description: description, palmThresholds: PalmThresholds(touchMajor: 50))
        var script = EventScript()
        script.abs(AbsCode.mtTouchMajor, 10)
        script.report(100, 100)
        script.syn()
        _ = assembler.feed(script.take())
        script.abs(AbsCode.mtTouchMajor, 80)
        script.report(100, 100)
        script.syn()
        #expect(assembler.feed(script.take()).last?.phases == [.cancelled])
        script.mtReport()
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty, "a cancelled contact does not end")
    }
}
