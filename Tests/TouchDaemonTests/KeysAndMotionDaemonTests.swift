import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout

@Suite(.timeLimit(.minutes(10))) struct FirstResponderSocketTests {
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
        // Not receiving yet: the command goes nowhere, and stats counts it.
        h.daemon.receive(.remoteControl(RemoteControlInput(device: "r", window: nil, timestamp: 0.5, subtype: .play, keyName: "KEY_PLAY")))
        c.send(#"{"id":1,"cmd":"begin_receiving_remote_control"}"#)
        c.send(#"{"id":2,"cmd":"stats"}"#)
        try h.drain(c)
        #expect(c.of(type: "remote_control").isEmpty)
        #expect((c.reply(id: 1)?["result"] as? [String: Any])?["receiving"] as? Bool == true)
        #expect((c.reply(id: 2)?["result"] as? [String: Any])?["remote_control_ignored"] as? Int == 1)
        h.daemon.receive(.remoteControl(RemoteControlInput(device: "r", window: nil, timestamp: 1, subtype: .nextTrack, keyName: "KEY_NEXTSONG")))
        h.daemon.receive(.motion(MotionInput(device: "a", window: "main", timestamp: 2, phase: .began)))
        try h.drain(c)
        let remote = try #require(c.of(type: "remote_control").first)
        #expect(remote["subtype"] as? String == "next_track" && remote["key"] as? String == "KEY_NEXTSONG" && remote["responder"] as? String == "main")
        let motion = try #require(c.of(type: "motion").first)
        #expect(motion["subtype"] as? String == "shake" && motion["phase"] as? String == "began" && motion["time"] as? Double == 2)
        c.send(#"{"id":3,"cmd":"end_receiving_remote_control"}"#)
        try h.drain(c)
        h.daemon.receive(.remoteControl(RemoteControlInput(device: "r", window: nil, timestamp: 3, subtype: .pause, keyName: "KEY_PAUSE")))
        try h.drain(c)
        #expect(c.of(type: "remote_control").count == 1, "after end_receiving_remote_control, nothing more")
    }

    @Test func aRefusedFirstResponderChangeIsReportedForTheLogs() throws {
        let app = Application(
            tree: kioskTree(),
            handlers: HandlerTable([Handler(responder: "home.ok", trigger: .touchesEnded, action: "focus", firstResponderEffect: .become("home"))]))
        let h = try DaemonHarness(app: app)
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        #expect(h.observer.anomalies == [#"handler focus of home.ok: "home" cannot become first responder (it has no can_become_first_responder = true)"#])
    }
}
