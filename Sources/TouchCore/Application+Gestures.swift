extension Application {
    /// Attaches a gesture recognizer to its view (between events).
    /// - Throws: ``ViewTreeError/unknownView(_:)`` when the view is not in the tree.
    public mutating func addGestureRecognizer(_ spec: GestureRecognizerSpec) throws(ViewTreeError) {
        guard let window = tree.window(of: spec.view), tree.kind(of: spec.view) != nil else { throw .unknownView(spec.view) }
        let ppm = tree.pointsPerMillimetre(of: window)
        gestures.add(GestureRecognizer(spec: spec, pointsPerMillimetre: ppm, tapSettings: settings.tap))
    }

    /// The recognizers' configurations, in attachment order.
    public var gestureRecognizerSpecs: [GestureRecognizerSpec] { gestures.order.compactMap { gestures.recognizers[$0]?.spec } }

    /// The state of a recognizer.
    public func gestureState(of recognizer: ResponderID) -> GestureState? { gestures.recognizers[recognizer]?.state }

    /// When the next recognizer timer is due (input time), for the daemon's timer.
    public var nextDeadline: InputTime? { gestures.nextDeadline }

    /// Whether the recognizers' state changes are recorded, as ``GestureTransition``s to take with
    /// ``takeGestureTransitions()``. Off by default: then nothing is recorded or described.
    public var tracesGestureTransitions: Bool {
        get { gestures.trace != nil }
        set { gestures.trace = newValue ? (gestures.trace ?? []) : nil }
    }

    /// The recognizers' state changes recorded since the last call, oldest first.
    public mutating func takeGestureTransitions() -> [GestureTransition] {
        guard let trace = gestures.trace else { return [] }
        gestures.trace = []
        return trace
    }

    /// Fires the recognizer timers due at or before `time` (a long press beginning, a multi-tap
    /// window closing). Time is only ever what the caller says: replays pass recording times.
    public mutating func advanceTime(to time: InputTime) -> DispatchReport? {
        guard let due = gestures.nextDeadline, due <= time else { return nil }
        var report = DispatchReport(event: Event(type: .touches, timestamp: due, allTouches: recordsResponderCalls ? activeTouches : []))
        fireTimers(upTo: time, report: &report)
        return report
    }

    mutating func fireTimers(upTo time: InputTime, report: inout DispatchReport) {
        var fired = false
        defer {
            // Recognizers a timer finished are ready for the next touch at once.
            if fired { resetFinishedRecognizers(time: time, report: &report) }
        }
        // A timer that fires is over: each recognizer's machine leaves its timed state. The timers
        // due are found once per pass, first due first; one whose recognizer's deadline moved
        // meanwhile waits for the next pass, which takes the deadlines as they are then.
        while case let due = gestures.timers(dueBy: time), !due.isEmpty {
            for (id, at) in due where gestures.recognizers[id]?.deadline == at {
                fired = true
                if let next = gestures.timerFired(id, at: at) {
                    transition(id, to: next, time: at, report: &report)
                }
            }
        }
    }

    /// Runs the recognizers on one event's changed touches, before the views see them.
    mutating func runRecognizers(_ changed: [Touch], time: InputTime, report: inout DispatchReport) {
        guard !gestures.isEmpty else { return }
        for touch in changed where touch.phase == .began { giveToRecognizers(touch) }
        // Each recognizer's touches of this event, in the event's order, recognizers in attachment
        // order: one pass over the touches' recognizers rather than one over the touches per recognizer.
        var pairs = Self.take(&scratch.recognizerTouches)
        var touches = Self.take(&scratch.touches)
        defer {
            Self.putBack(&pairs, into: &scratch.recognizerTouches)
            Self.putBack(&touches, into: &scratch.touches)
        }
        for t in changed.indices {
            for id in gestures.touches[changed[t].id]?.recognizers ?? [] {
                if let place = gestures.position(of: id) { pairs.append(RecognizerTouch(recognizer: place, touch: t)) }
            }
        }
        guard !pairs.isEmpty else { return }
        pairs.sort(by: <)
        var start = 0
        while start < pairs.count {
            touches.removeAll(keepingCapacity: true)
            var end = start
            while end < pairs.count && pairs[end].recognizer == pairs[start].recognizer {
                // A recognizer listed twice for a touch gets it once.
                if end == start || pairs[end].touch != pairs[end - 1].touch { touches.append(changed[pairs[end].touch]) }
                end += 1
            }
            let id = gestures.order[pairs[start].recognizer]
            if let next = gestures.touchesChanged(id, touches, time: time) { transition(id, to: next, time: time, report: &report) }
            start = end
        }
    }

    /// Gives a touch that began to the recognizers that may take it now: those of its view and of
    /// its view's superviews. Every touch hit-tested into a view reaches them, even one the view
    /// itself does not get because it has multiple touch disabled (UIKit: a pinch works on a view
    /// without multipleTouchEnabled).
    private mutating func giveToRecognizers(_ touch: Touch) {
        guard let view = touch.view, touch.delivery == .delivered || touch.delivery == .multipleTouchDisabled else { return }
        var ids = gestures.takeRecognizerList()
        var current: ResponderID? = view
        while let v = current {
            for id in gestures.byView[v] ?? [] where gestures.recognizers[id]?.acceptsTouches == true { ids.append(id) }
            current = tree.superview(of: v)
        }
        gestures.touches[touch.id, default: TouchArbitration()].recognizers = ids
    }

    /// Moves a recognizer to `state`, with UIKit's arbitration.
    mutating func transition(_ id: ResponderID, to state: GestureState, time: InputTime, report: inout DispatchReport) {
        switch state {
        case .began, .recognized:
            guard let requires = gestures.recognizers[id]?.spec.requiresFailureOf, gestures.recognizers[id]?.state == .possible
            else { return }
            if controlYieldedTo(id) != nil {
                transition(id, to: .failed, time: time, report: &report)
                return
            }
            let recognition: GestureLifecycle.Recognition = state == .began ? .began : .recognized
            let waiting = requires.contains { other in
                guard let o = gestures.recognizers[other] else { return false }
                return o.state == .possible && o.isEngaged
            }
            if waiting {
                _ = gestures.apply(.hold(recognition), to: id, time: time)
                return
            }
            commit(id, recognition, time: time, report: &report)
        case .failed:
            guard gestures.apply(.fail, to: id, time: time) else { return }
            record(id, time: time, report: &report)
            releaseWaiters(of: id, time: time, report: &report)
            releaseHeldTouches(time: time, report: &report)
        case .changed, .ended, .cancelled:
            let input: GestureLifecycle.Input = state == .changed ? .change : state == .ended ? .end : .cancel
            guard gestures.apply(input, to: id, time: time) else { return }
            record(id, time: time, report: &report)
            if state == .ended { emitAction(id, time: time, report: &report) }
        case .possible:
            break
        }
    }

    /// Lets the recognizers waiting for `id` to fail go ahead with the recognition they hold back,
    /// once no other recognizer they wait for is still deciding.
    private mutating func releaseWaiters(of id: ResponderID, time: InputTime, report: inout DispatchReport) {
        for other in gestures.waiters[id] ?? [] {
            // Deciding again holds it once more, commits it or fails it.
            if let held = gestures.recognizers[other]?.held {
                transition(other, to: held.state, time: time, report: &report)
            }
        }
    }

    /// Lets `waiters`, recognizers that required a recognizer now detached to fail, decide again:
    /// one holding a recognition back commits it unless it still waits for another, and is reset
    /// once its touches have finished. `nil` when nothing changed.
    mutating func decideAgain(_ waiters: [ResponderID], time: InputTime) -> DispatchReport? {
        guard waiters.contains(where: { gestures.recognizers[$0]?.held != nil }) else { return nil }
        var report = DispatchReport(event: Event(type: .touches, timestamp: time, allTouches: recordsResponderCalls ? activeTouches : []))
        for id in waiters {
            if let held = gestures.recognizers[id]?.held { transition(id, to: held.state, time: time, report: &report) }
        }
        resetFinishedRecognizers(time: time, report: &report)
        return report
    }

    /// The control whose default action a recognizer would take over, if any: then it must not
    /// begin (`UIControl.gestureRecognizerShouldBegin`). A control yields only what overlaps its
    /// own action, to recognizers of its superviews, for a gesture whose first touch began on it:
    /// a one-finger single tap on a button or toggle, a one-finger pan on a toggle or slider, or a
    /// one-finger swipe on a slider, along the control's (horizontal) axis.
    func controlYieldedTo(_ id: ResponderID) -> ResponderID? {
        guard let r = gestures.recognizers[id], let touchView = r.firstTouchView else { return nil }
        var current: ResponderID? = touchView
        var control: ControlState?
        while let v = current, v != r.spec.view {
            if isControl(v) {
                control = controls[v]
                break
            }
            current = tree.superview(of: v)
        }
        guard let control, current != nil else { return nil }
        let horizontal = r.isHorizontal
        let yields: Bool
        switch (control.spec.kind, r.spec.kind) {
        case (.button, .tap(1, 1)), (.toggle, .tap(1, 1)): yields = true
        case (.toggle, .pan(let minimum, _, _)), (.slider, .pan(let minimum, _, _)): yields = minimum <= 1 && r.downCount <= 1 && horizontal
        case (.slider, .swipe(_, 1, _, _)): yields = horizontal
        default: yields = false
        }
        return yields ? control.spec.view : nil
    }

    private mutating func commit(
        _ id: ResponderID, _ recognition: GestureLifecycle.Recognition, time: InputTime, report: inout DispatchReport
    ) {
        guard gestures.apply(.commit(recognition), to: id, time: time), let touchIDs = gestures.recognizers[id]?.touchIDs else { return }
        record(id, time: time, report: &report)
        emitAction(id, time: time, report: &report)
        // The recognizer takes its touches first: a held touchesEnded of one of them becomes a
        // cancellation, whatever the other recognizers' failing below releases.
        let toCancel = gestures.recognizers[id]?.spec.cancelsTouchesInView == true ? claim(touchIDs) : []
        let touches = Set(touchIDs)
        // Every other recognizer of these touches fails, unless it may recognize simultaneously
        // (only one given a touch can be deciding).
        var engaged = Self.take(&scratch.recognizers)
        defer { Self.putBack(&engaged, into: &scratch.recognizers) }
        gestures.inOrder(gestures.engaged, into: &engaged)
        for other in engaged where other != id {
            guard let o = gestures.recognizers[other], o.state == .possible, o.isEngaged,
                o.touchIDs.contains(where: touches.contains) || o.spec.requiresFailureOf.contains(id),
                !gestures.simultaneous(id, other)
            else { continue }
            transition(other, to: .failed, time: time, report: &report)
        }
        deliverToViews(.touchesCancelled, toCancel, report: &report)
        releaseHeldTouches(time: time, report: &report)
    }

    /// Takes `touchIDs` from the views for a recognizer that recognized (`cancelsTouchesInView`):
    /// no more view calls for them; returns, as cancelled, those whose `touchesBegan` the views got
    /// (a held `touchesEnded` included: UIKit cancels it rather than deliver it).
    private mutating func claim(_ touchIDs: [TouchID]) -> [Touch] {
        var toCancel: [Touch] = []
        for touchID in touchIDs where !gestures.isClaimed(touchID) {
            var record = gestures.touches[touchID] ?? TouchArbitration()
            record.claimed = true
            record.heldBegan = nil
            if record.beganDelivered {
                var touch = record.heldEnded ?? live.index(of: touchID).map { live[$0].touch }
                record.heldEnded = nil
                touch?.phase = .cancelled
                if let touch { toCancel.append(touch) }
            }
            gestures.touches[touchID] = record
        }
        return toCancel
    }

    /// Delivers held `touchesBegan`/`touchesEnded` calls that no recognizer holds any more.
    mutating func releaseHeldTouches(time: InputTime, report: inout DispatchReport) {
        let began = gestures.touches.values.compactMap(\.heldBegan).filter { !gestures.holds($0.id, \.delaysTouchesBegan) }
            .sorted { $0.id < $1.id }
        for touch in began { gestures.touches[touch.id]?.heldBegan = nil }
        var beganTouches = began
        for i in beganTouches.indices { beganTouches[i].phase = .began }
        deliverToViews(.touchesBegan, beganTouches, report: &report)
        for touch in beganTouches { gestures.beganDelivered(touch.id) }
        // A touch's end waits for its began.
        let ended = gestures.touches.values.compactMap { $0.heldBegan == nil ? $0.heldEnded : nil }
            .filter { !gestures.holds($0.id, \.delaysTouchesEnded) }.sorted { $0.id < $1.id }
        for touch in ended { gestures.touches[touch.id]?.heldEnded = nil }
        let delivered = ended.filter { gestures.touches[$0.id]?.beganDelivered == true }
        deliverToViews(.touchesEnded, delivered.filter { $0.phase == .ended }, report: &report)
        deliverToViews(.touchesCancelled, delivered.filter { $0.phase == .cancelled }, report: &report)
    }

    /// Cancels, for the views, the held-back touches that `shouldCancel` selects (their view is
    /// going away): views that saw them begin get `touchesCancelled`; the others get nothing.
    mutating func cancelHeldTouches(timestamp: InputTime, where shouldCancel: (Touch) -> Bool) -> DispatchReport? {
        let held = gestures.touches.compactMap { id, record in (record.heldEnded ?? record.heldBegan).map { shouldCancel($0) ? id : nil } ?? nil }
        guard !held.isEmpty else { return nil }
        var report = DispatchReport(event: Event(type: .touches, timestamp: timestamp, allTouches: recordsResponderCalls ? activeTouches : []))
        var toCancel: [Touch] = []
        for id in held.sorted() {
            guard var record = gestures.touches[id] else { continue }
            // A view that saw the touch begin gets its cancellation; one whose began is held gets nothing.
            if record.beganDelivered && record.heldBegan == nil, var touch = record.heldEnded {
                touch.phase = .cancelled
                toCancel.append(touch)
            }
            record.heldEnded = nil
            record.heldBegan = nil
            record.claimed = true
            gestures.touches[id] = record
        }
        deliverToViews(.touchesCancelled, toCancel, report: &report)
        return report
    }

    /// Calls `trigger` on the views of `touches` (one call per view) and up their chains.
    mutating func deliverToViews(_ trigger: HandlerTrigger, _ touches: [Touch], report: inout DispatchReport) {
        var groups: [(view: ResponderID, touches: [Touch])] = []
        for touch in touches {
            guard let view = touch.view else { continue }
            if let i = groups.firstIndex(where: { $0.view == view }) { groups[i].touches.append(touch) } else { groups.append((view, [touch])) }
        }
        for group in groups where tree.kind(of: group.view) != nil {
            callChain(from: group.view, trigger: trigger, touches: group.touches, report: &report)
        }
    }

    private mutating func record(_ id: ResponderID, time: InputTime, report: inout DispatchReport) {
        guard let r = gestures.recognizers[id] else { return }
        let entry = GestureRecord(
            recognizer: id, kind: r.spec.kind.name, view: r.spec.view, state: r.state, timestamp: time, location: r.centroid,
            touches: r.touchIDs, values: r.values)
        report.gestures.append(entry)
        if recordsResponderCalls { report.log.append(.gesture(entry)) }
    }

    private mutating func emitAction(_ id: ResponderID, time: InputTime, report: inout DispatchReport) {
        guard let r = gestures.recognizers[id], let name = r.spec.action else { return }
        let action = ActionRecord(
            name: name, responder: id, trigger: nil, payload: r.spec.payload, touches: r.touchIDs, view: r.spec.view,
            timestamp: time, gestureState: r.state)
        report.actions.append(action)
        if recordsResponderCalls { report.log.append(.action(action)) }
        statistics.actionsEmitted += 1
    }

    /// Resets recognizers that are done and whose touches have all finished.
    mutating func resetFinishedRecognizers(time: InputTime, report: inout DispatchReport) {
        // Only a recognizer given a touch can have finished or be undecided; most events leave
        // every one of them as it was, and then none is put in order.
        guard gestures.engaged.contains(where: { resetDue($0) != nil }) else {
            gestures.forgetRetired()
            return
        }
        var engaged = Self.take(&scratch.recognizers)
        defer { Self.putBack(&engaged, into: &scratch.recognizers) }
        gestures.inOrder(gestures.engaged, into: &engaged)
        for id in engaged {
            guard let (finished, undecided) = resetDue(id) else { continue }
            if finished {
                gestures.reset(id, time: time)
            } else if undecided {
                // A recognizer whose touches all ended without deciding (a pan never moved far enough).
                transitionFailedQuietly(id, time: time, report: &report)
            }
        }
        gestures.forgetRetired()
    }

    /// Whether recognizer `id`, none of whose touches is down any more, has finished (it is reset)
    /// or is undecided (it fails quietly); `nil` when it has touches down or is neither.
    private func resetDue(_ id: ResponderID) -> (finished: Bool, undecided: Bool)? {
        guard let r = gestures.recognizers[id], !r.touchIDs.contains(where: { live.contains($0) }) else { return nil }
        let finished = r.state.isTerminal
        let undecided = r.isUndecided
        return finished || undecided ? (finished, undecided) : nil
    }

    /// A recognizer whose touches ended without it deciding fails without a record; those waiting
    /// for it to fail go ahead.
    private mutating func transitionFailedQuietly(_ id: ResponderID, time: InputTime, report: inout DispatchReport) {
        gestures.reset(id, time: time)
        releaseWaiters(of: id, time: time, report: &report)
    }
}
