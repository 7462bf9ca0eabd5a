extension Application {
    /// Dispatches one presses event: keys that went down start new presses at the first responder
    /// (else the window's root); keys that went up or were cancelled end their presses at the
    /// responder they began at. Calls are grouped per phase and per responder, as UIKit groups
    /// `pressesBegan(_:with:)`.
    mutating func dispatchPresses(_ input: PressInput) -> DispatchReport {
        let window = input.window ?? tree.keyWindow
        var report = beginNonTouchEvent(.presses, timestamp: input.timestamp, window: window)
        let start = report.startResponder
        var changed: [Press] = []
        for change in input.changes {
            let key = PressKey(device: input.device, keyCode: change.keyCode)
            switch change.phase {
            case .began:
                if !cancelledPresses.isEmpty { cancelledPresses.removeAll { $0 == key } }
                if livePresses[key] != nil {
                    report.anomalies.append("device \(input.device): key \(change.keyName) went down twice")
                    continue
                }
                let press = Press(
                    id: nextPressID, device: input.device, keyCode: change.keyCode, keyName: change.keyName, phase: .began,
                    timestamp: input.timestamp, window: window, responder: start)
                nextPressID += 1
                livePresses[key] = press
                changed.append(press)
            case .ended, .cancelled:
                guard var press = livePresses.removeValue(forKey: key) else {
                    // A key whose press was cancelled while it was down comes up: no fault.
                    if let c = cancelledPresses.firstIndex(of: key) {
                        cancelledPresses.remove(at: c)
                        continue
                    }
                    report.anomalies.append("device \(input.device): key \(change.keyName) \(change.phase.rawValue) without going down")
                    continue
                }
                press.phase = change.phase
                press.timestamp = input.timestamp
                changed.append(press)
            }
        }
        statistics.anomalies += report.anomalies.count
        report.presses = changed
        for phase in PressPhase.allCases {
            var groups: [(responder: ResponderID, presses: [Press])] = []
            for press in changed where press.phase == phase {
                // A press's end goes where it began; if that responder has left the tree, to where events start now.
                guard let responder = press.responder.flatMap({ tree.kind(of: $0) != nil ? $0 : nil }) ?? start else { continue }
                if let i = groups.firstIndex(where: { $0.responder == responder }) {
                    groups[i].presses.append(press)
                } else {
                    groups.append((responder, [press]))
                }
            }
            for group in groups {
                callNonTouchChain(
                    from: group.responder, trigger: HandlerTrigger(pressPhase: phase), detail: group.presses.map(\.keyName), report: &report)
            }
        }
        return report
    }

    /// Cancels every key held down (a reload, a stop), as when its device goes away:
    /// `presses_cancelled` goes where each press began, one event per device and window, oldest
    /// press first. Empty when no key is down.
    public mutating func cancelAllPresses(timestamp: InputTime) -> [DispatchReport] {
        var inputs: [PressInput] = []
        for press in livePresses.values.sorted(by: { $0.id < $1.id }) {
            if cancelledPresses.count >= Self.cancelledKeptAtMost { cancelledPresses.removeFirst() }
            cancelledPresses.append(PressKey(device: press.device, keyCode: press.keyCode))
            let change = KeyChange(keyCode: press.keyCode, keyName: press.keyName, phase: .cancelled)
            if let i = inputs.firstIndex(where: { $0.device == press.device && $0.window == press.window }) {
                inputs[i].changes.append(change)
            } else {
                inputs.append(PressInput(device: press.device, window: press.window, timestamp: timestamp, changes: [change]))
            }
        }
        return inputs.map { dispatchPresses($0) }
    }

    /// Dispatches a remote-control event (`remoteControlReceived(with:)`) from the first responder
    /// up, while the application receives them; otherwise it is only counted, as UIKit delivers
    /// none before `beginReceivingRemoteControlEvents()`.
    mutating func dispatchRemoteControl(_ input: RemoteControlInput) -> DispatchReport {
        var report = beginNonTouchEvent(.remoteControl, timestamp: input.timestamp, window: input.window)
        guard isReceivingRemoteControlEvents else {
            statistics.remoteControlEventsIgnored += 1
            report.startResponder = nil
            return report
        }
        report.remoteControl = input
        if let start = report.startResponder {
            callNonTouchChain(from: start, trigger: .remoteControl, detail: [input.subtype.rawValue], remoteControl: input.subtype, report: &report)
        }
        return report
    }

    /// Dispatches a motion event (`motionBegan`, `motionEnded`, `motionCancelled`) from the first
    /// responder up.
    mutating func dispatchMotion(_ input: MotionInput) -> DispatchReport {
        var report = beginNonTouchEvent(.motion, timestamp: input.timestamp, window: input.window)
        report.motion = input
        if let start = report.startResponder {
            callNonTouchChain(from: start, trigger: HandlerTrigger(motionPhase: input.phase), detail: [input.subtype.rawValue], report: &report)
        }
        return report
    }

    /// `beginReceivingRemoteControlEvents()`: remote-control events reach the first responder from now on.
    public mutating func beginReceivingRemoteControlEvents() { isReceivingRemoteControlEvents = true }

    /// `endReceivingRemoteControlEvents()`: remote-control events are ignored from now on.
    public mutating func endReceivingRemoteControlEvents() { isReceivingRemoteControlEvents = false }

    /// What every event without touches starts with: it is counted, the recognizer timers due
    /// before it fire, and its report names where its calls start (the window's first responder,
    /// else its root view controller's view, else the window; the key window when it names none).
    private mutating func beginNonTouchEvent(_ type: EventType, timestamp: InputTime, window: ResponderID?) -> DispatchReport {
        statistics.eventsDispatched += 1
        var report = DispatchReport(event: Event(type: type, timestamp: timestamp, allTouches: []))
        fireTimers(upTo: timestamp, report: &report)
        report.startResponder = nonTouchEventStart(in: window)
        return report
    }

    /// Walks the responder chain from `first` for an event without touches: each responder's
    /// matching handlers emit their actions; the call goes on unless one of them consumes it.
    mutating func callNonTouchChain(
        from first: ResponderID, trigger: HandlerTrigger, detail: [String], remoteControl: RemoteControlSubtype? = nil,
        report: inout DispatchReport
    ) {
        let keys = trigger == .remoteControl ? [] : detail
        walkResponderChain(from: first, trigger: trigger, touches: [], detail: detail, report: &report) {
            $0.matches(trigger, keys: keys, remoteControl: remoteControl)
        }
    }

    /// Runs a handler's `becomeFirstResponder()` or `resignFirstResponder()`; a refusal is reported
    /// as an anomaly of the event (the handler's action was still emitted).
    mutating func applyFirstResponderEffect(of handler: Handler, report: inout DispatchReport) {
        guard let effect = handler.firstResponderEffect else { return }
        let time = report.event.timestamp
        do {
            switch effect {
            case .become(let responder):
                if let change = try becomeFirstResponder(responder, cause: .handler(handler.action), timestamp: time) {
                    report.appendFirstResponderChange(change)
                }
            case .resign(let responder):
                // Resigning a responder that already is not first responder changes nothing.
                guard isFirstResponder(responder) else { return }
                report.appendFirstResponderChange(try resignFirstResponder(responder, cause: .handler(handler.action), timestamp: time))
            }
        } catch {
            report.anomalies.append("handler \(handler.action) of \(handler.responder): \(error.description)")
        }
    }
}
