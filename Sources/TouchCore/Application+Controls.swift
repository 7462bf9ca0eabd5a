extension Application {
    /// Makes a view a control (between events).
    /// - Throws: ``ViewTreeError/unknownView(_:)`` when the view is not in the tree.
    public mutating func addControl(_ spec: ControlSpec) throws(ViewTreeError) {
        guard tree.kind(of: spec.view) == .view else { throw .unknownView(spec.view) }
        controls[spec.view] = ControlState(spec: spec)
    }

    /// The controls' configurations (with their current values), ordered by view id.
    public var controlSpecs: [ControlSpec] { controls.keys.sorted().map { controls[$0]!.spec } }

    /// A control's configuration with its current value, or nil when `view` is no control.
    public func controlSpec(of view: ResponderID) -> ControlSpec? { controls[view]?.spec }

    /// A control's current value (a toggle's on, a slider's value; null for a button).
    public func controlValue(of view: ResponderID) -> JSONValue? { controls[view]?.value }

    /// Whether a control is tracking a touch now (between its touch-down and the touch's end).
    public func controlIsTracking(_ view: ResponderID) -> Bool { controls[view]?.trackingTouch != nil }

    /// Whether `view` is an enabled control, which then tracks its own touches (a control disabled
    /// while it tracks a touch tracks that one to its end).
    func isControl(_ view: ResponderID) -> Bool {
        guard let control = controls[view] else { return false }
        return control.spec.isEnabled || control.trackingTouch != nil
    }

    /// Sets a control's value and whether it is enabled, between events, as a program sets
    /// `UISwitch.isOn`, `UISlider.value` or `UIControl.isEnabled`: no control event is sent. A
    /// slider's value is snapped to its step (``ControlKind/sliderValue(_:)``). A touch the
    /// control is tracking goes on to its end either way.
    /// - Parameters:
    ///   - value: a toggle's state (`.bool`) or a slider's value (a number within its range); nil
    ///     leaves it.
    ///   - enabled: `isEnabled`; nil leaves it.
    /// - Throws: ``ControlChangeError`` when `view` is no control or `value` does not suit it;
    ///   then nothing changes.
    public mutating func setControl(_ view: ResponderID, value: JSONValue?, enabled: Bool?) throws(ControlChangeError) {
        guard var control = controls[view] else { throw .notAControl(view) }
        if let value {
            switch (control.spec.kind, value) {
            case (.toggle, .bool(let isOn)):
                control.spec.kind = .toggle(isOn: isOn)
            case (.slider(let minimum, let maximum, _, let step, let isContinuous), _):
                let number: Double? =
                    switch value {
                    case .int(let whole): Double(whole)
                    case .double(let real): real
                    case .null, .bool, .string, .array, .object: nil
                    }
                guard let number, number >= minimum, number <= maximum else {
                    throw .unsuitableValue(view, expected: "a number from \(minimum) to \(maximum) (the slider's range)")
                }
                let snapped = control.spec.kind.sliderValue(number)
                control.spec.kind = .slider(minimum: minimum, maximum: maximum, value: snapped, step: step, isContinuous: isContinuous)
            case (.toggle, _):
                throw .unsuitableValue(view, expected: "true or false (a toggle's state)")
            case (.button, _):
                throw .unsuitableValue(view, expected: "no value: a button has none")
            }
        }
        if let enabled { control.spec.isEnabled = enabled }
        controls[view] = control
    }

    /// A control's touches: it sends its control events (and their actions) and does not forward the
    /// touches up the responder chain, as `UIControl` does.
    ///
    /// The control's own handlers run first: they are overrides of its touch methods. One that does
    /// not pass the call on is an override that does not call `super`, where `UIControl` tracks:
    /// the control then does nothing for that call (a `UIButton` subclass overriding
    /// `touchesBegan` without `super` never sends `touchDown` nor its action), and forgets a touch
    /// whose end it was not told of.
    mutating func controlTracks(_ view: ResponderID, trigger: HandlerTrigger, touches: [Touch], report: inout DispatchReport) {
        guard var control = controls[view], let props = tree.properties(of: view) else { return }
        guard runOverrides(of: view, trigger: trigger, touches: touches, report: &report) else {
            if let tracked = control.trackingTouch, touches.contains(where: { $0.id == tracked && $0.phase.isFinal }) {
                controls[view]?.trackingTouch = nil
            }
            return
        }
        // A touch-down starts tracking when nothing is tracked; anything else concerns the tracked touch.
        guard let touch = touches.first(where: { $0.phase == .began ? control.trackingTouch == nil : $0.id == control.trackingTouch })
        else { return }
        let local = tree.convert(touch.locationInWindow, fromWindowTo: view) ?? .zero
        let strictlyInside = props.hitArea.contains(local)
        let looselyInside = props.hitArea.outset(by: EdgeInsets(all: ControlSpec.trackingMargin)).contains(local)
        var events: [ControlEvent] = []
        switch touch.phase {
        case .began:
            guard control.trackingTouch == nil else { return }
            control.trackingTouch = touch.id
            control.isInside = true
            control.valueAtTouchDown = control.value
            events.append(.touchDown)
            if touch.tapCount > 1 { events.append(.touchDownRepeat) }
            if updateSlider(&control, local.x, props.bounds) { events.append(.valueChanged) }
        case .moved, .stationary:
            guard touch.phase == .moved else { return }
            let inside = looselyInside
            if inside != control.isInside { events.append(inside ? .touchDragEnter : .touchDragExit) }
            events.append(inside ? .touchDragInside : .touchDragOutside)
            control.isInside = inside
            if updateSlider(&control, local.x, props.bounds) { events.append(.valueChanged) }
        case .ended:
            let inside = looselyInside && (control.isInside || strictlyInside)
            events.append(inside ? .touchUpInside : .touchUpOutside)
            switch control.spec.kind {
            case .button: if inside { events.append(.primaryActionTriggered) }
            case .toggle(let isOn):
                if inside {
                    control.spec.kind = .toggle(isOn: !isOn)
                    events += [.valueChanged, .primaryActionTriggered]
                }
            case .slider(_, _, _, _, let isContinuous):
                // A slider that is not continuous tells its value once, as the finger lifts.
                if !isContinuous && control.value != control.valueAtTouchDown { events.append(.valueChanged) }
            }
            control.trackingTouch = nil
        case .cancelled:
            events.append(.touchCancel)
            control.trackingTouch = nil
        }
        controls[view] = control
        for event in events { send(event, from: control, touch: touch, report: &report) }
    }

    /// Calls a control's touch method: its own handlers (the overrides) run, each emitting its
    /// action. Returns whether every one passed the call on, as calling `super` does.
    private mutating func runOverrides(of view: ResponderID, trigger: HandlerTrigger, touches: [Touch], report: inout DispatchReport) -> Bool {
        if recordsResponderCalls {
            let call = ResponderCall(responder: view, trigger: trigger, touches: touches.map(\.id), passedOn: false)
            report.calls.append(call)
            report.log.append(.call(call))
        }
        var callsSuper = true
        for handler in handlers.handlers(for: view) where handler.matches(trigger, touches: touches) {
            emit(handler.action, payload: handler.payload, responder: view, trigger: trigger, touches: touches.map(\.id), view: view, report: &report)
            applyFirstResponderEffect(of: handler, report: &report)
            callsSuper = callsSuper && handler.passesOn
        }
        return callsSuper
    }

    /// Moves a slider's value to the finger at `x` (in the control's coordinates), snapped to its
    /// step; returns whether a `valueChanged` is due now (the value changed and the slider is
    /// continuous).
    private func updateSlider(_ control: inout ControlState, _ x: Double, _ bounds: Rect) -> Bool {
        guard case .slider(let minimum, let maximum, let old, let step, let isContinuous) = control.spec.kind, bounds.width > 0 else {
            return false
        }
        let fraction = min(max((x - bounds.minX) / bounds.width, 0), 1)
        let value = control.spec.kind.sliderValue(minimum + fraction * (maximum - minimum))
        control.spec.kind = .slider(minimum: minimum, maximum: maximum, value: value, step: step, isContinuous: isContinuous)
        return isContinuous && value != old
    }

    /// Sends a control event's actions, as UIKit's `sendAction(_:to:for:)` does: to their target,
    /// or, with no target, up the responder chain from the first responder of the control's window
    /// when it has one, else from the control (``actionChain(for:from:)``). The first responder on
    /// the way with an `on = "action"` handler for the action takes it: its handlers emit their
    /// actions. When none does, the action is emitted as it is, with no responder: clients get
    /// every control action either way, and the record says who took it.
    private mutating func send(_ event: ControlEvent, from control: ControlState, touch: Touch, report: inout DispatchReport) {
        for target in control.spec.targets where target.event == event {
            let value = control.value
            let sent = ControlActionRecord(control: control.spec.view, event: event, action: target.action, value: value == .null ? nil : value)
            guard let taker = actionTaker(for: target, from: control.spec.view) else {
                emit(target.action, payload: .object([]), responder: nil, trigger: .action, touches: [touch.id], view: control.spec.view, control: sent, report: &report)
                continue
            }
            for handler in handlers.handlers(for: taker) where handler.trigger == .action && handler.selector == target.action {
                emit(handler.action, payload: handler.payload, responder: taker, trigger: .action, touches: [touch.id], view: control.spec.view, control: sent, report: &report)
                applyFirstResponderEffect(of: handler, report: &report)
            }
        }
    }

    /// The responders a control's action visits, in order: its `target` alone when it names one,
    /// else the responder chain from the first responder of the control's window when it has one
    /// (UIKit's nil-targeted action), else from the control itself.
    public func actionChain(for target: ControlTarget, from control: ResponderID) -> [ResponderID] {
        if let named = target.target { return [named] }
        let firstResponder = tree.window(of: control).flatMap { firstResponders[$0] }
        return tree.responderChain(from: firstResponder ?? control)
    }

    /// The responder that takes a control's action now: the first of ``actionChain(for:from:)``
    /// with an `on = "action"` handler whose selector is the action; `nil` when none has one.
    public func actionTaker(for target: ControlTarget, from control: ResponderID) -> ResponderID? {
        actionChain(for: target, from: control).first { responder in
            handlers.handlers(for: responder).contains { $0.trigger == .action && $0.selector == target.action }
        }
    }

    /// Every responder that may take a control's action, whatever the first responder of the
    /// control's window is when it is sent: the taker from the control itself and from each
    /// responder of that window that may become first responder, without repeats; `nil` among them
    /// when from some start none takes it (clients then get it as it is). What `touchd check` tells.
    public func possibleActionTakers(for target: ControlTarget, from control: ResponderID) -> [ResponderID?] {
        let chains: [[ResponderID]]
        if let named = target.target {
            chains = [[named]]
        } else {
            let window = tree.window(of: control)
            let candidates = responderTraits.values.filter { $0.canBecome && windowOfResponder($0.responder) == window }.map(\.responder)
            chains = ([control] + candidates.sorted()).map { tree.responderChain(from: $0) }
        }
        var takers: [ResponderID?] = []
        for chain in chains {
            let taker = chain.first { responder in
                handlers.handlers(for: responder).contains { $0.trigger == .action && $0.selector == target.action }
            }
            if !takers.contains(taker) { takers.append(taker) }
        }
        return takers
    }

    mutating func emit(
        _ name: String, payload: JSONValue, responder: ResponderID?, trigger: HandlerTrigger?, touches: [TouchID], view: ResponderID?,
        control: ControlActionRecord? = nil, report: inout DispatchReport
    ) {
        var action = ActionRecord(
            name: name, responder: responder, trigger: trigger, payload: payload, touches: touches, view: view, timestamp: report.event.timestamp)
        action.control = control
        report.actions.append(action)
        if recordsResponderCalls { report.log.append(.action(action)) }
        statistics.actionsEmitted += 1
    }
}
