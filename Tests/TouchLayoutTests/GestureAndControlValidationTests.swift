import Testing

import TouchCore
@testable import TouchLayout

/// Validation of `[[gesture]]` and `[[control]]` entries beyond their types: keys that belong to
/// another kind, a slider's value outside its range, cycles of `requires_failure_of`, `hit_test = "none"`.
@Suite(.timeLimit(.minutes(10))) struct GestureAndControlValidationTests {
    @Test func aGestureKeyOfAnotherKindIsRefusedWithWhatTheKindTakes() {
        let text = baseLayout + """

            [[gesture]]
            id = "t"
            view = "a"
            kind = "tap"
            taps = 2
            scale = 1.5
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "gesture[0].scale", line: line(of: "scale = 1.5", in: text),
            mentions: [#""scale" does not apply to a tap gesture"#, #"expected only "taps", "touches""#])
    }

    @Test(arguments: [
        ("pinch", "touches = 2", "touches", #""scale""#),
        ("pan", "directions = [\"left\"]", "directions", #""min_touches", "max_touches", "threshold_mm""#),
        ("rotation", "duration = 1", "duration", #""angle_degrees""#),
        ("long_press", "taps = 2", "taps", #""touches", "duration", "movement_mm""#),
        ("swipe", "angle_degrees = 10", "angle_degrees", #""directions", "touches", "distance_mm", "max_duration""#),
    ])
    func everyKindTakesOnlyItsOwnKeys(kind: String, line extra: String, key: String, accepted: String) {
        let text = baseLayout + """

            [[gesture]]
            id = "g"
            view = "a"
            kind = "\(kind)"
            \(extra)
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "gesture[0].\(key)", line: line(of: extra, in: text),
            mentions: ["\"\(key)\" does not apply to a \(kind) gesture", "expected only \(accepted)"])
    }

    @Test func theKeysOfTheKindItselfAreAccepted() {
        let text = baseLayout + """

            [[gesture]]
            id = "g"
            view = "a"
            kind = "swipe"
            touches = 2
            directions = ["left"]
            distance_mm = 5
            max_duration = 0.3
            """
        #expect(issues(text).isEmpty, "\(issues(text))")
    }

    @Test(arguments: [
        ("slider", "on = true", "on", #"a slider takes only "min", "max", "value", "step", "continuous""#),
        ("button", "value = 5", "value", "a button takes no key of its own"),
        ("toggle", "continuous = false", "continuous", #"a toggle takes only "on""#),
        ("button", "step = 1", "step", "a button takes no key of its own"),
        ("toggle", "min = 3", "min", #"a toggle takes only "on""#),
    ])
    func aControlKeyOfAnotherKindIsRefused(kind: String, line extra: String, key: String, accepted: String) {
        let text = baseLayout + """

            [[control]]
            view = "a"
            kind = "\(kind)"
            \(extra)
            """
        check(
            singleIssue(text), kind: .conflict, keyPath: "control[0].\(key)", line: line(of: extra, in: text),
            mentions: ["\"\(key)\" does not apply to a \(kind)", accepted])
    }

    @Test func aSliderValueOutsideItsRangeIsRefused() {
        let text = baseLayout + """

            [[control]]
            view = "a"
            kind = "slider"
            min = 0
            max = 100
            value = 150
            """
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "control[0].value", line: line(of: "value = 150", in: text),
            mentions: ["value 150.0 is outside the slider's range", "expected a number from 0.0 to 100.0"])
        #expect(issues(text.replacingOccurrences(of: "value = 150", with: "value = 100")).isEmpty)
    }

    @Test func aSlidersStepAndContinuousAreReadAndAStepMustBePositive() throws {
        let text = baseLayout + """

            [[control]]
            view = "a"
            kind = "slider"
            max = 10
            step = 0.5
            continuous = false
            """
        let document = try load(text)
        #expect(document.controls.first?.kind == .slider(minimum: 0, maximum: 10, value: 0, step: 0.5, isContinuous: false))
        let zero = text.replacingOccurrences(of: "step = 0.5", with: "step = 0")
        check(
            singleIssue(zero), kind: .invalidValue, keyPath: "control[0].step", line: line(of: "step = 0", in: zero),
            mentions: ["expected a finite number above 0 to 1000000000000"])
        let uikit = text.replacingOccurrences(of: "continuous = false", with: "isContinuous = false")
        #expect(singleIssue(uikit)?.message.contains(#"did you mean "continuous"?"#) == true)
    }

    @Test func aSliderWithoutAValueStartsInsideItsRange() throws {
        for (range, start) in [("min = 5\nmax = 10", 5.0), ("min = -10\nmax = -5", -5.0), ("min = -1\nmax = 1", 0.0)] {
            let text = baseLayout + "\n[[control]]\nview = \"a\"\nkind = \"slider\"\n" + range + "\n"
            guard case .slider(_, _, let value, _, _) = try load(text).controls.first?.kind else { return #expect(Bool(false)) }
            #expect(value == start, "\(range)")
        }
    }

    @Test func gesturesThatRequireEachOtherToFailAreACycle() {
        let text = baseLayout + """

            [[gesture]]
            id = "a.tap"
            view = "a"
            kind = "tap"
            requires_failure_of = ["b.tap"]

            [[gesture]]
            id = "b.tap"
            view = "a"
            kind = "tap"
            requires_failure_of = ["a.tap"]
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "gesture[0].requires_failure_of[0]",
            line: line(of: #"requires_failure_of = ["b.tap"]"#, in: text),
            mentions: [#"gestures "a.tap" → "b.tap" → "a.tap" each require the next to fail"#, "expected requires_failure_of without a cycle"])
    }

    @Test func aLongerCycleIsReportedOnceAtItsFirstGesture() {
        let text = baseLayout + """

            [[gesture]]
            id = "x"
            view = "a"
            kind = "tap"

            [[gesture]]
            id = "one"
            view = "a"
            kind = "tap"
            requires_failure_of = ["x", "two"]

            [[gesture]]
            id = "two"
            view = "a"
            kind = "pan"
            requires_failure_of = ["three"]

            [[gesture]]
            id = "three"
            view = "a"
            kind = "pinch"
            requires_failure_of = ["one", "x"]
            """
        check(
            singleIssue(text), kind: .cycle, keyPath: "gesture[1].requires_failure_of[1]",
            line: line(of: #"requires_failure_of = ["x", "two"]"#, in: text),
            mentions: [#""one" → "two" → "three" → "one""#])
        // A chain without a loop is fine.
        #expect(issues(text.replacingOccurrences(of: #"requires_failure_of = ["one", "x"]"#, with: #"requires_failure_of = ["x"]"#)).isEmpty)
    }

    @Test func hitTestNoneIsAPolicy() throws {
        let text = baseLayout.replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nhit_test = \"none\"")
        let document = try load(text)
        #expect(document.view("a")?.hitTestPolicy == .refuse)
        #expect(document.view("a")?.properties.hitTestPolicy == .refuse)
        let bad = baseLayout.replacingOccurrences(of: "frame = [10, 10, 100, 100]", with: "frame = [10, 10, 100, 100]\nhit_test = \"nothing\"")
        check(
            singleIssue(bad), kind: .invalidValue, keyPath: "view[1].hit_test", line: line(of: "hit_test", in: bad),
            mentions: [#""none""#])
    }
}
