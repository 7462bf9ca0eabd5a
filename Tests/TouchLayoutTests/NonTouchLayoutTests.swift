import Testing
import TouchCore

@testable import TouchLayout

/// The first-responder, press, remote-control and motion keys: read, defaulted and validated.
@Suite(.timeLimit(.minutes(10))) struct NonTouchLayoutTests {
    /// The base layout with `a` able to become first responder and `b` not.
    func layout(window extra: String = "", _ more: String = "") -> String {
        baseLayout
            .replacingOccurrences(of: "root_controller = \"home\"", with: "root_controller = \"home\"\n" + extra)
            .replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\ncan_become_first_responder = true")
            + more
    }

    @Test func anEntryThatIgnoresItsDevicesNeedsNoWindow() throws {
        let document = try load("""
            [[window]]
            id = "w"
            size = [100, 100]
            [[device]]
            match.kind = "tablet"
            ignore = true
            [[device]]
            match.kind = "touchscreen"
            window = "w"
            """)
        #expect(document.devices.map(\.ignore) == [true, false])
        #expect(document.devices[0].match.kind == .tablet)
        let missing = issues("[[window]]\nid = \"w\"\nsize = [100, 100]\n[[device]]\nmatch.kind = \"tablet\"\n")
        #expect(missing.first?.keyPath == "device[0].window", "a tablet entry that reads its pens needs a window")
    }

    @Test func theApplicationReceivesRemoteControlOnlyWhenTheLayoutSaysSo() throws {
        let window = "[[window]]\nid = \"w\"\nsize = [100, 100]\n"
        #expect(try load(window).settings.receivesRemoteControlEvents == false, "UIKit's default")
        let receiving = try load("[application]\nreceives_remote_control = true\n" + window)
        #expect(receiving.settings.receivesRemoteControlEvents)
        #expect(try receiving.makeApplication().isReceivingRemoteControlEvents)
        let uikit = issues("[application]\nbeginReceivingRemoteControlEvents = true\n" + window)
        #expect(uikit.first?.description.contains("did you mean \"receives_remote_control\"") == true, "\(uikit)")
    }

    @Test func firstResponderKeysAreReadAndMadeIntoTheApplication() throws {
        let text = layout(window: "first_responder = \"a\"", """
            [[handler]]
            responder = "b"
            on = "touches_ended"
            action = "focus-a"
            become_first_responder = "a"

            [[handler]]
            responder = "a"
            on = "presses_began"
            key = "KEY_ESC"
            action = "blur"
            resign_first_responder = "a"

            [[handler]]
            responder = "home"
            on = "remote_control"
            subtype = "toggle_play_pause"
            action = "play"

            [[handler]]
            responder = "home"
            on = "motion_ended"
            action = "shuffle"

            [[controller]]
            id = "sticky"
            view = "b"
            can_become_first_responder = true
            can_resign_first_responder = false

            """)
        let document = try load(text)
        #expect(document.windows[0].firstResponder == "a")
        #expect(document.view("a")?.firstResponderTraits == FirstResponderTraits(responder: "a", canBecome: true, canResign: true))
        #expect(document.view("b")?.firstResponderTraits == nil, "none declared: UIKit's defaults, cannot become, can resign")
        #expect(
            document.controller("sticky")?.firstResponderTraits == FirstResponderTraits(responder: "sticky", canBecome: true, canResign: false))
        #expect(document.handlers.map(\.trigger) == [.touchesEnded, .pressesBegan, .remoteControl, .motionEnded])
        #expect(document.handlers[1].key == "KEY_ESC" && document.handlers[2].remoteControl == .togglePlayPause)
        let app = try document.makeApplication()
        #expect(app.firstResponder(of: "main") == "a")
        #expect(app.firstResponderTraits(of: "sticky") == FirstResponderTraits(responder: "sticky", canBecome: true, canResign: false))
        let handlers = app.handlers.handlers(for: "b") + app.handlers.handlers(for: "a") + app.handlers.handlers(for: "home")
        #expect(handlers.map(\.firstResponderEffect) == [.become("a"), .resign("a"), nil, nil])
        #expect(handlers[2].remoteControl == .togglePlayPause && handlers[1].key == "KEY_ESC")
    }

    @Test func theInitialFirstResponderMustBeInItsWindowAndOptIn() {
        var text = layout(window: "first_responder = \"b\"")
        check(
            singleIssue(text), kind: .conflict, keyPath: "window[0].first_responder", line: line(of: "first_responder = \"b\"", in: text),
            mentions: [#"a view "b" cannot become first responder"#, "can_become_first_responder = true"])
        text = layout(window: "first_responder = \"nope\"")
        check(
            singleIssue(text), kind: .unknownReference, keyPath: "window[0].first_responder", line: line(of: "\"nope\"", in: text),
            mentions: [#"unknown first responder "nope""#])
        text = layout(window: "first_responder = \"a\"", """
            [[window]]
            id = "second"
            size = [10, 10]
            first_responder = "a"

            """)
        check(
            singleIssue(text), kind: .conflict, keyPath: "window[1].first_responder", line: line(of: "first_responder = \"a\"", in: text, occurrence: 2),
            mentions: [#"is in window "main", not this one"#])
    }

    @Test func handlerKeysAreCheckedAgainstTheirTrigger() {
        let wrongKey = layout("""
            [[handler]]
            responder = "a"
            on = "presses_began"
            key = "KEY_ENTRE"
            action = "x"

            """)
        check(
            singleIssue(wrongKey), kind: .invalidValue, keyPath: "handler[0].key", line: line(of: "KEY_ENTRE", in: wrongKey),
            mentions: [#""KEY_ENTRE" is not a key name"#, "KEY_ENTER"])
        let lower = layout("""
            [[handler]]
            responder = "a"
            on = "presses_ended"
            key = "enter"
            action = "x"

            """)
        check(singleIssue(lower), kind: .invalidValue, keyPath: "handler[0].key", line: line(of: "\"enter\"", in: lower), mentions: [#"did you mean "KEY_ENTER"?"#])
        let keyOnTouch = layout("""
            [[handler]]
            responder = "a"
            on = "touches_began"
            key = "KEY_ENTER"
            action = "x"

            """)
        check(singleIssue(keyOnTouch), kind: .conflict, keyPath: "handler[0].key", line: line(of: "KEY_ENTER", in: keyOnTouch), mentions: ["key only goes with"])
        let badSubtype = layout("""
            [[handler]]
            responder = "a"
            on = "remote_control"
            subtype = "playpause"
            action = "x"

            """)
        check(
            singleIssue(badSubtype), kind: .invalidValue, keyPath: "handler[0].subtype", line: line(of: "playpause", in: badSubtype),
            mentions: [#""playpause" is not allowed"#, "toggle_play_pause"])
        let subtypeOnMotion = layout("""
            [[handler]]
            responder = "a"
            on = "motion_began"
            subtype = "play"
            tap_count = 2
            action = "x"

            """)
        let found = issues(subtypeOnMotion)
        #expect(found.map(\.keyPath) == ["handler[0].subtype", "handler[0].tap_count"], "\(found)")
        #expect(found.allSatisfy { $0.kind == .conflict })
    }

    @Test func firstResponderEffectsNameRespondersThatCanTakeThem() {
        let cannot = layout("""
            [[handler]]
            responder = "a"
            on = "touches_ended"
            action = "x"
            become_first_responder = "b"

            """)
        check(
            singleIssue(cannot), kind: .conflict, keyPath: "handler[0].become_first_responder", line: line(of: "become_first_responder = \"b\"", in: cannot),
            mentions: [#"a view "b" cannot become first responder"#])
        let both = layout("""
            [[handler]]
            responder = "a"
            on = "touches_ended"
            action = "x"
            become_first_responder = "a"
            resign_first_responder = "application"

            """)
        let found = issues(both)
        #expect(found.map(\.keyPath).sorted() == ["handler[0].resign_first_responder", "handler[0].resign_first_responder"], "\(found)")
        #expect(found.contains { $0.kind == .conflict && $0.message.contains("both set") })
        #expect(found.contains { $0.kind == .unknownReference && $0.message.contains("is the application") })
        let resignWithoutBecome = baseLayout.replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\ncan_resign_first_responder = false")
        check(
            singleIssue(resignWithoutBecome), kind: .conflict, keyPath: "view[1].can_resign_first_responder",
            line: line(of: "can_resign_first_responder", in: resignWithoutBecome), mentions: ["has no effect without can_become_first_responder = true"])
        // Nor with can_become_first_responder = false said outright.
        let resignWithBecomeFalse = baseLayout.replacingOccurrences(
            of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\ncan_become_first_responder = false\ncan_resign_first_responder = false")
        check(
            singleIssue(resignWithBecomeFalse), kind: .conflict, keyPath: "view[1].can_resign_first_responder",
            line: line(of: "can_resign_first_responder", in: resignWithBecomeFalse), mentions: ["has no effect without can_become_first_responder = true"])
        let bothTrue = baseLayout.replacingOccurrences(
            of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\ncan_become_first_responder = true\ncan_resign_first_responder = false")
        #expect(issues(bothTrue).isEmpty)
        let alias = baseLayout.replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\ncanBecomeFirstResponder = true")
        check(
            singleIssue(alias), kind: .unknownKey, keyPath: "view[1].canBecomeFirstResponder", line: line(of: "canBecomeFirstResponder", in: alias),
            mentions: [#"did you mean "can_become_first_responder"?"#])
    }

    @Test func keyDevicesAndAccelerometers() throws {
        let text = baseLayout + """
            [[device]]
            match.kind = "keys"

            [[device]]
            match.kind = "accelerometer"
            window = "main"
            shake_threshold_g = 1.5
            shake_duration = 0.5

            """
        let document = try load(text)
        #expect(document.devices.map(\.match.kind) == [.keys, .accelerometer])
        #expect(document.devices[0].window == "", "no window: the key window")
        #expect(document.devices[1].shake == ShakeSpec(thresholdG: 1.5, minimumDuration: 0.5, settle: 0.25))
        let touchWithoutWindow = baseLayout + """
            [[device]]
            match.kind = "touchscreen"

            """
        check(singleIssue(touchWithoutWindow), kind: .missingKey, keyPath: "device[0].window", line: line(of: "[[device]]", in: touchWithoutWindow), mentions: ["missing required key"])
        let shakeOnKeys = baseLayout + """
            [[device]]
            match.kind = "keys"
            shake_duration = 0

            """
        let found = issues(shakeOnKeys)
        #expect(found.map(\.kind) == [.invalidValue, .conflict], "\(found)")
        #expect(found.allSatisfy { $0.keyPath == "device[0].shake_duration" && $0.line == line(of: "shake_duration", in: shakeOnKeys) })
        #expect(found.last?.message.contains(#"only goes with match.kind = "accelerometer""#) == true)
    }
}
