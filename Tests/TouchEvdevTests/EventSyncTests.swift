import Testing
import TouchCore
import TouchEvdev

/// libevdev's rules for lost events, one state machine for every decoder: each transition of the
/// table in EventSync's documentation, and the key and accelerometer decoders following it.
@Suite(.timeLimit(.minutes(10))) struct EventSyncTests {
    static let t = EventTime(microseconds: 5)
    static let report = InputEvent(time: t, type: EventType.syn, code: SynCode.report, value: 0)
    static let dropped = InputEvent(time: t, type: EventType.syn, code: SynCode.dropped, value: 0)
    static let axis = InputEvent(time: t, type: EventType.abs, code: AbsCode.x, value: 1)

    @Test func everyTransitionOfTheTable() {
        var sync = EventSync()
        #expect(sync.step(Self.axis) == .collect)
        #expect(sync.step(Self.report) == .settle(isResync: false), "inSync SYN_REPORT → inSync")
        #expect(sync.step(Self.dropped) == .drop(.eventsDropped), "inSync SYN_DROPPED → discarding")
        #expect(sync.state == .discarding)
        #expect(sync.step(Self.axis) == .ignore, "discarding other → discarding")
        #expect(sync.step(Self.dropped) == .ignore, "a second drop while discarding changes nothing")
        #expect(sync.step(Self.report) == .ignore, "discarding SYN_REPORT → resyncing")
        #expect(sync.state == .resyncing)
        #expect(sync.step(Self.axis) == .collect)
        #expect(sync.step(Self.report) == .settle(isResync: true), "resyncing SYN_REPORT → inSync, as a resync")
        #expect(sync.state == .inSync)
        _ = sync.step(Self.dropped)
        _ = sync.step(Self.report)
        #expect(sync.step(Self.dropped) == .drop(.eventsDropped), "resyncing SYN_DROPPED → discarding")
        sync.resynchronised()
        #expect(sync.state == .inSync, "any resynchronised → inSync")
    }

    @Test func anEndlessFrameIsDroppedOnceAndTheStreamRecovers() {
        var sync = EventSync()
        for _ in 0..<EventSync.maximumFrameEvents { #expect(sync.step(Self.axis) == .collect) }
        #expect(sync.step(Self.axis) == .drop(.frameTooLong(limit: EventSync.maximumFrameEvents)))
        #expect(sync.step(Self.axis) == .ignore)
        #expect(sync.step(Self.report) == .ignore)
        #expect(sync.step(Self.axis) == .collect)
        #expect(sync.step(Self.report) == .settle(isResync: true))
    }

    @Test func keysComeBackAfterADropInARawStreamAndWhatWentUpIsAResync() throws {
        var decoder = KeyDecoder()
        var script = EventScript()
        script.key(28, 1)
        script.syn()
        script.dropped()
        script.key(30, 1)  // lost with the frame
        script.syn()
        script.key(28, 0)  // the frame after the drop: Enter went up while events were lost
        script.key(48, 1)
        script.syn()
        script.key(48, 0)
        script.syn()
        let frames = script.take().compactMap { decoder.feed($0) }
        #expect(frames.map(\.isResync) == [false, true, false])
        #expect(frames[1].transitions.map(\.code) == [28, 48])
        #expect(frames[2].transitions == [KeyTransition(code: 48, name: "KEY_B", isDown: false)], "keys are read again")
        #expect(decoder.takeAnomalies().map(\.kind) == [.eventsDropped])
        #expect(decoder.keysDown.isEmpty)
    }

    @Test func keysSurviveTwoResyncsInOneRead() throws {
        var decoder = KeyDecoder()
        let down = InputEvent(time: Self.t, type: EventType.key, code: 30, value: 1)
        let up = InputEvent(time: Self.t, type: EventType.key, code: 30, value: 0)
        let read = DeviceRead(segments: [
            .events([down, Self.report]), .resync(dropped: Self.dropped, delta: []), .resync(dropped: Self.dropped, delta: [up, Self.report]),
        ])
        var frames: [KeyFrame] = []
        decoder.decode(read, into: &frames)
        #expect(frames.map(\.isResync) == [false, true])
        #expect(frames.last?.transitions.map(\.isDown) == [false])
        #expect(decoder.keysDown.isEmpty, "no key is stuck")
        #expect(decoder.finish(at: Self.t) == nil)
    }

    @Test func anAccelerometerTakesItsResyncAsASample() throws {
        let info = AbsInfo(minimum: -1024, maximum: 1024, resolution: 256)
        let description = DeviceDescription(
            name: "accel", properties: [InputProperty.accelerometer], codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z]],
            absInfo: [AbsCode.x: info, AbsCode.y: info, AbsCode.z: info])
        var decoder = try #require(AccelerometerDecoder(description: description, settings: ShakeSettings(thresholdG: 1)))
        var script = EventScript()
        script.abs(AbsCode.z, 256)
        script.syn()
        script.dropped()
        script.abs(AbsCode.x, 1000)  // lost
        script.syn()
        #expect(script.take().compactMap { decoder.feed($0) }.isEmpty)
        #expect(decoder.acceleration.x == 0, "the dropped frame is not applied")
        let delta = [InputEvent(time: script.now, type: EventType.abs, code: AbsCode.x, value: 768)]
        let resynced = decoder.resync(with: delta, at: script.now)
        let frame = try #require(resynced)
        #expect(frame.transitions == [.began(script.now)], "3 g is a shake")
        #expect(decoder.takeAnomalies().map(\.kind) == [.eventsDropped])
        #expect(decoder.finish(at: script.now)?.transitions == [.cancelled(script.now)])
    }

    @Test func shakeSettingsOutsideTheirDomainsAreSafe() {
        for value in [Double.nan, .infinity, -.infinity, -1, 0, 1e300] {
            var detector = ShakeDetector(settings: ShakeSettings(thresholdG: value, minimumDuration: TimeSpan(seconds: value), settle: TimeSpan(seconds: value)))
            let late = EventTime(microseconds: Int64.max - 1)
            _ = detector.sample(x: 100, y: 0, z: 0, at: late)
            #expect(detector.deadline.map { $0 >= late } ?? true)
            _ = detector.advance(to: EventTime(microseconds: Int64.max))
            _ = detector.sample(x: 100, y: 0, z: 0, at: EventTime(microseconds: Int64.min))
            _ = detector.finish(at: EventTime(microseconds: 0))
        }
        #expect(EventTime(seconds: Int64.max, microseconds: 999_999).microseconds == Int64.max, "a timeval past the clock clamps")
        #expect(EventTime(seconds: Int64.min, microseconds: 0).microseconds == Int64.min)
    }
}

/// A recorded stream with two `SYN_DROPPED` in a row, as an evemu file holds it.
@Suite(.timeLimit(.minutes(10))) struct RecordedDropTests {
    @Test func twoDropsInARecordingLeaveNoTouchStuck() throws {
        let text = """
            N: dropped twice
            P: 02 00 00 00 00 00 00 00
            A: 2f 0 1 0 0
            A: 35 0 1000 0 0
            A: 36 0 1000 0 0
            A: 39 0 65535 0 0
            E: 1.000000 0003 0039 0005
            E: 1.000000 0003 0035 0100
            E: 1.000000 0003 0036 0100
            E: 1.000000 0000 0000 0000
            E: 1.010000 0003 0035 0150
            E: 1.010000 0000 0003 0000
            E: 1.020000 0000 0003 0000
            E: 1.020000 0003 0035 0900
            E: 1.020000 0000 0000 0000
            E: 1.030000 0003 002f 0001
            E: 1.030000 0003 0039 0006
            E: 1.030000 0003 0035 0500
            E: 1.030000 0000 0000 0000
            E: 1.040000 0003 0039 -001
            E: 1.040000 0000 0000 0000

            """
        let recording = try Recording.parse(text: text, name: "dropped-twice.evemu")
        var assembler = FrameAssembler(description: recording.description)
        let frames = assembler.feed(recording.events)
        // The first finger (slot 0) is never seen to lift: still down after the resync frame,
        // which brings in the second finger; the second lifts; finishing cancels the first.
        #expect(frames.map(\.phases) == [[.began], [.stationary, .began], [.stationary, .ended]])
        #expect(assembler.takeAnomalies().map(\.kind) == [.eventsDropped])
        #expect(assembler.finish(at: EventTime(microseconds: 1_050_000))?.phases == [.cancelled])
        #expect(assembler.finish(at: EventTime(microseconds: 1_060_000)) == nil, "nothing is stuck")
    }
}
