import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct ControlTests {
    /// Seed 001's tree with its button: a 50×50 button at red's origin.
    func treeWithButton() -> ViewTree {
        var tree = seedExperimentTree()
        try! tree.addView("btn", parent: "red", view(rect(0, 0, 50, 50)))
        return tree
    }
    // red is at window (20+20+90, 100+20+90) = (130, 230).
    let onButton = Point(x: 140, y: 240)

    func app(_ targets: [ControlTarget], kind: ControlKind = .button, gestures: [GestureRecognizerSpec] = [], handlers: [Handler] = []) -> Application {
        Application(
            tree: treeWithButton(),
            handlers: HandlerTable(handlers + [Handler(responder: "ViewController", trigger: .action, action: "button - tap", selector: "tap")]),
            gestureRecognizers: gestures, controls: [ControlSpec(view: "btn", kind: kind, targets: targets)])
    }

    func events(_ reports: [DispatchReport]) -> [String] {
        reports.flatMap(\.actions).compactMap { $0.control?.event.rawValue }
    }

    @Test func seed001ButtonTapSendsItsActionAndNothingGoesUpTheChain() {
        var a = app([ControlTarget(event: .touchUpInside, action: "tap")])
        let reports = a.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(reports.flatMap(\.actions).map(\.name) == ["button - tap"])
        #expect(reports.flatMap(\.actions).first?.responder == "ViewController", "a nil target walks the chain to the first taker")
        #expect(reports.flatMap(\.calls).map(\.responder) == ["btn", "btn"], "controls do not forward touches")
    }

    /// Seed 001 (按钮的点击事件无效了): a button subclass overriding `touchesBegan` or
    /// `touchesEnded` without calling `super` stops working, since `UIControl` tracks in those
    /// methods. A handler on the control that does not pass the call on is that override.
    @Test(arguments: [HandlerTrigger.touchesBegan, .touchesEnded])
    func aControlWhoseTouchOverrideDoesNotCallSuperSendsNoAction(trigger: HandlerTrigger) {
        let all = ControlEvent.allCases.map { ControlTarget(event: $0, action: "tap") }
        let override = Handler(responder: "btn", trigger: trigger, action: "btn.\(trigger.methodName)", passesOn: false)
        var a = app(all, handlers: [override])
        var reports = a.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        reports += a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        let names = reports.flatMap(\.actions).map(\.name)
        #expect(names.contains("btn.\(trigger.methodName)"), "the override itself runs")
        #expect(!events(reports).contains("touch_up_inside") && !events(reports).contains("primary_action_triggered"), "no action")
        #expect(events(reports).contains("touch_down") == (trigger != .touchesBegan), "touchesBegan's override keeps even the touch down away")
        #expect(reports.flatMap(\.calls).map(\.responder) == ["btn", "btn"], "the touches still go nowhere up the chain")
        // The control is not left tracking a touch it was never told ended: a later tap with the
        // override passing on works again.
        var b = app(all, handlers: [override])
        _ = b.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        _ = b.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(b.controlIsTracking("btn") == false)
    }

    @Test func anOverrideThatCallsSuperKeepsTheControlWorking() {
        let override = Handler(responder: "btn", trigger: .touchesBegan, action: "btn.touchesBegan", passesOn: true)
        var a = app([ControlTarget(event: .touchUpInside, action: "tap")], handlers: [override])
        let reports = a.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(reports.flatMap(\.actions).map(\.name) == ["btn.touchesBegan", "button - tap"])
    }

    @Test func everyTrackingEventInOrder() {
        let all = ControlEvent.allCases.map { ControlTarget(event: $0, action: "tap") }
        var a = app(all)
        var reports = a.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        reports += a.send(frame(1.1, contact(1, .moved, onButton.x + 10, onButton.y)))       // inside
        reports += a.send(frame(1.2, contact(1, .moved, onButton.x + 150, onButton.y)))      // beyond the 70 pt margin
        reports += a.send(frame(1.3, contact(1, .moved, onButton.x + 60, onButton.y)))       // back within the margin
        reports += a.send(frame(1.4, contact(1, .ended, onButton.x + 60, onButton.y)))       // up inside (margin)
        #expect(events(reports) == [
            "touch_down", "touch_drag_inside", "touch_drag_exit", "touch_drag_outside", "touch_drag_enter", "touch_drag_inside",
            "touch_up_inside", "primary_action_triggered",
        ])
        var b = app(all)
        var up = b.send(frame(2, contact(2, .began, onButton.x, onButton.y)))
        up += b.send(frame(2.1, contact(2, .moved, onButton.x + 150, onButton.y)))
        up += b.send(frame(2.2, contact(2, .ended, onButton.x + 150, onButton.y)))
        #expect(events(up).suffix(1) == ["touch_up_outside"])
        var c = app(all)
        _ = c.send(frame(3, contact(3, .began, onButton.x, onButton.y)))
        #expect(events(c.cancelAllTouches(timestamp: 3.1).map { [$0] } ?? []) == ["touch_cancel"])
    }

    @Test func aSecondTapIsATouchDownRepeat() {
        var a = app([ControlTarget(event: .touchDownRepeat, action: "tap")])
        _ = a.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        _ = a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        let second = a.send(frame(1.2, contact(2, .began, onButton.x, onButton.y)))
        #expect(events(second) == ["touch_down_repeat"])
    }

    @Test func aToggleFlipsAndASliderFollowsTheFinger() {
        var toggle = app([ControlTarget(event: .valueChanged, action: "tap")], kind: .toggle(isOn: false))
        _ = toggle.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        let flipped = toggle.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(toggle.controlValue(of: "btn") == .bool(true))
        #expect(flipped.flatMap(\.actions).first?.control?.value == .bool(true))
        var slider = app([ControlTarget(event: .valueChanged, action: "tap")], kind: .slider(minimum: 0, maximum: 100, value: 0))
        _ = slider.send(frame(1, contact(1, .began, 130 + 10, onButton.y)))
        #expect(slider.controlValue(of: "btn") == .double(20))
        _ = slider.send(frame(1.1, contact(1, .moved, 130 + 40, onButton.y)))
        #expect(slider.controlValue(of: "btn") == .double(80))
        _ = slider.send(frame(1.2, contact(1, .moved, 130 + 400, onButton.y)))
        #expect(slider.controlValue(of: "btn") == .double(100), "clamped to its range")
    }

    @Test func aControlBeatsItsSuperviewsSingleTapRecognizerWhateverItDoesWithTheViewsTouches() {
        // UIControl.gestureRecognizerShouldBegin: the superview's one-finger single tap fails.
        let tap = GestureRecognizerSpec(id: "orange.tap", view: "orange", kind: .tap(taps: 1, touches: 1), action: "orange-tap")
        var a = app([ControlTarget(event: .touchUpInside, action: "tap")], gestures: [tap])
        let r = a.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(r.flatMap(\.actions).map(\.name) == ["button - tap"])
        #expect(r.flatMap(\.gestures).map(\.state) == [.failed])
        var both = tap
        both.cancelsTouchesInView = false
        var b = app([ControlTarget(event: .touchUpInside, action: "tap")], gestures: [both])
        let r2 = b.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + b.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(r2.flatMap(\.actions).map(\.name) == ["button - tap"])
        // The recognizer is ready again: a tap on orange away from the button recognizes.
        let away = b.send(frame(2, contact(2, .began, 300, 450))) + b.send(frame(2.05, contact(2, .ended, 300, 450)))
        #expect(away.flatMap(\.gestures).map(\.state) == [.recognized])
    }

    @Test func aNamedTargetTakesTheActionAndAnUntakenActionReachesClientsAsItIs() {
        var a = Application(
            tree: treeWithButton(),
            handlers: HandlerTable([
                Handler(responder: "green", trigger: .action, action: "green got it", selector: "tap"),
                Handler(responder: "ViewController", trigger: .action, action: "vc got it", selector: "tap"),
            ]),
            controls: [ControlSpec(view: "btn", kind: .button, targets: [
                ControlTarget(event: .touchUpInside, action: "tap", target: "green"),
                ControlTarget(event: .touchUpInside, action: "nobody-takes-this"),
            ])])
        let r = a.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(r.flatMap(\.actions).map(\.name) == ["green got it", "nobody-takes-this"])
        let untaken = r.flatMap(\.actions).last
        #expect(untaken?.responder == nil, "no responder on its chain took it")
        #expect(untaken?.control == ControlActionRecord(control: "btn", event: .touchUpInside, action: "nobody-takes-this", value: nil))
        #expect(untaken?.payload == .object([]))
        #expect(untaken?.trigger == .action && untaken?.view == "btn")
        #expect(r.flatMap(\.anomalies).isEmpty, "an action no responder takes is no anomaly: clients get it")
        #expect(a.statistics.actionsEmitted == 2)
    }

    @Test func aTakenActionCarriesTheHandlersPayloadUntouchedAndTheControlApart() {
        // A payload with the very names of the control's fields: they stay the layout's.
        let payload: JSONValue = .object([("control", "mine"), ("event", "also mine"), ("value", 7)])
        var a = Application(
            tree: treeWithButton(),
            handlers: HandlerTable([Handler(responder: "ViewController", trigger: .action, action: "vc got it", payload: payload, selector: "tap")]),
            controls: [ControlSpec(view: "btn", kind: .toggle(isOn: false), targets: [ControlTarget(event: .valueChanged, action: "tap")])])
        let r = a.send(frame(1, contact(1, .began, onButton.x, onButton.y))) + a.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        let action = try! #require(r.flatMap(\.actions).first)
        #expect(action.payload == payload)
        #expect(action.responder == "ViewController")
        #expect(action.control == ControlActionRecord(control: "btn", event: .valueChanged, action: "tap", value: .bool(true)))
    }

    @Test func aSliderSnapsToItsStepAndOneThatIsNotContinuousTellsItsValueAsTheFingerLifts() {
        // The button is 50 points wide at window x 130: 0 to 100 in steps of 25.
        var stepped = app(
            [ControlTarget(event: .valueChanged, action: "tap")], kind: .slider(minimum: 0, maximum: 100, value: 0, step: 25))
        _ = stepped.send(frame(1, contact(1, .began, 130 + 14, onButton.y)))  // 28 → 25
        #expect(stepped.controlValue(of: "btn") == .double(25))
        let small = stepped.send(frame(1.1, contact(1, .moved, 130 + 15, onButton.y)))  // 30 → 25: unchanged, no event
        #expect(events(small).contains("value_changed") == false)
        _ = stepped.send(frame(1.2, contact(1, .moved, 130 + 49, onButton.y)))  // 98 → 100
        #expect(stepped.controlValue(of: "btn") == .double(100))

        var lazy = app(
            [ControlTarget(event: .valueChanged, action: "tap")], kind: .slider(minimum: 0, maximum: 100, value: 0, isContinuous: false))
        var during = lazy.send(frame(1, contact(1, .began, 130 + 10, onButton.y)))
        during += lazy.send(frame(1.1, contact(1, .moved, 130 + 40, onButton.y)))
        #expect(events(during).isEmpty, "nothing while the finger moves")
        #expect(lazy.controlValue(of: "btn") == .double(80), "the value follows the finger all the same")
        let lifted = lazy.send(frame(1.2, contact(1, .ended, 130 + 40, onButton.y)))
        #expect(events(lifted) == ["value_changed"])
        #expect(lifted.flatMap(\.actions).first?.control?.value == .double(80))
        // Down and up where the value already is: no value_changed at the end.
        _ = lazy.send(frame(2, contact(2, .began, 130 + 40, onButton.y)))
        let same = lazy.send(frame(2.2, contact(2, .ended, 130 + 40, onButton.y)))
        #expect(events(same).isEmpty)
    }

    @Test func sliderValuesSnapToTheNearestStepOrToTheEndOfTheRange() {
        let kind = ControlKind.slider(minimum: 0, maximum: 10, value: 0, step: 3)
        #expect([-5, 1, 1.6, 7.4, 9.4, 9.6, 10, 50].map(kind.sliderValue) == [0, 0, 3, 6, 9, 10, 10, 10])
        #expect(ControlKind.slider(minimum: 0, maximum: 1, value: 0).sliderValue(0.37) == 0.37, "no step: only clamped")
        let fine = ControlKind.slider(minimum: 0, maximum: 1e12, value: 0, step: 1e-300)
        #expect(fine.sliderValue(5e11) == 5e11, "a step too fine to count snaps nothing (it does not run to max)")
    }

    @Test func aRequestSetsAControlsValueAndWhetherItIsEnabledWithoutSendingAnything() throws {
        var slider = app([ControlTarget(event: .valueChanged, action: "tap")], kind: .slider(minimum: 0, maximum: 100, value: 0, step: 10))
        try slider.setControl("btn", value: .double(44), enabled: nil)
        #expect(slider.controlValue(of: "btn") == .double(40), "snapped to the step")
        #expect(throws: ControlChangeError.unsuitableValue("btn", expected: "a number from 0.0 to 100.0 (the slider's range)")) {
            try slider.setControl("btn", value: .int(101), enabled: nil)
        }
        #expect(throws: ControlChangeError.notAControl("orange")) { try slider.setControl("orange", value: nil, enabled: false) }
        var toggle = app([ControlTarget(event: .valueChanged, action: "tap")], kind: .toggle(isOn: false))
        try toggle.setControl("btn", value: .bool(true), enabled: nil)
        #expect(toggle.controlValue(of: "btn") == .bool(true))
        #expect(throws: ControlChangeError.self) { try toggle.setControl("btn", value: .double(1), enabled: nil) }
        var button = app([ControlTarget(event: .touchUpInside, action: "tap")])
        #expect(throws: ControlChangeError.self) { try button.setControl("btn", value: .bool(true), enabled: nil) }

        // Disabled, a button forwards its touches like any view; a touch it tracks when it is
        // disabled goes on to its end as a control's.
        _ = button.send(frame(1, contact(1, .began, onButton.x, onButton.y)))
        try button.setControl("btn", value: nil, enabled: false)
        let tracked = button.send(frame(1.05, contact(1, .ended, onButton.x, onButton.y)))
        #expect(tracked.flatMap(\.actions).map(\.name) == ["button - tap"])
        let forwarded = button.send(frame(2, contact(2, .began, onButton.x, onButton.y))) + button.send(frame(2.05, contact(2, .ended, onButton.x, onButton.y)))
        #expect(forwarded.flatMap(\.actions).isEmpty)
        #expect(forwarded.flatMap(\.calls).map(\.responder).contains("ViewController"), "the touches go up the chain")
    }
}
