import Testing
import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

private typealias EventType = TouchEvdev.EventType

private func subtypes(_ events: [QueuedEvent]) -> [RemoteControlSubtype] {
    events.compactMap { event -> RemoteControlSubtype? in
        guard case .remoteControl(let input) = event else { return nil }
        return input.subtype
    }
}

private func motionPhases(_ events: [QueuedEvent]) -> [MotionPhase] {
    events.compactMap { event -> MotionPhase? in
        guard case .motion(let input) = event else { return nil }
        return input.phase
    }
}

@Suite(.timeLimit(.minutes(10))) struct KeyAndMotionPipelineTests {
    func ev(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: EventTime(microseconds: 1_000_000 + ms * 1000), type: type, code: code, value: value)
    }
    func syn(_ ms: Int64) -> InputEvent { ev(ms, EventType.syn, SynCode.report, 0) }

    @Test func mediaKeysBecomeRemoteControlAndTheRestPressesInKeyOrder() {
        var pipeline = KeyDevicePipeline(deviceID: "kbd", spec: DeviceSpec(match: DeviceMatchSpec(kind: .keys), window: ""))
        #expect(pipeline.window == nil, "no window: the key window")
        let events = [ev(0, EventType.key, 30, 1), ev(0, EventType.key, 164, 1), ev(0, EventType.key, 28, 1), syn(0)]
        let out = events.flatMap { pipeline.feed($0) }
        #expect(out == [
            .presses(PressInput(device: "kbd", window: nil, timestamp: 1, changes: [KeyChange(keyCode: 30, keyName: "KEY_A", phase: .began)])),
            .remoteControl(RemoteControlInput(device: "kbd", window: nil, timestamp: 1, subtype: .togglePlayPause, keyName: "KEY_PLAYPAUSE")),
            .presses(PressInput(device: "kbd", window: nil, timestamp: 1, changes: [KeyChange(keyCode: 28, keyName: "KEY_ENTER", phase: .began)])),
        ])
        // Play/pause going up sends nothing; seeking sends its end on the way up.
        let up = [ev(10, EventType.key, 164, 0), ev(10, EventType.key, 208, 1), syn(10), ev(20, EventType.key, 208, 0), syn(20)].flatMap { pipeline.feed($0) }
        #expect(subtypes(up) == [.beginSeekingForward, .endSeekingForward])
        // Unplugged with keys held: the presses are cancelled.
        let end = pipeline.finish(at: EventTime(microseconds: 2_000_000))
        #expect(end == [.presses(PressInput(device: "kbd", window: nil, timestamp: 2, changes: [
            KeyChange(keyCode: 28, keyName: "KEY_ENTER", phase: .cancelled), KeyChange(keyCode: 30, keyName: "KEY_A", phase: .cancelled),
        ]))])
    }

    @Test func everyMediaKeyNameIsInTheEventCodeTable() {
        for name in KeyDevicePipeline.remoteControlKeys.keys {
            #expect(EventCodes.code(named: name, type: EventType.key) != nil, "\(name)")
        }
    }

    @Test func anAccelerometersShakeBecomesMotionEvents() throws {
        let info = AbsInfo(minimum: -1024, maximum: 1024, resolution: 256)
        let description = DeviceDescription(
            name: "accel", properties: [InputProperty.accelerometer],
            codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z]], absInfo: [AbsCode.x: info, AbsCode.y: info, AbsCode.z: info])
        var spec = DeviceSpec(match: DeviceMatchSpec(kind: .accelerometer), window: "main")
        spec.shake = ShakeSpec(thresholdG: 1, minimumDuration: 0.3, settle: 0.25)
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 10, height: 10)))
        var decoder = try DevicePipeline(kind: .accelerometer, deviceID: "accel", description: description, udevProperties: [:], spec: spec, tree: tree)
        var events: [InputEvent] = []
        for i in 0..<20 { events += [ev(Int64(i * 25), EventType.abs, AbsCode.x, i % 2 == 0 ? 512 : -512), ev(Int64(i * 25), EventType.abs, AbsCode.z, 256), syn(Int64(i * 25))] }
        // At rest the kernel sends one sample (the values then stop changing) and the device goes quiet.
        events += [ev(500, EventType.abs, AbsCode.x, 0), syn(500)]
        var out = events.flatMap { decoder.feed($0) }
        #expect(motionPhases(out) == [.began])
        #expect(out.first == .motion(MotionInput(device: "accel", window: "main", timestamp: 1, phase: .began)))
        #expect(decoder.deadline == EventTime(microseconds: 1_000_000 + (19 * 25 + 250) * 1000))
        out = decoder.advance(to: EventTime(microseconds: 5_000_000))
        #expect(out == [.motion(MotionInput(device: "accel", window: "main", timestamp: 1.725, phase: .ended))], "ended at its deadline")
        #expect(decoder.deadline == nil)
        #expect(throws: DevicePipelineError.self) {
            try DevicePipeline(kind: .keys, deviceID: "k", description: description, udevProperties: [:], spec: DeviceSpec(window: "nowhere"), tree: tree)
        }
    }

    @Test func deviceFactsAndMatchingKnowKeysAndAccelerometers() {
        let keyboard = DeviceDescription(name: "vm keyboard", codes: [EventType.key: [1, 28, 30]])
        let udev = ["ID_INPUT_KEY": "1"]
        let facts = DeviceFacts(description: keyboard, origin: .recording(udevProperties: udev))
        #expect(facts.kind == .keys)
        let specs = [
            DeviceSpec(match: DeviceMatchSpec(), window: "main"),
            DeviceSpec(match: DeviceMatchSpec(kind: .accelerometer), window: ""),
            DeviceSpec(match: DeviceMatchSpec(kind: .keys), window: ""),
        ]
        guard case .matched(let index, _) = DeviceMatcher.match(facts, in: specs) else {
            Issue.record("the keyboard was not matched")
            return
        }
        #expect(index == 2, "kind any takes only touch surfaces")
        #expect(DeviceMatcher.match(facts, in: specs).explanation == "device[2] → window (the key window)")
        let unmatched = DeviceMatcher.match(facts, in: Array(specs.prefix(2)))
        #expect(unmatched.explanation == "no entry matched: device[0]: not a touchscreen or touchpad; device[1]: kind is keys, not accelerometer")
        let accel = DeviceDescription(
            name: "accel", properties: [InputProperty.accelerometer],
            codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z]],
            absInfo: [AbsCode.x: AbsInfo(minimum: -1, maximum: 1), AbsCode.y: AbsInfo(minimum: -1, maximum: 1)])
        #expect(DeviceClassification(description: accel, udevProperties: [:]).kind == .accelerometer)
    }
}
