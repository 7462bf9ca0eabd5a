import Foundation
import Testing
import TouchCore
import TouchDaemon
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

@Suite struct KeyAndMotionPipelineTests {
    func ev(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: EventTime(microseconds: 1_000_000 + ms * 1000), type: type, code: code, value: value)
    }
    func syn(_ ms: Int64) -> InputEvent { ev(ms, EventType.syn, SynCode.report, 0) }

    @Test func mediaKeysBecomeRemoteControlAndTheRestPressesInKeyOrder() {
        var pipeline = KeyInputPipeline(deviceID: "kbd", spec: DeviceSpec(match: DeviceMatchSpec(kind: .keys), window: ""))
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
        for name in KeyInputPipeline.remoteControlKeys.keys {
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
        var decoder = try DeviceInputDecoder(kind: .accelerometer, deviceID: "accel", description: description, udevProperties: [:], spec: spec, tree: tree)
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
            try DeviceInputDecoder(kind: .keys, deviceID: "k", description: description, udevProperties: [:], spec: DeviceSpec(window: "nowhere"), tree: tree)
        }
    }

    @Test func deviceFactsAndMatchingKnowKeysAndAccelerometers() {
        let keyboard = DeviceDescription(name: "vm keyboard", codes: [EventType.key: [1, 28, 30]])
        let facts = DeviceFacts(description: keyboard, udevProperties: ["ID_INPUT_KEY": "1"], devnode: nil)
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
        #expect(DeviceFacts(description: accel, udevProperties: [:], devnode: nil).kind == .accelerometer)
    }
}

@Suite struct FirstResponderSocketTests {
    func app() -> Application {
        Application(
            tree: kioskTree(),
            handlers: HandlerTable([Handler(responder: "home.ok", trigger: .pressesBegan, action: "ok-key", key: "KEY_ENTER")]),
            firstResponderTraits: [FirstResponderTraits(responder: "home.ok"), FirstResponderTraits(responder: "home.cancel", canResign: false)])
    }

    @Test func becomeResignAndTheListing() throws {
        let h = try DaemonHarness(app: app())
        let c = try h.connect(topics: ["first_responder", "presses", "actions"])
        c.send(#"{"id":1,"cmd":"become_first_responder","responder":"home.ok"}"#)
        try h.drain(c)
        #expect((c.reply(id: 1)?["result"] as? [String: Any])?["first_responder"] as? String == "home.ok")
        let change = try #require(c.of(type: "first_responder").first)
        #expect(change["window"] as? String == "main" && change["previous"] is NSNull && change["cause"] as? String == "request")

        h.daemon.receive(.presses(PressInput(device: "kbd", window: nil, timestamp: 3, changes: [KeyChange(keyCode: 28, keyName: "KEY_ENTER", phase: .began)])))
        try h.drain(c)
        let press = try #require(c.of(type: "press").first)
        #expect(press["key"] as? String == "KEY_ENTER" && press["code"] as? Int == 28 && press["phase"] as? String == "began")
        #expect(press["responder"] as? String == "home.ok")
        let action = try #require(c.of(type: "action").first)
        #expect(action["name"] as? String == "ok-key" && action["event"] as? String == "presses_began")
        #expect(action["keys"] as? [String] == ["KEY_ENTER"])

        c.send(#"{"id":2,"cmd":"views"}"#)
        c.send(#"{"id":3,"cmd":"become_first_responder","responder":"home"}"#)
        c.send(#"{"id":4,"cmd":"become_first_responder","responder":"home.cancel"}"#)
        c.send(#"{"id":5,"cmd":"resign_first_responder","responder":"home.cancel"}"#)
        c.send(#"{"id":6,"cmd":"resign_first_responder","responder":"home.ok"}"#)
        try h.drain(c)
        let views = try #require(c.reply(id: 2)?["result"] as? [[String: Any]])
        #expect(views.first { $0["id"] as? String == "main" }?["first_responder"] as? String == "home.cancel" || views.first { $0["id"] as? String == "main" }?["first_responder"] as? String == "home.ok")
        #expect(views.filter { $0["is_first_responder"] as? Bool == true }.compactMap { $0["id"] as? String } == ["home.ok"])
        #expect((c.reply(id: 3)?["error"] as? [String: Any])?["code"] as? String == "cannot_become_first_responder")
        #expect(c.reply(id: 4)?["ok"] as? Bool == true, "home.ok resigns for home.cancel")
        #expect((c.reply(id: 5)?["error"] as? [String: Any])?["code"] as? String == "refused_to_resign")
        #expect((c.reply(id: 6)?["error"] as? [String: Any])?["code"] as? String == "not_first_responder")

        // Hidden: it resigns though it refuses otherwise, and clients are told.
        c.send(#"{"id":7,"cmd":"set","view":"home","properties":{"hidden":true}}"#)
        try h.drain(c)
        let last = try #require(c.of(type: "first_responder").last)
        #expect(last["previous"] as? String == "home.cancel" && last["first_responder"] is NSNull && last["cause"] as? String == "hidden")
    }

    @Test func remoteControlAndMotionMessages() throws {
        let h = try DaemonHarness(app: app())
        let c = try h.connect(topics: ["remote_control", "motion"])
        h.daemon.receive(.remoteControl(RemoteControlInput(device: "r", window: nil, timestamp: 1, subtype: .nextTrack, keyName: "KEY_NEXTSONG")))
        h.daemon.receive(.motion(MotionInput(device: "a", window: "main", timestamp: 2, phase: .began)))
        try h.drain(c)
        let remote = try #require(c.of(type: "remote_control").first)
        #expect(remote["subtype"] as? String == "next_track" && remote["key"] as? String == "KEY_NEXTSONG" && remote["responder"] as? String == "main")
        let motion = try #require(c.of(type: "motion").first)
        #expect(motion["subtype"] as? String == "shake" && motion["phase"] as? String == "began" && motion["time"] as? Double == 2)
    }

    @Test func aRefusedFirstResponderChangeIsReportedForTheLogs() throws {
        let app = Application(
            tree: kioskTree(),
            handlers: HandlerTable([Handler(responder: "home.ok", trigger: .touchesEnded, action: "focus", firstResponderEffect: .become("home"))]))
        let h = try DaemonHarness(app: app)
        var logged: [String] = []
        h.daemon.onAnomaly = { logged.append($0) }
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        #expect(logged == [#"handler focus of home.ok: "home" cannot become first responder (it has no can_become_first_responder = true)"#])
    }
}
