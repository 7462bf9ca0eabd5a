import Testing
import TouchCore
import TouchEvdev

/// The frame assembler across every synthetic test device that has what a test needs (protocol B,
/// protocol A, single-touch; with or without pressure, touch major, tool type; real axis ranges
/// and 32-bit extremes), as libinput's litest runs its tests across its devices.
@Suite(.timeLimit(.minutes(10))) struct DeviceMatrixTests {
    static let centre = (x: 0.5, y: 0.5)

    @Test(arguments: TestDevice.all)
    func oneFingerBeginsMovesAndEnds(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: (0.25, 0.25)])
        writer.frame([0: (0.75, 0.5)])
        writer.frame([:])
        let frames = assembler.feed(writer.take())
        #expect(frames.map(\.phases) == [[.began], [.moved], [.ended]])
        let ids = Set(frames.flatMap(\.contacts).map(\.id))
        #expect(ids.count == 1, "one finger keeps one id")
        let moved = try #require(frames[1].contacts.first)
        #expect(moved.x == TestDevice.value(0.75, of: device.x) && moved.y == TestDevice.value(0.5, of: device.y))
        #expect(assembler.takeAnomalies().isEmpty)
        #expect(assembler.finish(at: writer.script.now) == nil, "nothing is left down")
    }

    @Test(arguments: TestDevice.multiContact)
    func fingersLandingTogetherBeginInOneFrameAndLiftApart(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: (0.2, 0.2), 1: (0.8, 0.8)])
        writer.frame([0: (0.25, 0.2), 1: (0.8, 0.8)])
        writer.frame([1: (0.8, 0.8)])
        writer.frame([:])
        let frames = assembler.feed(writer.take())
        #expect(frames.map(\.phases) == [[.began, .began], [.moved, .stationary], [.ended, .stationary], [.ended]])
        #expect(frames[3].contacts.first?.id == frames[0].contacts.last?.id, "the second finger keeps its id")
    }

    @Test(arguments: TestDevice.all)
    func finishingCancelsWhatIsDownAndNothingAfter(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: Self.centre])
        _ = assembler.feed(writer.take())
        let finished = assembler.finish(at: writer.script.now)
        let end = try #require(finished)
        #expect(end.phases == [.cancelled])
        // The finger still down stays silent until it lifts; the next touch begins afresh.
        writer.frame([0: (0.6, 0.6)])
        writer.frame([:])
        writer.frame([0: Self.centre])
        let frames = assembler.feed(writer.take())
        #expect(frames.map(\.phases) == [[.began]])
        #expect(frames.last?.contacts.first.map { $0.id > end.contacts[0].id } == true)
    }

    /// Two `SYN_DROPPED` in a row in a raw stream: the frames around them are dropped, the frame
    /// after the next `SYN_REPORT` brings the state up to date, and nothing is left stuck.
    @Test(arguments: TestDevice.all)
    func twoDropsInARowLeaveNoTouchStuck(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: Self.centre])
        _ = assembler.feed(writer.take())
        writer.script.dropped()
        writer.script.dropped()
        writer.frame([0: (0.4, 0.4)])  // part of the broken frame: ignored
        writer.frame([:])  // the resync frame: the finger is gone
        let frames = assembler.feed(writer.take())
        #expect(frames.map(\.phases) == [[.cancelled]], "a lift the stream lost is a cancel")
        #expect(assembler.takeAnomalies().map(\.kind) == [.eventsDropped], "a drop while discarding adds nothing")
        writer.frame([0: (0.3, 0.3)])
        writer.frame([:])
        #expect(assembler.feed(writer.take()).map(\.phases) == [[.began], [.ended]], "the device is not stalled")
        #expect(assembler.finish(at: writer.script.now) == nil)
    }

    /// The same through libevdev: one read holding two `SYN_DROPPED`, each with its sync delta,
    /// decoded in order.
    @Test(arguments: TestDevice.slotted)
    func twoResyncsInOneReadLeaveNoTouchStuck(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: Self.centre])
        let before = writer.take()
        let now = writer.script.now
        let dropped = InputEvent(time: now, type: EventType.syn, code: SynCode.dropped, value: 0)
        let report = InputEvent(time: now, type: EventType.syn, code: SynCode.report, value: 0)
        // The first delta moves the finger; by the second, it has lifted.
        let move = [
            InputEvent(time: now, type: EventType.abs, code: AbsCode.mtSlot, value: 0),
            InputEvent(time: now, type: EventType.abs, code: AbsCode.mtPositionX, value: TestDevice.value(0.9, of: device.x)), report,
        ]
        let lift = [
            InputEvent(time: now, type: EventType.abs, code: AbsCode.mtSlot, value: 0),
            InputEvent(time: now, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1), report,
        ]
        let read = DeviceRead(segments: [.events(before), .resync(dropped: dropped, delta: move), .resync(dropped: dropped, delta: lift)])
        var frames: [ContactFrame] = []
        assembler.decode(read, into: &frames)
        #expect(frames.map(\.phases) == [[.began], [.moved], [.cancelled]])
        #expect(assembler.finish(at: now) == nil, "no touch is stuck")
        var next = TouchWriter(device)  // the driver's view: slot 0 is free again
        next.frame([0: Self.centre])
        #expect(assembler.feed(next.take()).map(\.phases) == [[.began]], "the device is not stalled")
    }

    @Test(arguments: TestDevice.withPressure)
    func aPalmByPressureIsCancelledAndStaysSilent(device: TestDevice) throws {
        let axis = try #require(device.pressure)
        guard Int64(axis.maximum) - Int64(axis.minimum) > 4 else { return }  // no room for a threshold between
        let threshold = TestDevice.value(0.5, of: axis)
        var assembler = FrameAssembler(description: device.description, palmThresholds: PalmThresholds(pressure: threshold))
        var writer = TouchWriter(device)
        writer.frame([0: Self.centre], pressure: 0.2)
        writer.frame([0: (0.6, 0.6)], pressure: 0.9)
        writer.frame([0: (0.7, 0.7)], pressure: 0.2)
        writer.frame([:])
        let frames = assembler.feed(writer.take())
        #expect(frames.map(\.phases) == [[.began], [.cancelled]])
    }

    /// Every contact of every device maps to finite points inside the window, with sizes and
    /// forces that are finite and not negative, whatever the axes.
    @Test(arguments: TestDevice.all)
    func contactsMapInsideTheWindow(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        let mapping = DeviceMapping(
            capabilities: assembler.capabilities, target: MappingTarget(windowSize: Size(width: 800, height: 480), pointsPerMillimetre: 4))
        var writer = TouchWriter(device)
        for fraction in [0, 0.001, 0.5, 0.999, 1] {
            writer.frame([0: (fraction, 1 - fraction)], pressure: fraction)
        }
        writer.frame([:])
        for contact in assembler.feed(writer.take()).flatMap(\.contacts) {
            let mapped = mapping.map(contact)
            #expect((0...800).contains(mapped.location.x) && (0...480).contains(mapped.location.y), "\(contact)")
            #expect(mapped.majorRadius.isFinite && mapped.majorRadius >= 0)
            #expect(mapped.majorRadiusTolerance.isFinite && mapped.majorRadiusTolerance >= 0)
            #expect(mapped.force.isFinite && mapped.force >= 0 && mapped.force <= mapped.maximumPossibleForce)
        }
    }
}

/// Palms by tool type and by size, across the devices that report them.
@Suite(.timeLimit(.minutes(10))) struct PalmMatrixTests {
    @Test(arguments: TestDevice.all.filter(\.toolType))
    func aPalmToolCancelsTheContact(device: TestDevice) throws {
        var assembler = FrameAssembler(description: device.description)
        var writer = TouchWriter(device)
        writer.frame([0: (0.5, 0.5)])
        writer.script.slot(0)
        writer.script.abs(AbsCode.mtToolType, MTToolType.palm)
        writer.frame([0: (0.5, 0.6)])
        writer.frame([:])
        #expect(assembler.feed(writer.take()).map(\.phases) == [[.began], [.cancelled]])
    }

    @Test(arguments: TestDevice.all.filter { $0.touchMajor != nil && $0.isMultitouch })
    func aContactTooLargeNeverBegins(device: TestDevice) throws {
        let axis = try #require(device.touchMajor)
        // The writer gives every contact a touch major of 10 % of its axis: a limit below it.
        let limit = TestDevice.value(0.05, of: axis)
        guard limit < TestDevice.value(0.1, of: axis) else { return }
        var assembler = FrameAssembler(description: device.description, palmThresholds: PalmThresholds(touchMajor: limit))
        var writer = TouchWriter(device)
        writer.frame([0: (0.5, 0.5)])
        writer.frame([:])
        #expect(assembler.feed(writer.take()).isEmpty)
    }
}
