import Testing
import TouchCore

/// Arbitration between recognizers and with controls, and what a recognizer's records carry.
@Suite(.timeLimit(.minutes(10))) struct GestureArbitrationTests {
    /// A 1000 × 1000 window: view `v` fills it, its subview `c` covers the left part.
    func treeWithChild(_ change: (inout ViewProperties) -> Void = { _ in }) -> ViewTree {
        makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { tree in
            try tree.addView("v", parent: "window", view(rect(0, 0, 1000, 1000), change))
            try tree.addView("c", parent: "v", view(rect(0, 0, 400, 1000)))
        }
    }

    func tap(_ app: inout Application, at x: Double, _ y: Double, t: Double) -> [DispatchReport] {
        let id = UInt64((t * 1000).rounded())
        return app.send(frame(t, contact(id, .began, x, y))) + app.send(frame(t + 0.05, contact(id, .ended, x, y)))
    }

    func states(_ reports: [DispatchReport], of recognizer: ResponderID) -> [GestureState] {
        reports.flatMap(\.gestures).filter { $0.recognizer == recognizer }.map(\.state)
    }

    /// UIKit's `delaysTouchesEnded`: a recognized double tap cancels the first tap's held
    /// `touchesEnded` rather than deliver it, even when a single tap waiting for the double tap to
    /// fail fails at the same moment (its failing must not release the held call first).
    @Test(arguments: [true, false])
    func aRecognizedDoubleTapCancelsTheFirstTapsHeldEnd(withSingleTap: Bool) {
        let double = GestureRecognizerSpec(id: "double", view: "v", kind: .tap(taps: 2, touches: 1), action: "double")
        let single = GestureRecognizerSpec(id: "single", view: "v", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        var app = Application(
            tree: treeWithChild(),
            handlers: HandlerTable([
                Handler(responder: "v", trigger: .touchesEnded, action: "v.ended"),
                Handler(responder: "v", trigger: .touchesCancelled, action: "v.cancelled"),
            ]),
            gestureRecognizers: withSingleTap ? [double, single] : [double])
        let reports = tap(&app, at: 700, 500, t: 1) + tap(&app, at: 700, 500, t: 1.2)
        #expect(states(reports, of: "double") == [.recognized])
        let viewCalls = reports.flatMap(\.calls).filter { $0.responder == "v" && $0.trigger != .touchesBegan }
        #expect(viewCalls.map(\.trigger) == [.touchesCancelled], "no touchesEnded reaches the view")
        #expect(viewCalls.first?.touches == [1, 2], "both taps' touches, in one call")
        #expect(!reports.flatMap(\.actions).map(\.name).contains("v.ended"))
    }

    // MARK: require-to-fail

    @Test(arguments: [true, false])
    func aRecognizerWaitingForAnotherFailsWhenThatOneRecognizesWhateverTheirOrder(waiterFirst: Bool) {
        let waiter = GestureRecognizerSpec(id: "a", view: "v", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["b"], action: "A")
        let awaited = GestureRecognizerSpec(id: "b", view: "c", kind: .tap(taps: 1, touches: 1), action: "B")
        var app = Application(tree: treeWithChild(), gestureRecognizers: waiterFirst ? [waiter, awaited] : [awaited, waiter])
        var t = 1.0
        // Five taps on c: b recognizes each time, a fails each time and is ready again after each.
        for _ in 0..<5 {
            let reports = tap(&app, at: 100, 500, t: t)
            #expect(states(reports, of: "b") == [.recognized])
            #expect(states(reports, of: "a") == [.failed])
            #expect(reports.flatMap(\.actions).filter { $0.trigger == nil }.map(\.name) == ["B"])
            #expect(app.gestureState(of: "a") == .possible)
            #expect(app.gestureState(of: "b") == .possible)
            t += 1
        }
        // A tap on v outside c: b never sees it, a recognizes at once.
        let outside = tap(&app, at: 700, 500, t: t)
        #expect(states(outside, of: "a") == [.recognized])
        #expect(outside.flatMap(\.actions).map(\.name) == ["A"])
    }

    @Test(arguments: [true, false])
    func aWaitingRecognizerGoesAheadWhenTheOtherFailsWhateverTheirOrder(waiterFirst: Bool) {
        let single = GestureRecognizerSpec(id: "single", view: "v", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        let double = GestureRecognizerSpec(id: "double", view: "c", kind: .tap(taps: 2, touches: 1), action: "double")
        var app = Application(tree: treeWithChild(), gestureRecognizers: waiterFirst ? [single, double] : [double, single])
        #expect(tap(&app, at: 100, 500, t: 1).flatMap(\.actions).isEmpty)
        let late = app.advanceTime(to: 2)
        #expect(late.map { states([$0], of: "double") } == [.failed])
        #expect(late?.actions.map(\.name) == ["single"])
        // Then a real double tap: double recognizes, single fails; both are ready again.
        let reports = tap(&app, at: 100, 500, t: 3) + tap(&app, at: 100, 500, t: 3.2)
        #expect(states(reports, of: "double") == [.recognized])
        #expect(states(reports, of: "single") == [.failed])
        #expect(app.gestureState(of: "single") == .possible)
    }

    @Test func aWaiterWhoseAwaitedPanEndsUndecidedGoesAhead() {
        // The pan never moves far enough: its touches end and it fails quietly; the tap waiting
        // for it must not stay waiting.
        let tapSpec = GestureRecognizerSpec(id: "tap", view: "v", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["pan"], action: "tapped")
        let pan = GestureRecognizerSpec(id: "pan", view: "v", kind: .defaultPan())
        var app = Application(tree: treeWithChild(), gestureRecognizers: [tapSpec, pan])
        let reports = tap(&app, at: 700, 500, t: 1)
        #expect(reports.flatMap(\.actions).map(\.name) == ["tapped"])
        #expect(app.gestureState(of: "tap") == .possible)
        #expect(tap(&app, at: 700, 500, t: 2).flatMap(\.actions).map(\.name) == ["tapped"], "and again")
    }

    // MARK: location

    @Test func everyRecordCarriesWhereItsFingersWere() throws {
        let single = GestureRecognizerSpec(id: "tap", view: "v", kind: .tap(taps: 1, touches: 1))
        let double = GestureRecognizerSpec(id: "double", view: "v", kind: .tap(taps: 2, touches: 1), cancelsTouchesInView: false)
        var app = Application(tree: treeWithChild(), gestureRecognizers: [single])
        let record = try #require(tap(&app, at: 620, 310, t: 1).flatMap(\.gestures).first)
        #expect(record.state == .recognized)
        #expect(record.location == Point(x: 620, y: 310))
        // A double tap that never gets its second tap fails on its timer, after every finger lifted.
        var app2 = Application(tree: treeWithChild(), gestureRecognizers: [double])
        _ = tap(&app2, at: 500, 200, t: 1)
        let failed = try #require(app2.advanceTime(to: 2)?.gestures.first)
        #expect(failed.state == .failed)
        #expect(failed.location == Point(x: 500, y: 200))
        // A long press's end: where the finger lifted.
        let press = GestureRecognizerSpec(id: "press", view: "v", kind: .defaultLongPress())
        var app3 = Application(tree: treeWithChild(), gestureRecognizers: [press])
        _ = app3.send(frame(1, contact(1, .began, 300, 300)))
        _ = app3.send(frame(1.6, contact(1, .moved, 302, 301)))
        let ended = try #require(app3.send(frame(1.7, contact(1, .ended, 303, 301))).flatMap(\.gestures).first)
        #expect(ended.state == .ended)
        #expect(ended.location == Point(x: 303, y: 301))
    }

    @Test func aTwoFingerTapIsLocatedBetweenItsFingers() throws {
        let two = GestureRecognizerSpec(id: "two", view: "v", kind: .tap(taps: 1, touches: 2))
        var app = Application(tree: treeWithChild { $0.isMultipleTouchEnabled = true }, gestureRecognizers: [two])
        _ = app.send(frame(1, contact(1, .began, 500, 100), contact(2, .began, 600, 300)))
        let record = try #require(app.send(frame(1.05, contact(1, .ended, 500, 100), contact(2, .ended, 600, 300))).flatMap(\.gestures).first)
        #expect(record.state == .recognized)
        #expect(record.location == Point(x: 550, y: 200))
    }

    // MARK: multiple touch

    @Test func aPinchWorksOnAViewWithoutMultipleTouch() {
        let pinch = GestureRecognizerSpec(id: "pinch", view: "v", kind: .pinch(threshold: 1.1), action: "pinched")
        var app = Application(tree: treeWithChild(), gestureRecognizers: [pinch])
        let down = app.send(frame(1, contact(1, .began, 500, 500), contact(2, .began, 700, 500)))
        #expect(down.flatMap(\.hits).map(\.delivery) == [.delivered, .multipleTouchDisabled], "the view itself gets one touch")
        let spread = app.send(frame(1.1, contact(1, .moved, 450, 500), contact(2, .moved, 750, 500)))
        #expect(states(spread, of: "pinch") == [.began])
        var scale: Double?
        if case .pinch(let s, _)? = spread.flatMap(\.gestures).first?.values { scale = s }
        #expect(scale == 1.5)
        let up = app.send(frame(1.2, contact(1, .ended, 450, 500), contact(2, .ended, 750, 500)))
        #expect(states(up, of: "pinch") == [.ended])
        #expect((spread + up).flatMap(\.actions).filter { $0.trigger == nil }.map(\.name) == ["pinched", "pinched"])
    }

    @Test func aRotationWorksOnAViewWithoutMultipleTouch() {
        let rotation = GestureRecognizerSpec(id: "rotate", view: "v", kind: .rotation(thresholdRadians: 0.1))
        var app = Application(tree: treeWithChild(), gestureRecognizers: [rotation])
        _ = app.send(frame(1, contact(1, .began, 500, 500), contact(2, .began, 700, 500)))
        let turned = app.send(frame(1.1, contact(1, .moved, 500, 500), contact(2, .moved, 700, 600)))
        #expect(states(turned, of: "rotate") == [.began])
    }

    // MARK: controls

    /// `btn` covers the whole of `v`; `v` carries the recognizers.
    func appWithButton(_ kind: ControlKind, _ gestures: [GestureRecognizerSpec]) -> Application {
        let tree = makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { tree in
            try tree.addView("v", parent: "window", view(rect(0, 0, 1000, 1000)))
            try tree.addView("btn", parent: "v", view(rect(0, 0, 1000, 1000)))
        }
        return Application(
            tree: tree, handlers: HandlerTable([Handler(responder: "v", trigger: .action, action: "pressed", selector: "press")]),
            gestureRecognizers: gestures,
            controls: [ControlSpec(view: "btn", kind: kind, targets: [ControlTarget(event: .touchUpInside, action: "press")])])
    }

    @Test func aButtonKeepsItsSingleTapFromItsSuperviewsTapRecognizer() {
        let single = GestureRecognizerSpec(id: "single", view: "v", kind: .tap(taps: 1, touches: 1), action: "tapped")
        var app = appWithButton(.button, [single])
        let reports = tap(&app, at: 500, 500, t: 1)
        #expect(reports.flatMap(\.actions).map(\.name) == ["pressed"])
        #expect(states(reports, of: "single") == [.failed])
    }

    @Test func aDoubleTapRecognizerOverAButtonStillRecognizes() {
        let double = GestureRecognizerSpec(id: "double", view: "v", kind: .tap(taps: 2, touches: 1), action: "dbl")
        var app = appWithButton(.button, [double])
        let first = tap(&app, at: 500, 500, t: 1)
        #expect(first.flatMap(\.actions).map(\.name) == [], "the button's touch up waits (delaysTouchesEnded)")
        let second = tap(&app, at: 502, 500, t: 1.2)
        #expect(states(second, of: "double") == [.recognized])
        #expect(second.flatMap(\.actions).map(\.name) == ["dbl"])
    }

    @Test func aTwoFingerTapOverAButtonStillRecognizes() {
        let two = GestureRecognizerSpec(id: "two", view: "v", kind: .tap(taps: 1, touches: 2), action: "two")
        var app = appWithButton(.button, [two])
        _ = app.send(frame(1, contact(1, .began, 400, 500), contact(2, .began, 600, 500)))
        let up = app.send(frame(1.05, contact(1, .ended, 400, 500), contact(2, .ended, 600, 500)))
        #expect(states(up, of: "two") == [.recognized])
    }

    @Test func aSliderKeepsHorizontalPansButNotVerticalOnes() {
        let pan = GestureRecognizerSpec(id: "pan", view: "v", kind: .defaultPan(), action: "panned")
        var app = appWithButton(.slider(minimum: 0, maximum: 1, value: 0), [pan])
        _ = app.send(frame(1, contact(1, .began, 100, 500)))
        let along = app.send(frame(1.05, contact(1, .moved, 300, 505)))
        #expect(states(along, of: "pan") == [.failed])
        _ = app.send(frame(1.1, contact(1, .ended, 300, 505)))
        #expect(app.controlValue(of: "btn") == .double(0.3), "the slider followed the finger")
        _ = app.send(frame(2, contact(2, .began, 100, 500)))
        let across = app.send(frame(2.05, contact(2, .moved, 105, 700)))
        #expect(states(across, of: "pan") == [.began])
    }

    @Test func aSliderKeepsHorizontalSwipes() {
        let swipe = GestureRecognizerSpec(
            id: "swipe", view: "v", kind: .swipe(directions: [.left, .right, .up], touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5))
        var app = appWithButton(.slider(minimum: 0, maximum: 1, value: 0), [swipe])
        _ = app.send(frame(1, contact(1, .began, 100, 500)))
        #expect(states(app.send(frame(1.1, contact(1, .moved, 300, 500))), of: "swipe") == [.failed])
        _ = app.send(frame(1.2, contact(1, .ended, 300, 500)))
        _ = app.send(frame(2, contact(2, .began, 500, 500)))
        #expect(states(app.send(frame(2.1, contact(2, .moved, 500, 300))), of: "swipe") == [.recognized])
    }

    @Test func aButtonDoesNotKeepPansFromItsSuperview() {
        let pan = GestureRecognizerSpec(id: "pan", view: "v", kind: .defaultPan())
        var app = appWithButton(.button, [pan])
        _ = app.send(frame(1, contact(1, .began, 100, 500)))
        let moved = app.send(frame(1.05, contact(1, .moved, 300, 500)))
        #expect(states(moved, of: "pan") == [.began])
        #expect(moved.flatMap(\.calls).contains { $0.responder == "btn" && $0.trigger == .touchesCancelled })
    }

    @Test func aRecognizerOnTheControlItselfIsNotHeldBack() {
        let tree = makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { tree in
            try tree.addView("btn", parent: "window", view(rect(0, 0, 1000, 1000)))
        }
        let own = GestureRecognizerSpec(id: "own", view: "btn", kind: .tap(taps: 1, touches: 1), action: "own")
        var app = Application(tree: tree, gestureRecognizers: [own], controls: [ControlSpec(view: "btn", kind: .button)])
        #expect(states(tap(&app, at: 500, 500, t: 1), of: "own") == [.recognized])
    }

    // MARK: construction

    @Test func aRecognizerOrControlOnAnUnknownViewStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let tree = makeTree { _ in }
            _ = Application(tree: tree, gestureRecognizers: [GestureRecognizerSpec(id: "g", view: "nowhere", kind: .tap(taps: 1, touches: 1))])
        }
        await #expect(processExitsWith: .failure) {
            let tree = makeTree { _ in }
            _ = Application(tree: tree, controls: [ControlSpec(view: "nowhere", kind: .button)])
        }
    }
}
