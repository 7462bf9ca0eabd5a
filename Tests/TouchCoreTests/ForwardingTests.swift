import Testing
import TouchCore

/// What goes on to a window's virtual touchscreen (`forward`): per touch, by the window's and
/// views' modes, the handlers and controls that take touches, and the recognizers that claim them
/// (cancelling a touch already forwarded) or hold them back (forwarding it only once they fail).
@Suite struct ForwardingTests {
    /// A 1000 × 1000 window (4 points per millimetre): `app` fills it, `corner` sits in its top
    /// left (a sibling above it), `child` inside `app` at the bottom right.
    func tree() -> ViewTree {
        makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { tree in
            try tree.addView("app", parent: "window", view(rect(0, 0, 1000, 1000)))
            try tree.addView("child", parent: "app", view(rect(800, 800, 200, 200)))
            try tree.addView("corner", parent: "window", view(rect(0, 0, 100, 100)))
        }
    }

    func application(
        modes: [ResponderID: ForwardMode] = ["app": .unclaimed], handlers: [Handler] = [], recognizers: [GestureRecognizerSpec] = [],
        controls: [ControlSpec] = []
    ) -> Application {
        var app = Application(tree: tree(), handlers: HandlerTable(handlers), gestureRecognizers: recognizers, controls: controls)
        app.forwardModes = modes
        return app
    }

    /// Each forwarded step as `touch phase x,y`.
    func steps(_ reports: [DispatchReport]) -> [String] {
        reports.flatMap(\.forwarded).map { "\($0.touch) \($0.phase.rawValue) \(Int($0.location.x)),\(Int($0.location.y))" }
    }

    /// A finger down at (x, y), moved 100 points right, lifted.
    func drag(_ app: inout Application, id: UInt64 = 1, x: Double, y: Double, t: Double = 1) -> [DispatchReport] {
        app.send(frame(t, contact(id, .began, x, y))) + app.send(frame(t + 0.05, contact(id, .moved, x + 100, y)))
            + app.send(frame(t + 0.1, contact(id, .ended, x + 100, y)))
    }

    @Test func aTouchNothingTakesGoesOnWhereItsViewForwardsUnclaimedTouches() {
        var app = application()
        #expect(steps(drag(&app, x: 500, y: 500)) == ["1 began 500,500", "1 moved 600,500", "1 ended 600,500"])
        #expect(app.forwardingWindows == ["window"])
    }

    @Test func aSubviewHasItsSuperviewsModeAndAWindowItsOwn() {
        var app = application()
        #expect(steps(drag(&app, x: 850, y: 850)) == ["1 began 850,850", "1 moved 950,850", "1 ended 950,850"], "child has app's mode")
        #expect(steps(drag(&app, id: 2, x: 10, y: 10, t: 2)).isEmpty, "corner is not app's subview; the window forwards nothing")
        var windowWide = application(modes: ["window": .unclaimed, "corner": ForwardMode.none])
        #expect(steps(drag(&windowWide, x: 10, y: 10)).isEmpty, "a view's none keeps its subtree's touches")
        #expect(steps(drag(&windowWide, id: 2, x: 500, y: 500, t: 2)).count == 3)
    }

    @Test func nothingGoesOnByDefault() {
        var app = application(modes: [:])
        #expect(steps(drag(&app, x: 500, y: 500)).isEmpty)
        #expect(app.forwardingWindows.isEmpty)
        #expect(!app.forwardsTouches)
    }

    @Test func aTouchOnNoViewGoesOnWhereTheWindowForwards() {
        var app = Application(tree: makeTree(size: Size(width: 1000, height: 1000), ppm: 4) { _ in })
        app.forwardModes = ["window": .unclaimed]
        #expect(steps(drag(&app, x: 500, y: 500)) == ["1 began 500,500", "1 moved 600,500", "1 ended 600,500"])
    }

    @Test(arguments: [true, false])
    func aHandlerThatConsumesTheBeganKeepsTheTouch(consumes: Bool) {
        var app = application(handlers: [Handler(responder: "app", trigger: .touchesBegan, action: "mine", passesOn: !consumes)])
        let forwarded = steps(drag(&app, x: 500, y: 500))
        #expect(forwarded == (consumes ? [] : ["1 began 500,500", "1 moved 600,500", "1 ended 600,500"]))
    }

    @Test func aControlKeepsItsTouches() {
        var app = application(controls: [ControlSpec(view: "child", kind: .button)])
        #expect(steps(drag(&app, x: 850, y: 850)).isEmpty)
    }

    /// `cancels_touches_in_view` (UIKit's default): forwarded at once, cancelled when the
    /// recognizer wins; nothing more of it goes on.
    @Test func aRecognizerThatClaimsATouchCancelsItOnTheVirtualTouchscreen() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")
        var app = application(recognizers: [hold])
        var reports = app.send(frame(1, contact(1, .began, 500, 500)))
        #expect(steps(reports) == ["1 began 500,500"])
        reports = [app.advanceTime(to: 1.6)].compactMap { $0 }
        #expect(reports.flatMap(\.gestures).map(\.state) == [.began])
        #expect(steps(reports) == ["1 cancelled 500,500"])
        reports = app.send(frame(1.7, contact(1, .moved, 501, 500))) + app.send(frame(1.8, contact(1, .ended, 501, 500)))
        #expect(steps(reports).isEmpty)
    }

    /// A recognizer that fails lets a forwarded touch go on to its end.
    @Test func aTouchARecognizerLetsGoGoesOnToItsEnd() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")
        var app = application(recognizers: [hold])
        #expect(steps(drag(&app, x: 500, y: 500)) == ["1 began 500,500", "1 moved 600,500", "1 ended 600,500"])
    }

    /// `delays_touches_began`: nothing goes on while the recognizer may still claim the touch;
    /// when it fails, the touch lands where it began and goes on from there.
    @Test func aDelayingRecognizerHoldsTheTouchBackUntilItFails() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), delaysTouchesBegan: true, action: "held")
        var app = application(recognizers: [hold])
        var reports = app.send(frame(1, contact(1, .began, 500, 500)))
        #expect(steps(reports).isEmpty)
        reports = app.send(frame(1.05, contact(1, .moved, 600, 500)))
        #expect(reports.flatMap(\.gestures).map(\.state) == [.failed])
        #expect(steps(reports) == ["1 began 500,500", "1 moved 600,500"])
        reports = app.send(frame(1.1, contact(1, .ended, 600, 500)))
        #expect(steps(reports) == ["1 ended 600,500"])
    }

    @Test func aDelayingRecognizerThatWinsForwardsNothing() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), delaysTouchesBegan: true, action: "held")
        var app = application(recognizers: [hold])
        var reports = app.send(frame(1, contact(1, .began, 500, 500)))
        reports += [app.advanceTime(to: 1.6)].compactMap { $0 }
        reports += app.send(frame(1.7, contact(1, .ended, 500, 500)))
        #expect(reports.flatMap(\.gestures).map(\.state).first == .began)
        #expect(steps(reports).isEmpty)
    }

    /// A held touch that ends before its recognizer fails lands and lifts at once.
    @Test func aHeldTouchThatEndsBeforeItsRecognizerFailsLandsAndLiftsTogether() {
        let double = GestureRecognizerSpec(id: "double", view: "app", kind: .tap(taps: 2, touches: 1), delaysTouchesBegan: true)
        var app = application(recognizers: [double])
        var reports = app.send(frame(1, contact(1, .began, 500, 500))) + app.send(frame(1.05, contact(1, .ended, 500, 500)))
        #expect(steps(reports).isEmpty, "the double tap may still come")
        reports = [app.advanceTime(to: 5)].compactMap { $0 }
        #expect(steps(reports) == ["1 began 500,500", "1 ended 500,500"])
    }

    @Test func everyTouchGoesOnWhereTheModeIsAllWhateverTouchdDoesWithIt() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")
        var app = application(
            modes: ["app": .all], handlers: [Handler(responder: "app", trigger: .touchesBegan, action: "mine", passesOn: false)],
            recognizers: [hold])
        var reports = app.send(frame(1, contact(1, .began, 500, 500)))
        reports += [app.advanceTime(to: 1.6)].compactMap { $0 }
        reports += app.send(frame(1.7, contact(1, .moved, 510, 500))) + app.send(frame(1.8, contact(1, .ended, 510, 500)))
        #expect(reports.flatMap(\.actions).map(\.name).contains("held"))
        #expect(steps(reports) == ["1 began 500,500", "1 moved 510,500", "1 ended 510,500"])
    }

    @Test func aForwardedTouchWhoseViewIsRemovedIsCancelled() throws {
        var app = application()
        _ = app.send(frame(1, contact(1, .began, 500, 500)))
        let report = try app.removeView("app", timestamp: 1.1)
        #expect(steps([report].compactMap { $0 }) == ["1 cancelled 500,500"])
    }

    /// A touch whose began a recognizer holds back, cancelled before the recognizer fails (its
    /// device goes, its view is removed): the views get its late began and its cancellation, but
    /// nothing of it ever went on, and nothing goes on now.
    @Test(arguments: [false, true])
    func aHeldTouchCancelledBeforeItsRecognizerFailsNeverGoesOn(removingTheView: Bool) throws {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), delaysTouchesBegan: true, action: "held")
        var app = application(recognizers: [hold])
        var reports = app.send(frame(1, contact(1, .began, 500, 500)))
        reports += [removingTheView ? try app.removeView("app", timestamp: 1.1) : app.cancelTouches(ofDevice: "dev", timestamp: 1.1)]
            .compactMap { $0 }
        reports += [app.advanceTime(to: 5)].compactMap { $0 }
        #expect(steps(reports).isEmpty)
    }

    /// A removed view's `forward` goes with it: a view added later under its name has its
    /// superview's mode, and a window whose last forwarding view went forwards nothing.
    @Test func aRemovedViewsModeGoesWithIt() throws {
        var app = application(modes: ["app": .unclaimed, "child": ForwardMode.none])
        _ = try app.removeView("child", timestamp: 1)
        try app.addView("child", parent: "app", view(rect(800, 800, 200, 200)))
        #expect(steps(drag(&app, x: 850, y: 850, t: 2)).count == 3, "the new child has app's mode")
        _ = try app.removeView("app", timestamp: 3)
        #expect(app.forwardModes.isEmpty)
        #expect(app.forwardsTouches == false)
        #expect(app.forwardingWindows.isEmpty)
    }

    @Test func cancellingEveryTouchCancelsTheForwardedOnes() {
        var app = application()
        _ = app.send(frame(1, contact(1, .began, 500, 500), contact(2, .began, 10, 10)))
        let report = app.cancelAllTouches(timestamp: 2)
        #expect(steps([report].compactMap { $0 }) == ["1 cancelled 500,500"])
    }

    @Test func aForwardedTouchCarriesItsSizeAndForce() {
        var app = application()
        let reports = app.send(
            frame(1, InputContact(id: 1, phase: .began, location: Point(x: 500, y: 500), majorRadius: 4, force: 0.5, maximumPossibleForce: 2)))
        let touch = reports.flatMap(\.forwarded).first
        #expect(touch?.majorRadius == 4)
        #expect(touch?.force == 0.5)
        #expect(touch?.maximumPossibleForce == 2)
        #expect(touch?.window == "window")
        #expect(touch?.timestamp == 1)
    }
}
