import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout

/// `[[gesture]]` in layouts, and recognizers on real recordings.
@Suite(.timeLimit(.minutes(10))) struct GestureLayoutAndRecordingTests {
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
        #expect(document.gestures[1].requiresFailureOf == ["double"])
        #expect(document.gestures[2].cancelsTouchesInView == false)
        let specs = document.gestures
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
    func replay(_ path: String, _ gestures: String, refreshHz: Int? = nil) throws -> [GestureRecord] {
        try replayReports(path, gestures, refreshHz: refreshHz).flatMap(\.gestures)
    }

    /// Replays a recording onto the 1000×1000 surface with these gestures (the window at its
    /// default display rate, or at `refreshHz`); returns every report.
    func replayReports(_ path: String, _ gestures: String, refreshHz: Int? = nil) throws -> [DispatchReport] {
        let head = refreshHz.map { Self.layoutHead.replacingOccurrences(of: "points_per_mm = 4\n", with: "points_per_mm = 4\nrefresh_hz = \($0)\n") } ?? Self.layoutHead
        let document = try LayoutLoader.parse(head + gestures, file: "g.toml")
        var app = try document.makeApplication()
        let replay = try RecordingReplay(path: Self.recordings + "/" + path, descriptionPath: nil, layout: document, tree: app.tree, window: "w")
        var reports: [DispatchReport] = []
        replay.run(into: &app) { report in reports.append(report) }
        return reports
    }

    /// A recognizer's records, one list per cycle between resets: a record lists every touch the
    /// recognizer has seen since its last reset, so a cycle is the run of records sharing their
    /// first touch.
    func cycles(_ records: [GestureRecord], _ id: ResponderID) -> [[GestureRecord]] {
        var result: [[GestureRecord]] = []
        for record in records where record.recognizer == id {
            if let first = record.touches.first, result.last?.first?.touches.first == first {
                result[result.count - 1].append(record)
            } else {
                result.append([record])
            }
        }
        return result
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
        let scales = records.filter { $0.recognizer == "pinch" }.compactMap { record -> Double? in
            if case .pinch(let scale, _) = record.values { return scale }
            return nil
        }
        #expect(scales.contains { $0 < 0.5 || $0 > 2 }, "a real pinch changes scale a lot")
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
        let translation = two.filter { $0.recognizer == "pan" }.last?.values
        if case .pan(let t, _)? = translation {
            let dy = t.y
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
        // Three of the four fingers are down and moving before the fourth lands: a three-finger
        // pan begins then, goes on with its three while the fourth, past its maximum, is ignored
        // (UIKit's maximumNumberOfTouches), and ends when its fingers lift.
        let pan3 = three.filter { $0.recognizer == "pan3" }
        #expect(pan3.first?.state == .began)
        #expect(pan3.first?.touches == [1, 2, 3])
        #expect(pan3.last?.state == .ended)
        #expect(pan3.dropFirst().dropLast().allSatisfy { $0.state == .changed })
        #expect(pan3.allSatisfy { $0.touches == [1, 2, 3] }, "\(pan3.map(\.touches))")
        let ys = translations(pan3)
        #expect(ys.count == pan3.count)
        #expect((ys.last ?? 0) > 300, "a long drag down: \(ys)")
        // Fingers landing and lifting move the centroid, never the translation: it grows in small
        // steps, one display frame's travel (about 35 points at 60 Hz for this drag) ...
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 < 45 }, "\(ys)")
        // ... and, with every input frame dispatched, one input frame's.
        let everyFrame = try replay(
            "evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
            "[[gesture]]\nid = \"pan3\"\nview = \"surface\"\nkind = \"pan\"\nmin_touches = 3\nmax_touches = 3\n",
            refreshHz: 0)
        let perFrame = translations(everyFrame.filter { $0.recognizer == "pan3" })
        #expect(perFrame.count > ys.count, "more frames than display ticks")
        #expect(abs((perFrame.last ?? 0) - (ys.last ?? 0)) < 1e-9, "the same drag in the end")
        #expect(zip(perFrame, perFrame.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 < 25 }, "\(perFrame)")
    }

    /// The `translation.y` of each record.
    func translations(_ records: [GestureRecord]) -> [Double] {
        records.compactMap { record -> Double? in
            guard case .pan(let t, _) = record.values else { return nil }
            return t.y
        }
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
                // Between two resets a recognizer either fails or recognizes (begins), never both,
                // and reaches at most one terminal state.
                for cycle in cycles(records, id).map({ $0.map(\.state) }) {
                    let recognized = cycle.contains(.recognized) || cycle.contains(.began)
                    #expect(!(recognized && cycle.contains(.failed)), "\(row.path): \(id) \(cycle)")
                    #expect(cycle.filter(\.isTerminal).count <= 1, "\(row.path): \(id) \(cycle)")
                }
            }
        }
    }
}

extension GestureLayoutAndRecordingTests {
    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theLGFingerHeldStillIsALongPress() throws {
        let reports = try replayReports("hid-devices/lg_1fd2_0064_0.ev", """
            [[gesture]]
            id = "press"
            view = "surface"
            kind = "long_press"
            action = "pressed"
            """)
        let records = reports.flatMap(\.gestures)
        // Touch 4 rests 0.65 s without moving: began 0.5 s after it landed, ended when it lifted.
        let cycle = try #require(cycles(records, "press").first { $0.first?.touches == [4] })
        #expect(cycle.map(\.state) == [.began, .ended])
        let down = try #require(reports.flatMap(\.hits).first { $0.touch == 4 })
        #expect(abs((cycle[0].timestamp - (down.timestamp + 0.5)).seconds) < 1e-9, "the timer fires at its own time")
        #expect(cycle[0].location == down.pointInWindow)
        let lift = try #require(reports.flatMap(\.changedTouches).first { $0.id == 4 && $0.phase == .ended })
        #expect(cycle[1].timestamp == lift.timestamp)
        let actions = reports.flatMap(\.actions).filter { $0.name == "pressed" && $0.touches == [4] }
        #expect(actions.map(\.gestureState) == [.began, .ended])
        // Touch 1 moves away at once: no long press.
        #expect(cycles(records, "press").first?.map(\.state) == [.failed])
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func requireToFailGivesTheSameTapsWhateverTheOrderOfTheGestures() throws {
        // A tap on the surface waits for the failure of a tap on a child covering its left part.
        let child = """
            [[view]]
            id = "left"
            parent = "surface"
            frame = [0, 0, 435, 1000]

            """
        let waiter = """
            [[gesture]]
            id = "a"
            view = "surface"
            kind = "tap"
            requires_failure_of = ["b"]

            """
        let awaited = """
            [[gesture]]
            id = "b"
            view = "left"
            kind = "tap"

            """
        let path = "evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
        let waiterFirst = try replay(path, child + waiter + awaited).map { "\($0.recognizer) \($0.state) \($0.touches)" }
        let awaitedFirst = try replay(path, child + awaited + waiter).map { "\($0.recognizer) \($0.state) \($0.touches)" }
        #expect(waiterFirst == awaitedFirst)
        // Each of the nine taps is recognized once: by b on the left (a then fails), else by a.
        #expect(waiterFirst == [
            "b recognized [1]", "a failed [1]", "a recognized [2]", "a recognized [3]", "a recognized [4]", "a recognized [5]",
            "b recognized [6]", "a failed [6]", "a recognized [7]", "a recognized [8]", "a recognized [9]",
        ])
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theAtmelFourFingerDragIsASwipeDown() throws {
        let path = "evemu-devices/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
        let records = try replay(path, """
            [[gesture]]
            id = "swipe"
            view = "surface"
            kind = "swipe"
            touches = 4
            directions = ["down"]
            """)
        let swipe = records.filter { $0.recognizer == "swipe" }
        #expect(swipe.map(\.state) == [.recognized])
        #expect(swipe.first?.touches == [1, 2, 3, 4])
        #expect(swipe.first?.values == .swipe(direction: .down))
        // The same drag is no swipe up, nor a swipe of two fingers.
        let up = try replay(path, """
            [[gesture]]
            id = "swipe"
            view = "surface"
            kind = "swipe"
            touches = 4
            directions = ["up"]
            """)
        #expect(states(up, "swipe") == [.failed])
        let two = try replay(path, """
            [[gesture]]
            id = "swipe"
            view = "surface"
            kind = "swipe"
            touches = 2
            directions = ["down"]
            """)
        #expect(states(two, "swipe") == [.failed])
    }

    @Test(.enabled(if: GestureLayoutAndRecordingTests.available, "../shared/recordings is absent"))
    func theWacomTwoFingerCircleIsARotation() throws {
        let records = try replay("evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events", """
            [[gesture]]
            id = "rotate"
            view = "surface"
            kind = "rotation"
            """)
        let rotation = records.filter { $0.recognizer == "rotate" }
        #expect(rotation.first?.state == .began)
        #expect(rotation.first?.touches == [1, 2])
        #expect(rotation.last?.state == .ended)
        #expect(rotation.dropFirst().dropLast().allSatisfy { $0.state == .changed })
        let angles = rotation.compactMap { record -> Double? in
            if case .rotation(let r, _) = record.values { return r }
            return nil
        }
        #expect(angles.count == rotation.count)
        // Beyond the 6° threshold at the start; the fingers waver but never turn back past where
        // they started, and end about 31° round.
        #expect(angles.first.map { $0 >= 0.1047 && $0 < 0.12 } == true, "\(angles)")
        #expect(angles.allSatisfy { $0 > 0.05 && $0 < 0.6 }, "\(angles)")
        #expect(angles.last.map { $0 > 0.5 } == true, "\(angles)")
    }

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
        #expect(document.controls.first?.targets.first?.event == .touchUpInside)
        var app = try document.makeApplication()
        let down = InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))])
        let up = InputFrame(device: "d", window: "w", timestamp: 1.1, contacts: [InputContact(id: 1, phase: .ended, location: Point(x: 150, y: 150))])
        let actions = (app.send(down) + app.send(up)).flatMap(\.actions)
        #expect(actions.map(\.name) == ["document-saved"])
        #expect(actions.first?.control?.control == "save")
        #expect(actions.first?.payload == .object([]))
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
