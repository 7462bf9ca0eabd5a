import Testing
import TouchCore

/// Recognizers' state changes, traced on request as `from → input → to`.
@Suite(.timeLimit(.minutes(10))) struct GestureTraceTests {
    @Test func aSingleTapWaitingForADoubleTapIsTracedStepByStep() {
        let double = GestureRecognizerSpec(id: "double", view: "orange", kind: .tap(taps: 2, touches: 1), action: "double")
        let single = GestureRecognizerSpec(
            id: "single", view: "orange", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [double, single])
        #expect(!app.tracesGestureTransitions, "off unless asked")
        _ = app.send(frame(1, contact(1, .began, 70, 150)))
        #expect(app.takeGestureTransitions().isEmpty, "nothing recorded unless asked")
        _ = app.send(frame(1.06, contact(1, .ended, 70, 150)))
        _ = app.advanceTime(to: 2)

        app.tracesGestureTransitions = true
        _ = app.send(frame(3, contact(2, .began, 70, 150)))
        _ = app.send(frame(3.06, contact(2, .ended, 70, 150)))
        _ = app.advanceTime(to: 4)
        // Both machines count the tap; the single tap holds its recognition until the double tap's
        // timer fails it (its machine keeps the tap it counted), then commits; both reset once
        // their touch has gone.
        let tapping = "tapping(completed: 0, first: nil, start: 3.0, fingers: 1)"
        let done = "done(taps: 1, first: (70, 150))"
        let between = "between(completed: 1, first: (70, 150), lift: 3.06)"
        let trace = app.takeGestureTransitions()
        #expect(
            trace.map(\.description) == [
                "double: possible idle → touches 2 began → possible \(tapping)",
                "single: possible idle → touches 2 began → possible \(tapping)",
                "double: possible \(tapping) → touches 2 ended → possible \(between)",
                "single: possible \(tapping) → touches 2 ended → possible \(done)",
                "single: possible \(done) → hold recognized → possible(holding recognized) \(done)",
                "double: possible \(between) → fail → failed \(between)",
                "single: possible(holding recognized) \(done) → commit recognized → recognized \(done)",
                "double: failed \(between) → reset → possible idle",
                "single: recognized \(done) → reset → possible idle",
            ])
        #expect(trace.map(\.timestamp) == [3, 3, 3.06, 3.06, 3.06, 3.06 + 0.35, 3.06 + 0.35, 4, 4], "the resets at the time asked")
        #expect(app.takeGestureTransitions().isEmpty, "taken once")
    }
}
