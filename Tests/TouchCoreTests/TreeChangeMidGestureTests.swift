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
}
