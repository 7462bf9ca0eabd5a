import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct GestureTests {
    /// The seed's instrumented responders plus recognizer actions, as its log prints them.
    func seedLog(_ reports: [DispatchReport]) -> [String] {
        let names: Set<ResponderID> = ["blue", "orange", "ViewController", "app_delegate"]
        return reports.flatMap(\.log).compactMap { entry -> String? in
            switch entry {
            case .call(let call): names.contains(call.responder) ? "\(call.responder) - \(call.trigger.methodName)" : nil
            case .action(let action): action.trigger == nil ? "UITapGestureRecognizer - \(action.name)" : nil
            case .gesture: nil
            }
        }
    }

    /// A 60 ms tap; the contact number comes from the time, so successive taps differ.
    /// A pan record's translation.
    func translation(of record: GestureRecord) -> Point? {
        guard case .pan(let translation, _) = record.values else { return nil }
        return translation
    }

    func tap(_ app: inout Application, at p: Point, t: Double) -> [DispatchReport] {
        let id = UInt64((t * 1000).rounded())
        return app.send(frame(t, contact(id, .began, p.x, p.y))) + app.send(frame(t + 0.06, contact(id, .ended, p.x, p.y)))
    }

    @Test func seed001WholeExperimentInItsExactLogOrder() {
        // Orange has a tap recognizer; a tap on blue: touchesBegan up the chain, the tap, then
        // touchesCancelled up the same chain (cancelsTouchesInView), as the seed's log shows.
        let tapOnOrange = GestureRecognizerSpec(id: "orange.tap", view: "orange", kind: .tap(taps: 1, touches: 1), action: "tap")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [tapOnOrange])
        let reports = tap(&app, at: Point(x: 70, y: 150), t: 1)
        #expect(
            seedLog(reports) == [
                "blue - touchesBegan", "orange - touchesBegan", "ViewController - touchesBegan", "app_delegate - touchesBegan",
                "UITapGestureRecognizer - tap",
                "blue - touchesCancelled", "orange - touchesCancelled", "ViewController - touchesCancelled", "app_delegate - touchesCancelled",
            ])
        #expect(reports.flatMap(\.gestures).map(\.state) == [.recognized])
        #expect(app.gestureState(of: "orange.tap") == .possible, "reset once its touches are done")
        // And again: the recognizer works for the next tap.
        #expect(tap(&app, at: Point(x: 70, y: 150), t: 3).flatMap(\.gestures).map(\.state) == [.recognized])
    }

    @Test func aViewAddedAtRunTimeCannotTakeARecognizersID() throws {
        let spec = GestureRecognizerSpec(id: "orange.tap", view: "orange", kind: .tap(taps: 1, touches: 1), action: "tap")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [spec])
        let frame = ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(throws: ViewTreeError.duplicateID("orange.tap")) { try app.addView("orange.tap", parent: "root", frame) }
        #expect(app.tree.kind(of: "orange.tap") == nil)
        try app.addView("orange.tap.label", parent: "root", frame)
        #expect(app.tree.kind(of: "orange.tap.label") == .view)
    }

    @Test func withoutCancellingTouchesBothTheViewsAndTheRecognizerSeeTheTap() {
        let spec = GestureRecognizerSpec(id: "orange.tap", view: "orange", kind: .tap(taps: 1, touches: 1), cancelsTouchesInView: false, action: "tap")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [spec])
        let log = seedLog(tap(&app, at: Point(x: 70, y: 150), t: 1))
        #expect(log.contains("UITapGestureRecognizer - tap"))
        #expect(log.contains("blue - touchesEnded"))
        #expect(!log.contains("blue - touchesCancelled"))
    }

    @Test func aRecognizerSeesOnlyTouchesOfItsViewAndSubviews() {
        let spec = GestureRecognizerSpec(id: "blue.tap", view: "blue", kind: .tap(taps: 1, touches: 1), action: "tap")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [spec])
        // Green is orange's subview, not blue's.
        #expect(tap(&app, at: Point(x: 230, y: 130), t: 1).flatMap(\.gestures).isEmpty)
        // Red is inside blue.
        #expect(tap(&app, at: Point(x: 140, y: 230), t: 2).flatMap(\.gestures).map(\.state) == [.recognized])
    }

    @Test func aDoubleTapHoldsTheFirstTapsEndAndCancelsItOnRecognition() {
        let double = GestureRecognizerSpec(id: "double", view: "orange", kind: .tap(taps: 2, touches: 1), action: "double")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [double])
        let first = tap(&app, at: Point(x: 70, y: 150), t: 1)
        #expect(seedLog(first) == ["blue - touchesBegan", "orange - touchesBegan", "ViewController - touchesBegan", "app_delegate - touchesBegan"],
                "the first tap's touchesEnded is held (delaysTouchesEnded)")
        let second = tap(&app, at: Point(x: 72, y: 151), t: 1.2)
        let log = seedLog(second)
        #expect(log.contains("UITapGestureRecognizer - double"))
        #expect(!log.contains("blue - touchesEnded"))
        #expect(log.filter { $0 == "blue - touchesCancelled" }.count == 1, "both touches cancelled in one call: \(log)")
        #expect(second.flatMap(\.calls).filter { $0.responder == "blue" && $0.trigger == .touchesCancelled }.map(\.touches) == [[1, 2]])
    }

    @Test func aDoubleTapThatNeverComesFailsAtItsTimeAndReleasesTheHeldEnd() {
        let double = GestureRecognizerSpec(id: "double", view: "orange", kind: .tap(taps: 2, touches: 1), action: "double")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [double])
        _ = tap(&app, at: Point(x: 70, y: 150), t: 1)
        #expect(app.nextDeadline == InputTime(seconds: 1.06) + 0.35)
        #expect(app.advanceTime(to: 1.2) == nil, "nothing due yet")
        let report = app.advanceTime(to: 2)
        #expect(report?.gestures.map(\.state) == [.failed])
        #expect(report?.calls.first == ResponderCall(responder: "blue", trigger: .touchesEnded, touches: [1]))
        #expect(app.nextDeadline == nil)
    }

    @Test func aSingleTapThatRequiresTheDoubleTapToFailWaitsForIt() {
        let double = GestureRecognizerSpec(id: "double", view: "orange", kind: .tap(taps: 2, touches: 1), action: "double")
        let single = GestureRecognizerSpec(id: "single", view: "orange", kind: .tap(taps: 1, touches: 1), requiresFailureOf: ["double"], action: "single")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [double, single])
        let first = tap(&app, at: Point(x: 70, y: 150), t: 1)
        #expect(first.flatMap(\.actions).isEmpty, "single waits for double to fail")
        let late = app.advanceTime(to: 2)
        #expect(late?.actions.map(\.name) == ["single"])
        // A real double tap: double wins, single fails.
        var app2 = Application(tree: seedExperimentTree(), gestureRecognizers: [double, single])
        let reports = tap(&app2, at: Point(x: 70, y: 150), t: 1) + tap(&app2, at: Point(x: 70, y: 150), t: 1.2)
        #expect(reports.flatMap(\.actions).filter { $0.trigger == nil }.map(\.name) == ["double"])
        #expect(reports.flatMap(\.gestures).filter { $0.recognizer == "single" }.map(\.state) == [.failed])
    }

    @Test func aLongPressBeginsOnItsTimerThenChangesAndEnds() {
        let press = GestureRecognizerSpec(id: "press", view: "blue", kind: .defaultLongPress(), action: "press")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [press])
        _ = app.send(frame(1, contact(1, .began, 70, 150)))
        #expect(app.nextDeadline == 1.5)
        let began = app.send(frame(1.6, contact(1, .moved, 72, 150)))
        #expect(began.flatMap(\.gestures).map(\.state) == [.began, .changed])
        #expect(began.flatMap(\.gestures).first?.timestamp == 1.5, "the timer fires at its own time")
        let ended = app.send(frame(1.7, contact(1, .ended, 72, 150)))
        #expect(ended.flatMap(\.gestures).map(\.state) == [.ended])
        #expect((began + ended).flatMap(\.actions).filter { $0.trigger == nil }.map(\.gestureState) == [.began, .ended])
        // Moving too far before the time: it fails.
        var app2 = Application(tree: seedExperimentTree(), gestureRecognizers: [press])
        _ = app2.send(frame(1, contact(1, .began, 70, 150)))
        #expect(app2.send(frame(1.2, contact(1, .moved, 90, 150))).flatMap(\.gestures).map(\.state) == [.failed])
    }

    @Test func aPanReportsTranslationAndCancelsTheViewsTouches() throws {
        let pan = GestureRecognizerSpec(id: "pan", view: "orange", kind: .defaultPan())
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [pan])
        _ = app.send(frame(1, contact(1, .began, 70, 150)))
        #expect(app.send(frame(1.01, contact(1, .moved, 75, 150))).flatMap(\.gestures).isEmpty, "5 points is below 1.6 mm")
        let began = app.send(frame(1.02, contact(1, .moved, 90, 150)))
        let record = try #require(began.flatMap(\.gestures).first)
        #expect(record.state == .began)
        #expect(translation(of: record) == Point(x: 20, y: 0))
        #expect(began.flatMap(\.calls).contains { $0.responder == "blue" && $0.trigger == .touchesCancelled })
        let changed = app.send(frame(1.03, contact(1, .moved, 100, 160)))
        #expect(changed.flatMap(\.calls).isEmpty, "the views get nothing more")
        #expect(app.send(frame(1.04, contact(1, .ended, 100, 160))).flatMap(\.gestures).map(\.state) == [.ended])
    }

    /// UIKit's `maximumNumberOfTouches`: a finger landing on a begun one-finger pan is ignored: the
    /// translation follows the first finger alone, the second reaches the views, and the pan ends
    /// when its own finger lifts.
    @Test func aBegunPanIgnoresFingersPastItsMaximum() throws {
        var tree = seedExperimentTree()
        try tree.updateView("orange") { $0.isMultipleTouchEnabled = true }
        let pan = GestureRecognizerSpec(id: "pan", view: "orange", kind: .defaultPan(maximumTouches: 1))
        var app = Application(tree: tree, gestureRecognizers: [pan])
        app.recordsResponderCalls = true
        _ = app.send(frame(1, contact(1, .began, 70, 150)))
        #expect(app.send(frame(1.02, contact(1, .moved, 90, 150))).flatMap(\.gestures).map(\.state) == [.began])
        let landing = app.send(frame(1.03, contact(1, .moved, 90, 150), contact(2, .began, 150, 250)))
        #expect(landing.flatMap(\.gestures).isEmpty, "a finger landing changes nothing")
        #expect(landing.flatMap(\.calls).contains { $0.trigger == .touchesBegan && $0.touches == [2] }, "the views get the new finger")
        let moving = app.send(frame(1.04, contact(1, .moved, 100, 160), contact(2, .moved, 250, 350)))
        let record = try #require(moving.flatMap(\.gestures).first)
        #expect(record.state == .changed)
        #expect(record.touches == [1])
        #expect(translation(of: record) == Point(x: 30, y: 10))
        #expect(record.location == Point(x: 100, y: 160))
        #expect(moving.flatMap(\.calls).contains { $0.trigger == .touchesMoved && $0.touches == [2] }, "the second finger is not the pan's")
        let lifting = app.send(frame(1.05, contact(1, .ended, 100, 160), contact(2, .moved, 260, 360)))
        #expect(lifting.flatMap(\.gestures).map(\.state) == [.ended])
        let after = app.send(frame(1.06, contact(2, .ended, 260, 360)))
        #expect(after.flatMap(\.gestures).isEmpty)
        #expect(after.flatMap(\.calls).contains { $0.trigger == .touchesEnded && $0.touches == [2] })
    }

    @Test func aSwipeRecognizesItsDirectionOnly() {
        let right = GestureRecognizerSpec(
            id: "swipe", view: "orange", kind: .swipe(directions: .right, touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5), action: "swipe")
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [right])
        _ = app.send(frame(1, contact(1, .began, 40, 200)))
        _ = app.send(frame(1.05, contact(1, .moved, 80, 202)))
        #expect(app.send(frame(1.1, contact(1, .moved, 120, 204))).flatMap(\.gestures).map(\.state) == [.recognized])
        _ = app.send(frame(1.2, contact(1, .ended, 120, 204)))
        _ = app.send(frame(2, contact(2, .began, 200, 200)))
        #expect(app.send(frame(2.1, contact(2, .moved, 120, 200))).flatMap(\.gestures).map(\.state) == [.failed], "a left swipe")
    }

    @Test func pinchAndRotationRecognizeSimultaneouslyWhenAllowed() {
        var tree = seedExperimentTree()
        try? tree.updateView("orange") { $0.isMultipleTouchEnabled = true }
        let pinch = GestureRecognizerSpec(id: "pinch", view: "orange", kind: .pinch(threshold: 1.1), recognizesSimultaneouslyWith: ["rotate"])
        let rotate = GestureRecognizerSpec(id: "rotate", view: "orange", kind: .rotation(thresholdRadians: 0.1))
        var app = Application(tree: tree, gestureRecognizers: [pinch, rotate])
        // Two fingers on orange itself (outside blue, green and black).
        _ = app.send(frame(1, contact(1, .began, 100, 400), contact(2, .began, 200, 400)))
        // Spread and turn: distance 100 → ~156, angle 0 → ~0.45 rad.
        let r = app.send(frame(1.1, contact(1, .moved, 80, 380), contact(2, .moved, 220, 450)))
        let states = Dictionary(grouping: r.flatMap(\.gestures), by: \.recognizer).mapValues { $0.map(\.state) }
        #expect(states["pinch"] == [.began])
        #expect(states["rotate"] == [.began])
        // Without the permission, the first to begin makes the other fail.
        let exclusive = GestureRecognizerSpec(id: "pinch", view: "orange", kind: .pinch(threshold: 1.1))
        var app2 = Application(tree: tree, gestureRecognizers: [exclusive, rotate])
        _ = app2.send(frame(1, contact(1, .began, 100, 400), contact(2, .began, 200, 400)))
        let r2 = app2.send(frame(1.1, contact(1, .moved, 80, 380), contact(2, .moved, 220, 450)))
        #expect(r2.flatMap(\.gestures).map(\.state) == [.began, .failed])
    }

    @Test func delaysTouchesBeganHoldsTheViewsUntilTheRecognizerFails() {
        let press = GestureRecognizerSpec(id: "press", view: "orange", kind: .defaultLongPress(), delaysTouchesBegan: true)
        var app = Application(tree: seedExperimentTree(), gestureRecognizers: [press])
        let down = app.send(frame(1, contact(1, .began, 70, 150)))
        #expect(down.flatMap(\.calls).isEmpty, "began held")
        let up = app.send(frame(1.1, contact(1, .ended, 70, 150)))
        // The press failed (lifted early): the views get the held began, then the end.
        #expect(up.flatMap(\.calls).filter { $0.responder == "blue" }.map(\.trigger) == [.touchesBegan, .touchesEnded])
    }
}

@Suite(.timeLimit(.minutes(10))) struct SeedHitTestNilTests {
    /// Seed 001 part 3: every TestView's `hitTest` returns nil (orange, blue, green, black, red);
    /// orange keeps its tap recognizer and red its button. Tapping blue, orange or the button gives
    /// the same: only "orange - hitTest enter", then the touch goes to the controller's root view,
    /// so only ViewController and AppDelegate log, and neither the recognizer nor the button fires.
    @Test(arguments: [Point(x: 70, y: 150), Point(x: 300, y: 450), Point(x: 140, y: 240)])
    func seed001HitTestReturningNilLeavesOnlyTheControllerAndTheDelegate(point: Point) throws {
        var tree = seedExperimentTree()
        try tree.addView("btn", parent: "red", view(rect(0, 0, 50, 50)))
        for id: ResponderID in ["orange", "blue", "green", "black", "red"] {
            try tree.updateView(id) { $0.hitTestPolicy = .refuse }
        }
        let testViews: Set<ResponderID> = ["orange", "blue", "green", "black", "red"]
        let trace = try #require(tree.hitTest(point, onDisplayOf: "window", traced: true))
        let entered = trace.trace.compactMap { step -> ResponderID? in
            if case .enter = step.kind, testViews.contains(step.view) { return step.view }
            return nil
        }
        #expect(entered == ["orange"], "⭐️ orange - hitTest enter, and nothing else")
        #expect(trace.view == "root")
        let tapOnOrange = GestureRecognizerSpec(id: "orange.tap", view: "orange", kind: .tap(taps: 1, touches: 1), action: "tap")
        var app = Application(
            tree: tree, handlers: HandlerTable([Handler(responder: "ViewController", trigger: .action, action: "button - tap", selector: "tap")]),
            gestureRecognizers: [tapOnOrange], controls: [ControlSpec(view: "btn", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "tap")])])
        let reports = app.send(frame(1, contact(1, .began, point.x, point.y))) + app.send(frame(1.06, contact(1, .ended, point.x, point.y)))
        let instrumented: Set<ResponderID> = ["orange", "blue", "green", "black", "red", "btn", "ViewController", "app_delegate"]
        let log = reports.flatMap(\.log).compactMap { entry -> String? in
            switch entry {
            case .call(let call): instrumented.contains(call.responder) ? "\(call.responder) - \(call.trigger.methodName)" : nil
            case .action(let action): action.name
            case .gesture(let record): "gesture \(record.recognizer) \(record.state)"
            }
        }
        #expect(
            log == ["ViewController - touchesBegan", "app_delegate - touchesBegan", "ViewController - touchesEnded", "app_delegate - touchesEnded"])
    }
}
