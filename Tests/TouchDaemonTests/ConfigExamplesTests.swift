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

    /// The web kiosk's layout: one window and root, and a tap anywhere is the `tap` action.
    @Test func theWebKiosksLayoutTapsAnywhere() throws {
        let path = Self.configDirectory + "/../examples/web-kiosk/layout.toml"
        let document = try LayoutLoader.load(path: path)
        #expect(document.daemon.webSocket == "127.0.0.1:8765")
        var app = try document.makeApplication(file: "layout.toml")
        #expect(app.tree.viewCount == 1, "the root alone: the page adds the rest")
        var actions: [String] = []
        for (t, phase) in [(1.0, TouchPhase.began), (1.08, .ended)] {
            let frame = InputFrame(device: "d", window: "kiosk", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: 640, y: 140))])
            actions += app.send(frame).flatMap(\.actions).map(\.name)
        }
        #expect(actions == ["tap"])
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
            let frame = InputFrame(device: "d", window: "window", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: 100, y: 200))])
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
            let frame = InputFrame(device: "d", window: "window", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 2, phase: phase, location: Point(x: 150, y: 250))])
            buttonActions += running.send(frame).flatMap(\.actions).map(\.name)
        }
        #expect(buttonActions == ["button - tap"])
    }

    func tap(_ app: inout Application, _ x: Double, _ y: Double, at t: Double, id: UInt64) -> [ActionRecord] {
        var actions: [ActionRecord] = []
        for (dt, phase) in [(0.0, TouchPhase.began), (0.08, .ended)] {
            let frame = InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t + dt), contacts: [InputContact(id: id, phase: phase, location: Point(x: x, y: y))])
            actions += app.send(frame).flatMap(\.actions)
        }
        return actions
    }

    /// A finger that lands at `from` and lifts at `to`, moving there in ten steps.
    func drag(_ app: inout Application, from: Point, to: Point, at t: Double, id: UInt64) -> [ActionRecord] {
        var actions: [ActionRecord] = []
        for step in 0...11 {
            let f = Double(min(step, 10)) / 10
            let point = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
            let phase: TouchPhase = step == 0 ? .began : step == 11 ? .ended : .moved
            let frame = InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t + Double(step) * 0.016), contacts: [InputContact(id: id, phase: phase, location: point)])
            actions += app.send(frame).flatMap(\.actions)
        }
        return actions
    }

    @Test func theKioskHomeScreenAndItsDialog() throws {
        var app = try Self.load("kiosk.toml")
        // The doors tile: grid (40,136) + tile (0,0,380,292); its tap recognizer's payload names it.
        let doors = tap(&app, 200, 250, at: 1, id: 1)
        #expect(doors.map(\.name) == ["open-tile"] && doors.first?.payload == .object([("tile", "doors")]))
        // A 100-point drag across a tile opens nothing: it is no tap.
        #expect(drag(&app, from: Point(x: 230, y: 600), to: Point(x: 330, y: 600), at: 1.5, id: 8).isEmpty)
        // The small info button, enlarged by its hit expansion: just outside its 20×20 frame. No
        // handler takes its action: the app gets it from the control.
        let info = tap(&app, 1218, 40, at: 2, id: 2)
        #expect(info.map(\.name) == ["show-info"] && info.first?.responder == nil && info.first?.control?.control == "header.info")
        // A single tap on the lights tile opens it once the double tap has failed, on its timer.
        #expect(tap(&app, 600, 250, at: 3, id: 3).isEmpty)
        #expect(app.advanceTime(to: 3.5)?.actions.map(\.name) == ["open-tile"])
        // A double tap emits the double-tap action on the second tap, and no single tap.
        #expect(tap(&app, 600, 250, at: 4, id: 4).isEmpty)
        #expect(tap(&app, 602, 251, at: 4.2, id: 5).map(\.name) == ["lights-all-off"])
        #expect(app.advanceTime(to: 5)?.actions.map(\.name) ?? [] == [])
        // Showing the dialog: its backdrop captures every touch outside the panel.
        try app.updateView("dialog.root") { $0.isHidden = false }
        #expect(tap(&app, 200, 250, at: 5, id: 6).map(\.name) == ["dialog.outside-tap"])
        let ok = tap(&app, 390 + 270 + 100, 250 + 210 + 30, at: 6, id: 7)
        #expect(ok.map(\.name) == ["dialog.confirm"] && ok.first?.responder == "dialog", "the dialog controller takes the OK button's action")
        #expect(ok.first?.payload == .object([("answer", "ok")]))
        #expect(tap(&app, 390 + 30 + 100, 250 + 210 + 30, at: 7, id: 9).map(\.name) == ["dialog.dismiss"])
        // The dialog's chain goes through the presenting controller.
        #expect(app.tree.responderChain(from: "dialog.ok").contains("home"))
    }

    @Test func theMediaKiosksSliderAndToggleTellTheirValues() throws {
        var app = try Self.load("media-kiosk.toml")
        // The volume slider spans x 240 to 720: at 3/4 of its width, 75.
        let volume = tap(&app, 240 + 360, 750, at: 1, id: 1)
        #expect(volume.map(\.name) == ["set-volume"])
        #expect(volume.first?.control?.value == .double(75) && volume.first?.responder == nil)
        // Snapped to its step of 5.
        #expect(tap(&app, 240 + 100, 750, at: 2, id: 2).first?.control?.value == .double(20))
        let subtitles = tap(&app, 800, 750, at: 3, id: 3)
        #expect(subtitles.map(\.name) == ["subtitles"] && subtitles.first?.control?.value == .bool(true))
    }

    @Test func theMediaKiosksKeysRemoteAndShake() throws {
        var app = try Self.load("media-kiosk.toml")
        #expect(app.firstResponder(of: "main") == "search", "the layout's first responder")
        func keys(_ t: Double, _ code: UInt16, _ name: String, _ phase: PressPhase) -> [String] {
            let input = PressInput(device: "kbd", window: nil, timestamp: InputTime(seconds: t), changes: [KeyChange(keyCode: code, keyName: name, phase: phase)])
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
