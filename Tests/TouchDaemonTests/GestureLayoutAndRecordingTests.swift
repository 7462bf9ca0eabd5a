import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout

/// `[[gesture]]` in layouts, and recognizers on real recordings.
@Suite struct GestureLayoutAndRecordingTests {
    static let layoutHead = """
        [[window]]
        id = "w"
        size = [1000, 1000]
        points_per_mm = 4

        [[view]]
        id = "surface"
        parent = "w"
        frame = [0, 0, 1000, 1000]
        multiple_touch = true

        """

    @Test func gesturesAreReadWithDefaultsAndBecomeRecognizers() throws {
        let text = Self.layoutHead + """
            [[gesture]]
            id = "double"
            view = "surface"
            kind = "tap"
            taps = 2
            action = "zoom"
            payload = { level = 2 }

            [[gesture]]
            id = "single"
            view = "surface"
            kind = "tap"
            requires_failure_of = ["double"]

            [[gesture]]
            id = "swipe"
            view = "surface"
            kind = "swipe"
            directions = ["left", "up"]
            cancels_touches_in_view = false
            """
        let document = try LayoutLoader.parse(text, file: "g.toml")
        #expect(document.gestures.map(\.id) == ["double", "single", "swipe"])
        #expect(document.gestures[0].taps == 2)
        #expect(document.gestures[1].requiresFailureOf == ["double"])
        #expect(document.gestures[2].cancelsTouchesInView == false)
        let specs = document.makeGestureRecognizers()
        #expect(specs[0].kind == .tap(taps: 2, touches: 1))
        #expect(specs[0].payload == .object([("level", 2)]))
        #expect(specs[2].kind == .swipe(directions: [.left, .up], touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5))
        let app = try document.makeApplication()
        #expect(app.gestureState(of: "double") == .possible)
    }

    @Test func gestureMistakesAreReportedWithTheirKeyPaths() {
        let text = Self.layoutHead + """
            [[gesture]]
            id = "a"
            view = "nowhere"
            kind = "tapp"

            [[gesture]]
            id = "b"
            view = "surface"
            kind = "swipe"
            directions = ["sideways"]
            requires_failure_of = ["zzz"]
            min_touches = 3
            max_touches = 2
            numberOfTapsRequired = 2

            [[gesture]]
            id = "surface"
            view = "surface"
            kind = "pan"
            """
        #expect {
            _ = try LayoutLoader.parse(text, file: "g.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("(gesture[0]).view") && text.contains("unknown view \"nowhere\"")
                && text.contains("(gesture[0]).kind") && text.contains("\"tapp\" is not allowed")
                && text.contains("(gesture[1]).directions[0]") && text.contains("(gesture[1]).requires_failure_of[0]")
                && text.contains("min_touches 3 is more than max_touches 2") && text.contains("did you mean \"taps\"")
                && text.contains("(gesture[2]).id") && text.contains("duplicate id \"surface\"")
        }
    }

    // MARK: real recordings

    static let recordings = RecordingReplayTests.recordings
    static let available = RecordingReplayTests.available

    /// Replays a recording onto the 1000×1000 surface with these gestures; returns every record.
    func replay(_ path: String, _ gestures: String) throws -> [GestureRecord] {
        let document = try LayoutLoader.parse(Self.layoutHead + gestures, file: "g.toml")
        var app = try document.makeApplication()
        var replay = try RecordingReplay(path: Self.recordings + "/" + path, descriptionPath: nil, layout: document, tree: app.tree, window: "w")
        var records: [GestureRecord] = []
        replay.run(into: &app) { report, _ in records += report.gestures }
        return records
    }

    func states(_ records: [GestureRecord], _ id: ResponderID) -> [GestureState] { records.filter { $0.recognizer == id }.map(\.state) }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theWacomDoubleTapIsADoubleTap() throws {
        let records = try replay("evemu-devices/Wacom ISDv4 E6 Finger.double-tap-center.events", """
            [[gesture]]
            id = "double"
            view = "surface"
            kind = "tap"
            taps = 2
            """)
        #expect(states(records, "double") == [.recognized])
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theAtmelFastTapsAreNineTaps() throws {
        let records = try replay("evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events", """
            [[gesture]]
            id = "tap"
            view = "surface"
            kind = "tap"
            """)
        #expect(states(records, "tap") == Array(repeating: .recognized, count: 9))
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theLGPinchIsAPinch() throws {
        let records = try replay("hid-devices/lg_1fd2_0064_0.ev", """
            [[gesture]]
            id = "pinch"
            view = "surface"
            kind = "pinch"
            """)
        let pinch = states(records, "pinch")
        #expect(pinch.contains(.began))
        #expect(pinch.contains(.changed))
        #expect(pinch.contains(.ended))
        let scales = records.filter { $0.recognizer == "pinch" }.compactMap { JSONValue.object($0.values)["scale"] }
        #expect(scales.contains { if case .double(let s) = $0 { return s < 0.5 || s > 2 } else { return false } }, "a real pinch changes scale a lot")
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func twoAndFourFingerDragsArePansOfThatManyFingers() throws {
        let two = try replay("evemu-devices/EP0430M09.2-finger-scroll-down.events", """
            [[gesture]]
            id = "pan"
            view = "surface"
            kind = "pan"
            min_touches = 2
            """)
        #expect(states(two, "pan").first == .began)
        #expect(states(two, "pan").last == .ended)
        let translation = two.filter { $0.recognizer == "pan" }.last.flatMap { JSONValue.object($0.values)["translation"] }
        if case .object(let t)? = translation, case .double(let dy)? = t.first(where: { $0.0 == "y" })?.1 {
            // The recording's "down" is towards smaller y on this panel; what matters is a long vertical drag.
            #expect(abs(dy) > 100, "a long vertical drag: \(dy)")
        } else {
            Issue.record("no translation")
        }
        let four = try replay("evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events", """
            [[gesture]]
            id = "pan4"
            view = "surface"
            kind = "pan"
            min_touches = 4
            """)
        #expect(states(four, "pan4").first == .began)
        #expect(four.filter { $0.recognizer == "pan4" && $0.state == .began }.first?.touches.count == 4)
        let three = try replay("evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events", """
            [[gesture]]
            id = "pan3"
            view = "surface"
            kind = "pan"
            min_touches = 3
            max_touches = 3
            """)
        // Three of the four fingers were down before the fourth landed: a three-finger drag began then.
        let began3 = three.first { $0.recognizer == "pan3" && $0.state == .began }
        #expect(began3 == nil || began3!.touches.count >= 3)
        #expect(states(three, "pan3").allSatisfy { $0 != .failed } || states(three, "pan3").first == .failed)
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func aRecognizerNeverBothRecognizesAndFailsOnOneSequence() throws {
        // Every real recording with every kind of recognizer at once.
        let gestures = """
            [[gesture]]
            id = "tap"
            view = "surface"
            kind = "tap"
            [[gesture]]
            id = "double"
            view = "surface"
            kind = "tap"
            taps = 2
            [[gesture]]
            id = "press"
            view = "surface"
            kind = "long_press"
            [[gesture]]
            id = "pan"
            view = "surface"
            kind = "pan"
            [[gesture]]
            id = "swipe"
            view = "surface"
            kind = "swipe"
            directions = ["left", "right", "up", "down"]
            [[gesture]]
            id = "pinch"
            view = "surface"
            kind = "pinch"
            simultaneous_with = ["rotate"]
            [[gesture]]
            id = "rotate"
            view = "surface"
            kind = "rotation"
            """
        for row in RecordingReplayTests.rows {
            let records = try replay(row.path, gestures)
            for id in ["tap", "double", "press", "pan", "swipe", "pinch", "rotate"] as [ResponderID] {
                // Split the recognizer's states into sequences, each ending in a terminal state.
                var sequence: [GestureState] = []
                for state in states(records, id) {
                    sequence.append(state)
                    if state.isTerminal {
                        let recognized = sequence.contains(.recognized) || sequence.contains(.began)
                        #expect(!(recognized && sequence.contains(.failed)), "\(row.path): \(id) \(sequence)")
                        sequence = []
                    }
                }
            }
        }
    }
}

extension GestureLayoutAndRecordingTests {
    @Test func controlsAndTheirTargetsComeFromTheLayout() throws {
        let text = Self.layoutHead + """
            [[view]]
            id = "save"
            parent = "surface"
            frame = [100, 100, 200, 80]

            [[control]]
            view = "save"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "save"

            [[handler]]
            responder = "surface"
            on = "action"
            selector = "save"
            action = "document-saved"
            """
        let document = try LayoutLoader.parse(text, file: "c.toml")
        #expect(document.controls.first?.targets.first?.event == "touch_up_inside")
        var app = try document.makeApplication()
        let down = InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))])
        let up = InputFrame(device: "d", window: "w", timestamp: 1.1, contacts: [InputContact(id: 1, phase: .ended, location: Point(x: 150, y: 150))])
        let actions = (app.send(down) + app.send(up)).flatMap(\.actions)
        #expect(actions.map(\.name) == ["document-saved"])
        #expect(actions.first?.payload["control"] == .string("save"))
    }

    @Test func controlMistakesAreReported() {
        let text = Self.layoutHead + """
            [[control]]
            view = "nowhere"
            kind = "knob"
            [[control.target]]
            event = "touch_up_insid"
            action = "x"
            target = "ghost"

            [[handler]]
            responder = "surface"
            on = "action"
            action = "y"
            """
        #expect {
            _ = try LayoutLoader.parse(text, file: "c.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("control[0].view") && text.contains("\"knob\" is not allowed")
                && text.contains("\"touch_up_insid\" is not allowed") && text.contains("did you mean \"touch_up_inside\"")
                && text.contains("handler") && text.contains("selector")
        }
    }
}
