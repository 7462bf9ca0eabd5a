import Testing
import TouchCore
import TouchLayout

/// The example layouts in `config/` are valid and behave as their comments say.
@Suite(.timeLimit(.minutes(10))) struct ConfigExamplesTests {
    static let configDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TouchDaemonTests/ConfigExamplesTests.swift
        return parts.joined(separator: "/") + "/config"
    }()

    static func load(_ name: String) throws -> Application {
        try LayoutLoader.load(path: configDirectory + "/" + name).makeApplication(file: name)
    }

    @Test(arguments: ["kiosk.toml", "seed-experiment.toml", "media-kiosk.toml"])
    func everyExampleLoads(name: String) throws {
        let app = try Self.load(name)
        #expect(app.tree.viewCount > 0)
        #expect(app.handlers.count > 0)
    }

    @Test func theSeedExperimentReproducesTheArticlesLogs() throws {
        let app = try Self.load("seed-experiment.toml")
        let result = try #require(app.tree.hitTest(Point(x: 100, y: 200), inWindow: "window", traced: true))
        #expect(result.view == "blue")
        let colours: Set<ResponderID> = ["orange", "black", "green", "blue", "red"]
        let log = result.trace.filter { colours.contains($0.view) }.map { step -> String in
            switch step.kind {
            case .enter: "\(step.view) enter"
            case .result(let hit, _): "\(step.view) \(hit?.rawValue ?? "nil")"
            }
        }
        #expect(log == ["orange enter", "black enter", "black nil", "green enter", "green nil", "blue enter", "red enter", "red nil", "blue blue", "orange blue"])
        var running = app
        var actions: [String] = []
        for (t, phase) in [(1.0, TouchPhase.began), (1.1, .ended)] {
            let frame = InputFrame(device: "d", window: "window", timestamp: t, contacts: [InputContact(id: 1, phase: phase, location: Point(x: 100, y: 200))])
            actions += running.send(frame).flatMap(\.actions).map(\.name)
        }
        // Orange's tap recognizer takes the tap and cancels the views' touches (the article's first log).
        #expect(actions == [
            "blue.touchesBegan", "orange.touchesBegan", "ViewController.touchesBegan", "app_delegate.touchesBegan",
            "UITapGestureRecognizer - tap",
            "blue.touchesCancelled", "orange.touchesCancelled", "ViewController.touchesCancelled", "app_delegate.touchesCancelled",
        ])
        // A tap on the button (red's whole area): only the button's action, from the controller.
        var buttonActions: [String] = []
        for (t, phase) in [(2.0, TouchPhase.began), (2.1, .ended)] {
            let frame = InputFrame(device: "d", window: "window", timestamp: t, contacts: [InputContact(id: 2, phase: phase, location: Point(x: 150, y: 250))])
            buttonActions += running.send(frame).flatMap(\.actions).map(\.name)
        }
        #expect(buttonActions == ["button - tap"])
    }

    func tap(_ app: inout Application, _ x: Double, _ y: Double, at t: Double, id: UInt64) -> [ActionRecord] {
        var actions: [ActionRecord] = []
        for (dt, phase) in [(0.0, TouchPhase.began), (0.08, .ended)] {
            let frame = InputFrame(device: "d", window: "main", timestamp: t + dt, contacts: [InputContact(id: id, phase: phase, location: Point(x: x, y: y))])
            actions += app.send(frame).flatMap(\.actions)
        }
        return actions
    }

    @Test func theKioskHomeScreenAndItsDialog() throws {
        var app = try Self.load("kiosk.toml")
        // The doors tile: grid (40,136) + tile (0,0,380,292).
        #expect(tap(&app, 200, 250, at: 1, id: 1).map(\.name) == ["open-tile"])
        // The small info button, enlarged by its hit expansion: just outside its 20×20 frame.
        #expect(tap(&app, 1218, 40, at: 2, id: 2).map(\.name) == ["show-info"])
        // A double tap on the lights tile emits the double-tap action on the second tap.
        #expect(tap(&app, 600, 250, at: 3, id: 3).map(\.name) == ["open-tile"])
        #expect(tap(&app, 602, 251, at: 3.2, id: 4).map(\.name) == ["lights-all-off"])
        // Showing the dialog: its backdrop captures every touch outside the panel.
        try app.updateView("dialog.root") { $0.isHidden = false }
        #expect(tap(&app, 200, 250, at: 5, id: 5).map(\.name) == ["dialog.outside-tap"])
        #expect(tap(&app, 390 + 270 + 100, 250 + 210 + 30, at: 6, id: 6).map(\.name) == ["dialog.confirm"])
        #expect(tap(&app, 390 + 30 + 100, 250 + 210 + 30, at: 7, id: 7).map(\.name) == ["dialog.dismiss"])
        // The dialog's chain goes through the presenting controller.
        #expect(app.tree.responderChain(from: "dialog.ok").contains("home"))
    }

    @Test func theMediaKiosksKeysRemoteAndShake() throws {
        var app = try Self.load("media-kiosk.toml")
        #expect(app.firstResponder(of: "main") == "search", "the layout's first responder")
        func keys(_ t: Double, _ code: UInt16, _ name: String, _ phase: PressPhase) -> [String] {
            let input = PressInput(device: "kbd", window: nil, timestamp: t, changes: [KeyChange(keyCode: code, keyName: name, phase: phase)])
            return app.send(.presses(input)).flatMap(\.actions).map(\.name)
        }
        #expect(keys(1, 28, "KEY_ENTER", .began) == ["search"], "consumed by the search field")
        #expect(keys(1.1, 28, "KEY_ENTER", .ended) == ["key-up"], "the end goes up to the controller")
        #expect(keys(2, 15, "KEY_TAB", .began) == ["focus-video"])
        #expect(app.firstResponder(of: "main") == "video")
        _ = keys(2.1, 15, "KEY_TAB", .ended)
        // The play button's nil-target action starts at the first responder, the video.
        #expect(tap(&app, 100, 750, at: 3, id: 1).map(\.name) == ["video.toggle-playback"])
        #expect(keys(4, 1, "KEY_ESC", .began) == ["leave-video"])
        #expect(app.firstResponder(of: "main") == nil)
        #expect(tap(&app, 100, 750, at: 5, id: 2).map(\.name) == ["player.toggle-playback"], "no first responder: from the button up")
        // A tap on the search field gives it the keyboard again.
        #expect(tap(&app, 300, 60, at: 6, id: 3).map(\.name) == ["focus-search"])
        #expect(app.firstResponder(of: "main") == "search")
        let remote = RemoteControlInput(device: "remote", window: nil, timestamp: 7, subtype: .togglePlayPause, keyName: "KEY_PLAYPAUSE")
        #expect(app.send(.remoteControl(remote)).flatMap(\.actions).map(\.name) == ["toggle-playback", "remote-command"])
        let shake = app.send(.motion(MotionInput(device: "accel", window: nil, timestamp: 8, phase: .ended)))
        #expect(shake.flatMap(\.actions).map(\.name) == ["shuffle"])
        let document = try LayoutLoader.load(path: Self.configDirectory + "/media-kiosk.toml")
        #expect(document.devices.map(\.match.kind) == [.touchscreen, .keys, .accelerometer])
        #expect(document.devices[2].shake == ShakeSpec(thresholdG: 1.2, minimumDuration: 0.4, settle: 0.3))
        #expect(document.devices[1].window == "" && document.devices[1].grab == false)
    }
}
