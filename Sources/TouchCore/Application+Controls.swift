extension Application {
    /// Makes a view a control (between events).
    /// - Throws: ``ViewTreeError/unknownView(_:)`` when the view is not in the tree.
    public mutating func addControl(_ spec: ControlSpec) throws(ViewTreeError) {
        guard tree.kind(of: spec.view) == .view else { throw .unknownView(spec.view) }
        controls[spec.view] = ControlState(spec: spec)
    }

    /// The controls' configurations (with their current values), ordered by view id.
    public var controlSpecs: [ControlSpec] { controls.keys.sorted().map { controls[$0]!.spec } }

    /// A control's current value (a toggle's on, a slider's value; null for a button).
    public func controlValue(of view: ResponderID) -> JSONValue? { controls[view]?.value }

    /// Whether a control is tracking a touch now (between its touch-down and the touch's end).
    public func controlIsTracking(_ view: ResponderID) -> Bool { controls[view]?.trackingTouch != nil }

    /// Whether `view` is an enabled control, which then tracks its own touches.
    func isControl(_ view: ResponderID) -> Bool { controls[view]?.spec.isEnabled == true }

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
            events.append(.touchDown)
            if touch.tapCount > 1 { events.append(.touchDownRepeat) }
            if case .slider = control.spec.kind, updateSlider(&control, local.x, props.bounds) { events.append(.valueChanged) }
        case .moved, .stationary:
            guard touch.phase == .moved else { return }
            let inside = looselyInside
            if inside != control.isInside { events.append(inside ? .touchDragEnter : .touchDragExit) }
            events.append(inside ? .touchDragInside : .touchDragOutside)
            control.isInside = inside
            if case .slider = control.spec.kind, updateSlider(&control, local.x, props.bounds) { events.append(.valueChanged) }
        case .ended:
            let inside = looselyInside && (control.isInside || strictlyInside)
            events.append(inside ? .touchUpInside : .touchUpOutside)
            if inside {
                switch control.spec.kind {
                case .button: events.append(.primaryActionTriggered)
                case .toggle(let isOn):
                    control.spec.kind = .toggle(isOn: !isOn)
                    events += [.valueChanged, .primaryActionTriggered]
                case .slider: break
                }
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

    private func updateSlider(_ control: inout ControlState, _ x: Double, _ bounds: Rect) -> Bool {
        guard case .slider(let minimum, let maximum, let old) = control.spec.kind, bounds.width > 0 else { return false }
        let fraction = min(max((x - bounds.minX) / bounds.width, 0), 1)
        let value = minimum + fraction * (maximum - minimum)
        control.spec.kind = .slider(minimum: minimum, maximum: maximum, value: value)
        return value != old
    }

    /// Sends a control event's actions: to their target, or, with no target, up the responder chain
    /// to the first responder with a handler for the action (`on = "action"`). As in UIKit, an
    /// action with no target starts at the first responder of the control's window when it has
    /// one, else at the control itself.
    private mutating func send(_ event: ControlEvent, from control: ControlState, touch: Touch, report: inout DispatchReport) {
        for target in control.spec.targets where target.event == event {
            let firstResponder = tree.window(of: control.spec.view).flatMap { firstResponders[$0] }
            let start = target.target ?? firstResponder ?? control.spec.view
            let chain = target.target == nil ? tree.responderChain(from: start) : [start]
            var handled = false
            for responder in chain {
                let matching = handlers.handlers(for: responder).filter { $0.trigger == .action && $0.selector == target.action }
                guard !matching.isEmpty else { continue }
                for handler in matching {
                    var payload = handler.payload
                    if case .object(var members) = payload {
                        members.append(("control", .string(control.spec.view.rawValue)))
                        members.append(("event", .string(event.rawValue)))
                        if control.value != .null { members.append(("value", control.value)) }
                        payload = .object(members)
                    }
                    emit(handler.action, payload: payload, responder: responder, trigger: .action, touches: [touch.id], view: control.spec.view, report: &report)
                    applyFirstResponderEffect(of: handler, report: &report)
                }
                handled = true
                break
            }
            if !handled { report.anomalies.append("control \(control.spec.view): no responder takes action \"\(target.action)\"") }
        }
    }

    mutating func emit(
        _ name: String, payload: JSONValue, responder: ResponderID, trigger: HandlerTrigger?, touches: [TouchID], view: ResponderID?,
        report: inout DispatchReport
    ) {
        let action = ActionRecord(
            name: name, responder: responder, trigger: trigger, payload: payload, touches: touches, view: view, timestamp: report.event.timestamp)
        report.actions.append(action)
        if recordsResponderCalls { report.log.append(.action(action)) }
        statistics.actionsEmitted += 1
    }
}
