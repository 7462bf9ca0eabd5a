import Testing
import TouchEvdev

@Suite(.timeLimit(.minutes(10))) struct KeyDecoderTests {
    @Test func keysOfOneReportComeTogetherAndRepeatsAreNotPresses() {
        var script = EventScript()
        var decoder = KeyDecoder()
        script.key(28, 1)
        script.key(30, 1)
        script.syn()
        script.key(28, 2)  // auto-repeat
        script.syn()
        script.key(28, 0)
        script.syn()
        let frames = script.take().compactMap { decoder.feed($0) }
        #expect(frames.count == 2, "the repeat's report changes nothing")
        #expect(frames[0].transitions == [KeyTransition(code: 28, name: "KEY_ENTER", isDown: true), KeyTransition(code: 30, name: "KEY_A", isDown: true)])
        #expect(frames[1].transitions == [KeyTransition(code: 28, name: "KEY_ENTER", isDown: false)])
        #expect(frames[1].time == EventTime(microseconds: 1_020_000), "the kernel's time of the report")
        #expect(decoder.keysDown == [30])
    }

    @Test func unmatchedUpsAndDoubleDownsAreDropped() {
        var script = EventScript()
        var decoder = KeyDecoder()
        script.key(28, 0)
        script.syn()
        script.key(28, 1)
        script.key(28, 1)
        script.syn()
        let frames = script.take().compactMap { decoder.feed($0) }
        #expect(frames.map(\.transitions.count) == [1])
    }

    @Test func lostEventsAreMadeGoodFromTheKernelsState() {
        var script = EventScript()
        var decoder = KeyDecoder()
        script.key(28, 1)
        script.syn()
        script.dropped()
        script.key(30, 1)  // lost in the overflow
        script.syn()
        let frames = script.take().compactMap { decoder.feed($0) }
        #expect(frames.count == 1, "nothing is reported between SYN_DROPPED and the resync")
        // The kernel now says: Enter is up, B is down.
        let delta = [
            InputEvent(time: script.now, type: EventType.key, code: 28, value: 0),
            InputEvent(time: script.now, type: EventType.key, code: 48, value: 1),
        ]
        let resync = decoder.resync(with: delta, at: script.now)
        #expect(resync?.transitions == [KeyTransition(code: 28, name: "KEY_ENTER", isDown: false), KeyTransition(code: 48, name: "KEY_B", isDown: true)])
        #expect(decoder.keysDown == [48])
    }

    @Test func finishingEndsEveryHeldKey() {
        var decoder = KeyDecoder()
        var script = EventScript()
        script.key(30, 1)
        script.key(48, 1)
        script.syn()
        _ = script.take().compactMap { decoder.feed($0) }
        let end = decoder.finish(at: EventTime(microseconds: 9))
        #expect(end?.transitions.map(\.isDown) == [false, false])
        #expect(end?.transitions.map(\.name) == ["KEY_A", "KEY_B"])
        #expect(decoder.finish(at: EventTime(microseconds: 10)) == nil)
    }

    @Test func namesComeFromTheEventCodeTable() {
        #expect(KeyDecoder.name(of: 164) == "KEY_PLAYPAUSE")
        #expect(KeyDecoder.name(of: 0x2ff) == "KEY_0x2ff", "an unnamed code keeps its number")
    }
}

@Suite(.timeLimit(.minutes(10))) struct ShakeDetectorTests {
    func t(_ ms: Int64) -> EventTime { EventTime(microseconds: 1_000_000 + ms * 1000) }

    @Test func aLongShakeBeginsAndEndsAtItsDeadline() {
        var detector = ShakeDetector(settings: ShakeSettings(thresholdG: 1, minimumDuration: 0.3, settle: 0.25))
        var out: [ShakeTransition] = []
        #expect(detector.sample(x: 0, y: 0, z: 1, at: t(0)).isEmpty, "gravity alone is calm")
        #expect(detector.deadline == nil)
        for i in 0..<20 { out += detector.sample(x: i % 2 == 0 ? 2 : -2, y: 0, z: 1, at: t(Int64(20 + i * 25))) }
        #expect(out == [.began(t(20))])
        let last = Int64(20 + 19 * 25)
        #expect(detector.deadline == t(last + 250), "the last strong sample plus the settle time")
        #expect(detector.sample(x: 0, y: 0, z: 1, at: t(last + 200)).isEmpty, "not calm long enough")
        #expect(detector.advance(to: t(last + 249)) == nil)
        #expect(detector.advance(to: t(last + 900)) == .ended(t(last + 250)), "a quiet device ends at the deadline, not when asked")
        #expect(detector.state == .calm && detector.deadline == nil)
    }

    @Test func aSampleAfterTheDeadlineEndsTheShakeAndMayBeginTheNext() {
        var detector = ShakeDetector(settings: ShakeSettings(thresholdG: 1, minimumDuration: 0.3, settle: 0.25))
        _ = detector.sample(x: 2, y: 0, z: 1, at: t(0))
        _ = detector.sample(x: -2, y: 0, z: 1, at: t(200))
        _ = detector.sample(x: 2, y: 0, z: 1, at: t(400))
        #expect(detector.sample(x: 2, y: 0, z: 1, at: t(1000)) == [.ended(t(650)), .began(t(1000))])
        #expect(detector.sample(x: 0, y: 0, z: 1, at: t(1100)).isEmpty)
        #expect(detector.sample(x: 0, y: 0, z: 1, at: t(1300)) == [.cancelled(t(1250))], "a gap longer than the settle time is two shakes")
    }

    @Test func aShortShakeIsCancelled() {
        var detector = ShakeDetector(settings: ShakeSettings(thresholdG: 1, minimumDuration: 0.3, settle: 0.25))
        #expect(detector.sample(x: 2, y: 0, z: 1, at: t(0)) == [.began(t(0))])
        #expect(detector.sample(x: -2, y: 0, z: 1, at: t(100)).isEmpty)
        #expect(detector.sample(x: 0, y: 0, z: 1, at: t(400)) == [.cancelled(t(350))])
    }

    @Test func theThresholdIsMeasuredFromGravity() {
        var detector = ShakeDetector(settings: ShakeSettings(thresholdG: 1.5, minimumDuration: 0.3, settle: 0.25))
        #expect(detector.sample(x: 0, y: 0, z: 2.4, at: t(0)).isEmpty, "1.4 g beyond gravity is under 1.5")
        #expect(detector.sample(x: 0, y: 0, z: 0, at: t(5)).isEmpty, "free fall is 1 g from gravity: under 1.5")
        #expect(detector.sample(x: 0, y: 0, z: -2.6, at: t(10)) == [.began(t(10))], "the magnitude counts, not the direction")
        #expect(detector.finish(at: t(20)) == .cancelled(t(20)), "the device went away mid-shake")
    }

    func accelerometer(resolution: Int32) -> DeviceDescription {
        let info = AbsInfo(minimum: -1024, maximum: 1024, resolution: resolution)
        return DeviceDescription(
            name: "test accelerometer", properties: [InputProperty.accelerometer],
            codes: [EventType.syn: [SynCode.report], EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z]],
            absInfo: [AbsCode.x: info, AbsCode.y: info, AbsCode.z: info])
    }

    @Test func theDecoderReadsAxesInGFromTheirResolution() throws {
        var decoder = try #require(AccelerometerDecoder(description: accelerometer(resolution: 256), settings: ShakeSettings(thresholdG: 1)))
        var script = EventScript()
        script.abs(AbsCode.z, 256)
        script.syn()
        script.abs(AbsCode.x, 512)
        script.syn()
        let transitions = script.take().compactMap { decoder.feed($0) }.flatMap(\.transitions)
        #expect(decoder.acceleration.x == 2 && decoder.acceleration.z == 1)
        #expect(transitions == [.began(EventTime(microseconds: 1_010_000))])
        #expect(decoder.advance(to: EventTime(microseconds: 2_000_000)) == .cancelled(EventTime(microseconds: 1_260_000)))
        // Without a resolution the range is taken as ±2 g: 1024 is 2 g.
        var plain = try #require(AccelerometerDecoder(description: accelerometer(resolution: 0), settings: ShakeSettings()))
        _ = plain.feed(InputEvent(time: EventTime(microseconds: 0), type: EventType.abs, code: AbsCode.x, value: 1024))
        #expect(plain.acceleration.x == 2)
    }

    @Test func classification() {
        func kind(_ description: DeviceDescription, _ udev: [String: String] = [:]) -> DeviceKind {
            DeviceClassification(description: description, udevProperties: udev).kind
        }
        #expect(kind(accelerometer(resolution: 256)) == .accelerometer)
        let keyboard = DeviceDescription(name: "kbd", codes: [EventType.key: [1, 28, 30]])
        #expect(kind(keyboard) == .keys)
        let remote = DeviceDescription(name: "remote", codes: [EventType.key: [164, 163]])
        #expect(kind(remote) == .keys, "media keys are from KEY_OK on")
        let mouse = DeviceDescription(name: "mouse", codes: [EventType.key: [KeyCode.btnLeft, KeyCode.btnRight]])
        #expect(kind(mouse) == .other, "buttons alone are no keys")
        #expect(kind(mouse, ["ID_INPUT_KEY": "1"]) == .keys, "udev wins")
    }
}
