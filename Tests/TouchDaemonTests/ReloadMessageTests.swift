import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout

/// What clients hear of a reload: the `reload` message, with what the new layout changed and the
/// run-time changes the reload dropped.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReloadMessageTests {
    static let before = """
        [[window]]
        id = "main"
        size = [800, 480]

        [[view]]
        id = "home"
        parent = "main"
        frame = [0, 0, 800, 480]

        [[view]]
        id = "title"
        parent = "home"
        frame = [0, 0, 800, 40]

        [[view]]
        id = "banner"
        parent = "home"
        frame = [0, 440, 800, 40]

        [[view]]
        id = "old"
        parent = "home"
        frame = [0, 100, 10, 10]

        [[view]]
        id = "lights"
        parent = "home"
        frame = [100, 100, 100, 60]

        [[view]]
        id = "dialog"
        parent = "main"
        frame = [0, 0, 800, 480]
        hidden = true

        [[control]]
        view = "lights"
        kind = "toggle"

        """

    @Test func everyClientHearsWhatTheReloadChangedAndWhichRunTimeChangesItDropped() throws {
        let path = NSTemporaryDirectory() + "touchd-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        try Self.before.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try DaemonHarness(app: try LoadedLayout.load(path: path).app, layoutFile: path)
        let app = try h.connectBare()
        let watcher = try h.connect(topics: ["hits"])
        app.send(#"{"id":1,"cmd":"set","view":"dialog","properties":{"hidden":false}}"#)
        app.send(#"{"id":2,"cmd":"add_view","view":"badge","parent":"home","properties":{"frame":[0,0,5,5]}}"#)
        app.send(#"{"id":3,"cmd":"remove_view","view":"old"}"#)
        app.send(#"{"id":4,"cmd":"set_control","view":"lights","value":true}"#)
        try h.drain(app)
        #expect((1...4).allSatisfy { app.code(id: $0) == "ok" })

        // The new layout: banner goes, title moves, extra comes.
        let after = Self.before.replacingOccurrences(of: "frame = [0, 0, 800, 40]", with: "frame = [0, 0, 800, 60]")
            .replacingOccurrences(of: "id = \"banner\"", with: "id = \"extra\"")
        try after.write(toFile: path, atomically: true, encoding: .utf8)
        app.send(#"{"id":5,"cmd":"reload"}"#)
        try h.drain(app, watcher)
        #expect(app.code(id: 5) == "ok")

        for client in [app, watcher] {
            let messages = client.of(type: "reload")
            #expect(messages.count == 1, "every client, whatever it subscribed to")
            let reload = try #require(messages.first)
            #expect(reload["views"] as? Int == 6)
            #expect(reload["added"] as? [String] == ["extra"])
            #expect(reload["removed"] as? [String] == ["banner"])
            #expect(reload["changed"] as? [String] == ["title"], "\(reload)")
            let dropped = try #require(reload["dropped"] as? [String: Any])
            #expect(dropped["set"] as? [String] == ["dialog"], "\(dropped)")
            #expect(dropped["added"] as? [String] == ["badge"])
            #expect(dropped["removed"] as? [String] == ["old"])
            #expect(dropped["controls"] as? [String] == ["lights"])
            #expect(dropped["first_responders"] as? [String] == [])
            #expect(reload["omitted"] == nil)
        }
        // The reply to the request comes after the message about what it did.
        let order = app.messages.compactMap { $0["type"] as? String }.filter { $0 == "reload" || $0 == "reply" }
        #expect(order.suffix(2) == ["reload", "reply"])
        #expect(h.daemon.app.tree.properties(of: "dialog")?.isHidden == true, "the new layout's dialog")
        guard case .request(let credentials) = try #require(h.observer.reloadCauses.last) else {
            Issue.record("the reload was not told as a request")
            return
        }
        #expect(credentials?.pid == getpid())

        // A second reload with nothing changed at run time drops nothing.
        app.send(#"{"id":6,"cmd":"reload"}"#)
        try h.drain(app)
        let second = try #require(app.of(type: "reload").last)
        #expect(second["added"] as? [String] == [] && second["removed"] as? [String] == [] && second["changed"] as? [String] == [])
        #expect((second["dropped"] as? [String: Any])?.values.allSatisfy { ($0 as? [String])?.isEmpty == true } == true, "\(second)")
    }

    @Test func aRootControllersViewRemovedIsNoSetOfItsWindow() throws {
        // Removing the home controller's root view takes the controller and the window's root
        // controller with it: a removal, which the reload lists as one, not a `set` of the window.
        let h = try DaemonHarness(app: try LoadedLayout.load(path: DaemonProcessTests.kiosk).app, layoutFile: DaemonProcessTests.kiosk)
        let app = try h.connectBare()
        app.send(#"{"id":1,"cmd":"remove_view","view":"home.root"}"#)
        app.send(#"{"id":2,"cmd":"reload"}"#)
        try h.drain(app)
        #expect(app.code(id: 1) == "ok" && app.code(id: 2) == "ok")
        let dropped = try #require(app.of(type: "reload").first?["dropped"] as? [String: Any])
        #expect(dropped["set"] as? [String] == [], "\(dropped)")
        #expect((dropped["removed"] as? [String])?.first == "home.root", "\(dropped)")
    }

    @Test func aRefusedReloadSendsNoMessage() throws {
        let path = NSTemporaryDirectory() + "touchd-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        try Self.before.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try DaemonHarness(app: try LoadedLayout.load(path: path).app, layoutFile: path)
        let c = try h.connectBare()
        try "[[window]]\nid = 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        c.send(#"{"id":1,"cmd":"reload"}"#)
        try h.drain(c)
        #expect(c.code(id: 1) == "reload_failed")
        #expect(c.of(type: "reload").isEmpty)
    }

    /// A reload between the two taps of a double tap, whose recognizer holds the first tap's end
    /// back from the view: the view gets that touch's cancellation before the `reload` message.
    @Test func aTouchEndHeldByARecognizerIsCancelledByAReload() throws {
        let path = NSTemporaryDirectory() + "touchd-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        let layout = Self.before + """

            [[gesture]]
            id = "home.double"
            view = "home"
            kind = "tap"
            taps = 2

            [[handler]]
            responder = "home"
            on = "touches_ended"
            action = "home.ended"

            [[handler]]
            responder = "home"
            on = "touches_cancelled"
            action = "home.cancelled"

            """
        try layout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try DaemonHarness(app: try LoadedLayout.load(path: path).app, layoutFile: path)
        let c = try h.connect(topics: ["actions"])
        tap(h.daemon, id: 1, at: Point(x: 400, y: 300), t: 1)
        c.send(#"{"id":1,"cmd":"reload"}"#)
        try h.drain(c)
        #expect(c.code(id: 1) == "ok")
        let told = c.messages.compactMap { m -> String? in
            m["type"] as? String == "action" ? m["name"] as? String : m["type"] as? String == "reload" ? "reload" : nil
        }
        #expect(told == ["home.cancelled", "reload"])
    }

    /// A reload while a key is held down: the responders that saw it go down get
    /// `presses_cancelled`, and clients a `press` message `cancelled`, before the `reload` message.
    @Test func aKeyHeldDownIsCancelledByAReload() throws {
        let path = NSTemporaryDirectory() + "touchd-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        let layout = Self.before + """

            [[handler]]
            responder = "main"
            on = "presses_cancelled"
            action = "main.key.cancelled"

            """
        try layout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try DaemonHarness(app: try LoadedLayout.load(path: path).app, layoutFile: path)
        let c = try h.connect(topics: ["presses", "actions"])
        h.daemon.receive(.presses(PressInput(device: "kbd", window: nil, timestamp: 1, changes: [KeyChange(keyCode: 28, keyName: "KEY_ENTER", phase: .began)])))
        c.send(#"{"id":1,"cmd":"reload"}"#)
        try h.drain(c)
        #expect(c.code(id: 1) == "ok")
        let told = c.messages.compactMap { m -> String? in
            switch m["type"] as? String {
            case "press": "press " + ((m["phase"] as? String) ?? "?")
            case "action": m["name"] as? String
            case "reload": "reload"
            default: nil
            }
        }
        #expect(told == ["press began", "press cancelled", "main.key.cancelled", "reload"], "\(c.messages)")
    }
}

