import Testing
import TouchCore

/// The tree changing while touches are down and recognizers are deciding: nothing is left waiting
/// for a recognizer that is gone, and every responder that saw a touch begin sees it finish once.
@Suite(.timeLimit(.minutes(10))) struct TreeChangeMidGestureTests {
    /// A 1000 × 1000 window: view `v` fills it, its subview `c` covers the left part, `d` the right.
    func tree() -> ViewTree {
        makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { tree in
            try tree.addView("v", parent: "window", view(rect(0, 0, 1000, 1000)))
            try tree.addView("c", parent: "v", view(rect(0, 0, 400, 1000)))
            try tree.addView("d", parent: "v", view(rect(600, 0, 400, 1000)))
        }
    }

    func tap(_ app: inout Application, id: UInt64, at x: Double, _ y: Double, t: Double) -> [DispatchReport] {
        app.send(frame(t, contact(id, .began, x, y))) + app.send(frame(t + 0.05, contact(id, .ended, x, y)))
    }

    func states(_ reports: [DispatchReport], of recognizer: ResponderID) -> [GestureState] {
        reports.flatMap(\.gestures).filter { $0.recognizer == recognizer }.map(\.state)
    }

    /// A single tap on `v` waits for a double tap on `c` to fail; `c` (and its double tap) is
    /// removed while it waits: the single tap goes ahead, as when the double tap fails, and is
    /// ready for the next tap.
    @Test func aRecognizerWaitingForOneThatIsRemovedGoesAhead() throws {
        let single = GestureRecognizerSpec(id: "single", view: "v", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        let double = GestureRecognizerSpec(id: "double", view: "c", kind: .tap(taps: 2, touches: 1), action: "double")
        var app = Application(tree: tree(), gestureRecognizers: [single, double])
        #expect(tap(&app, id: 1, at: 100, 500, t: 1).flatMap(\.actions).isEmpty, "the single tap waits")
        let removal = try app.removeView("c", timestamp: 1.1)
        #expect(removal.map { states([$0], of: "single") } == [.recognized])
        #expect(app.flushTimers() == nil)
        #expect(app.gestureState(of: "single") == .possible)
        let next = tap(&app, id: 2, at: 700, 500, t: 2)
        #expect(states(next, of: "single") == [.recognized])
    }

    /// The same with the touches on two views: a finger tapped `d` (its double tap waits for a
    /// second tap), another tapped `c`, whose single tap waits for `d`'s double tap. `d` goes:
    /// `c`'s single tap goes ahead and `c` gets its held `touchesEnded`.
    @Test func aViewWhoseEndWasHeldByARecognizerWaitingForARemovedOneGetsIt() throws {
        let single = GestureRecognizerSpec(id: "single", view: "c", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        let double = GestureRecognizerSpec(id: "double", view: "d", kind: .tap(taps: 2, touches: 1), action: "double")
        var app = Application(tree: tree(), gestureRecognizers: [single, double])
        var reports = tap(&app, id: 1, at: 700, 500, t: 1)
        reports += tap(&app, id: 2, at: 100, 500, t: 1.1)
        #expect(!reports.flatMap(\.calls).contains { $0.responder == "c" && $0.trigger == .touchesEnded }, "held")
        let removal = try #require(try app.removeView("d", timestamp: 1.2))
        #expect(states([removal], of: "single") == [.recognized])
        reports = [removal] + (app.flushTimers().map { [$0] } ?? [])
        let finals = reports.flatMap(\.calls).filter { $0.responder == "c" && $0.trigger != .touchesBegan }
        #expect(finals.map(\.trigger) == [.touchesCancelled], "the single tap took the touch: its end is a cancellation")
        #expect(finals.first?.touches == [2])
    }

    /// A double tap on `v` holds the first tap's end (`delays_touches_ended`) when `v` is removed
    /// with another finger down in it: both touches are cancelled for the views, in the removal's
    /// report, and both are cancelled on the virtual touchscreen they went on to.
    @Test func aRemovalCancelsHeldAndLiveTouchesInOneReport() throws {
        let double = GestureRecognizerSpec(id: "double", view: "c", kind: .tap(taps: 2, touches: 1))
        var app = Application(
            tree: tree(), handlers: HandlerTable([Handler(responder: "v", trigger: .touchesCancelled, action: "v.cancelled")]),
            gestureRecognizers: [double])
        app.forwardModes = ["v": .unclaimed]
        _ = tap(&app, id: 1, at: 100, 500, t: 1)
        _ = app.send(frame(1.1, contact(2, .began, 700, 500)))
        let removal = try #require(try app.removeView("v", timestamp: 1.2))
        let cancels = removal.calls.filter { $0.responder == "v" && $0.trigger == .touchesCancelled }
        #expect(cancels.flatMap(\.touches).sorted() == [1, 2])
        #expect(removal.actions.map(\.name) == ["v.cancelled", "v.cancelled"])
        #expect(removal.forwarded.map(\.touch).sorted() == [1, 2])
        #expect(removal.forwarded.allSatisfy { $0.phase == .cancelled })
        #expect(app.flushTimers() == nil)
    }

    /// Every touch is cancelled (a reload, a stop) while a double tap holds the first tap's end:
    /// the views that saw it begin get its cancellation now, since the application is let go
    /// after this and no timer of its will fire.
    @Test func cancellingEveryTouchCancelsTheHeldEndsToo() throws {
        let double = GestureRecognizerSpec(id: "double", view: "v", kind: .tap(taps: 2, touches: 1))
        var app = Application(
            tree: tree(),
            handlers: HandlerTable([
                Handler(responder: "c", trigger: .touchesEnded, action: "c.ended"),
                Handler(responder: "c", trigger: .touchesCancelled, action: "c.cancelled"),
            ]),
            gestureRecognizers: [double])
        app.forwardModes = ["v": .unclaimed]
        _ = tap(&app, id: 1, at: 100, 500, t: 1)
        let cancelled = app.cancelAllTouches(timestamp: 1.1)
        let report = try #require(cancelled)
        #expect(report.actions.map(\.name) == ["c.cancelled"])
        #expect(report.forwarded.map(\.phase) == [.cancelled])
        #expect(app.flushTimers()?.actions.isEmpty ?? true, "and nothing more")
    }
}
