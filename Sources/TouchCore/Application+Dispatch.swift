extension Application {
    /// Dispatches one touches event: new touches are hit-tested, live ones updated, and the changed
    /// touches delivered to their views' responder chains grouped as UIKit groups them. The hit
    /// records of the touches that began go to `hitsReady` before anything is delivered.
    mutating func dispatchTouches(_ frame: InputFrame, hitsReady: ([HitRecord]) -> Void) -> DispatchReport {
        // Filled in place and returned from here: returned from the function that fills it, the
        // whole report was copied (every list of it retained) and the original destroyed.
        var report = DispatchReport(event: Event(type: .touches, timestamp: frame.timestamp, allTouches: []))
        dispatchTouches(frame, into: &report, hitsReady: hitsReady)
        return report
    }

    private mutating func dispatchTouches(_ frame: InputFrame, into report: inout DispatchReport, hitsReady: ([HitRecord]) -> Void) {
        statistics.eventsDispatched += 1
        if recordsResponderCalls {
            // Each changed touch's call walks a responder chain of a handful of responders.
            report.calls.reserveCapacity(8 * frame.contacts.count)
            report.log.reserveCapacity(8 * frame.contacts.count)
        }
        // Timers due before this event fire first (a long press that began while the finger rested).
        fireTimers(upTo: frame.timestamp, report: &report)
        // Every touch down stands still in this event unless this frame moves it: only those the
        // last event changed may not, so only they are looked at.
        settleTouches()
        // The changed touches' places in `live`: none leaves it before `deliver` retires them.
        var changed = Self.take(&scratch.changed)
        // The contacts of this frame so far (all of one device).
        var seen = SeenContacts(capacity: frame.contacts.count)
        report.hits = Self.take(&scratch.reportHits)
        for k in frame.contacts.indices {
            guard seen.insert(k, of: frame.contacts) else {
                report.anomalies.append("device \(frame.device): contact \(frame.contacts[k].id) twice in one frame")
                continue
            }
            if let i = apply(frame.contacts[k], of: frame, report: &report) { changed.append(i) }
        }
        statistics.anomalies += report.anomalies.count
        if !report.hits.isEmpty { hitsReady(report.hits) }
        scratch.reportHits = report.hits
        deliver(changed, report: &report)
        Self.putBack(&changed, into: &scratch.changed)
    }

    /// Updates the live touch of `contact`, or begins one if it lands; returns the touch's place in
    /// `live` when it changed (it did not stand still).
    private mutating func apply(_ contact: InputContact, of frame: InputFrame, report: inout DispatchReport) -> Int? {
        let key = TouchKey(device: frame.device, contact: contact.id)
        // A live touch is changed in place: one look-up per contact.
        if let i = live.index(of: key) {
            if contact.phase == .began {
                report.anomalies.append("device \(frame.device): contact \(contact.id) began twice")
            }
            Self.update(&live[i], with: contact, timestamp: frame.timestamp)
            live.unsettled.append(key)
            return live[i].touch.phase != .stationary ? i : nil
        }
        // A contact whose touch was cancelled here: its moves and lift are the finger's, not
        // faults (a landing again is a new touch).
        if !cancelledContacts.isEmpty, let c = cancelledContacts.firstIndex(of: key) {
            if contact.phase != .moved && contact.phase != .stationary { cancelledContacts.remove(at: c) }
            if contact.phase != .began { return nil }
        }
        guard contact.phase == .began else {
            if contact.phase != .stationary {
                report.anomalies.append("device \(frame.device): contact \(contact.id) \(contact.phase.rawValue) without a touch-down")
            }
            return nil
        }
        begin(contact, frame: frame, report: &report)
        live.unsettled.append(key)
        return live.count - 1
    }

    /// Makes the touches the last event changed stand still, their sample lists going back to the
    /// queue; the last report's touch list is emptied first, so that those lists are theirs alone.
    private mutating func settleTouches() {
        scratch.reportTouches.removeAll(keepingCapacity: true)
        scratch.reportHits.removeAll(keepingCapacity: true)
        live.settle(recyclingInto: &queue)
    }

    /// Cancels the live touches that `shouldCancel` selects, as one event.
    mutating func cancelTouches(timestamp: InputTime, where shouldCancel: (Touch) -> Bool) -> DispatchReport? {
        // In the order the touches began.
        let cancelled = live.entries.indices.filter { shouldCancel(live[$0].touch) }.sorted { live[$0].touch.id < live[$1].touch.id }
        guard !cancelled.isEmpty else { return nil }
        statistics.eventsDispatched += 1
        var report = DispatchReport(event: Event(type: .touches, timestamp: timestamp, allTouches: []))
        settleTouches()
        for i in cancelled {
            noteCancelled(TouchKey(device: live[i].touch.device, contact: live[i].touch.contact))
            live[i].touch.coalescedSamples = []
            live[i].touch.previousLocationInWindow = live[i].touch.locationInWindow
            live[i].touch.phase = .cancelled
            live[i].touch.timestamp = timestamp
        }
        deliver(cancelled, report: &report)
        return report
    }

    /// Remembers that the touch of `key` was cancelled with its finger still down (see
    /// ``cancelledContacts``).
    private mutating func noteCancelled(_ key: TouchKey) {
        if cancelledContacts.count >= Self.cancelledKeptAtMost { cancelledContacts.removeFirst() }
        cancelledContacts.append(key)
    }

    private mutating func begin(_ contact: InputContact, frame: InputFrame, report: inout DispatchReport) {
        let hit = tree.hitTest(contact.location, onDisplayOf: frame.window, traced: tracesHitTests)
        let window = hit?.window ?? frame.window
        let view = hit?.view
        // The window and view are read by their places in the tree, which the hit-test found.
        let ppm = hit.map { tree.pointsPerMillimetre(ofNode: $0.windowNode) } ?? tree.pointsPerMillimetre(of: window)
        let tapCount = taps.tapCount(window: window, location: contact.location, time: frame.timestamp, pointsPerMillimetre: ppm)
        let delivery = deliveryDecision(for: view, node: hit?.viewNode, in: window)
        let touch = Touch(
            id: nextTouchID, device: frame.device, contact: contact.id, phase: .began, timestamp: frame.timestamp,
            tapCount: tapCount, majorRadius: contact.majorRadius, majorRadiusTolerance: contact.majorRadiusTolerance,
            force: contact.force, maximumPossibleForce: contact.maximumPossibleForce, window: window, view: view,
            locationInWindow: contact.location, previousLocationInWindow: contact.location,
            beganAt: frame.timestamp, beganLocationInWindow: contact.location, delivery: delivery,
            coalescedSamples: contact.coalesced)
        nextTouchID += 1
        statistics.touchesBegan += 1
        live.append(LiveTouch(touch: touch, farthestDistance: 0))
        report.hits.append(
            HitRecord(
                touch: touch.id, device: frame.device, timestamp: frame.timestamp, window: window, view: view,
                viewPath: view.map { hitPath(to: $0) } ?? [], pointInWindow: contact.location,
                pointInView: hit?.pointInView, delivery: delivery, tapCount: tapCount, trace: hit?.trace ?? []))
    }

    /// The path from its window to `view`, kept for the next touch on it.
    private mutating func hitPath(to view: ResponderID) -> [ResponderID] {
        if let path = scratch.hitPaths[view] { return path }
        if scratch.hitPaths.count >= Self.hitPathsKeptAtMost { scratch.hitPaths.removeAll(keepingCapacity: true) }
        let path = tree.path(to: view)
        scratch.hitPaths[view] = path
        return path
    }

    private static func update(_ entry: inout LiveTouch, with contact: InputContact, timestamp: InputTime) {
        entry.touch.previousLocationInWindow = entry.touch.locationInWindow
        entry.touch.locationInWindow = contact.location
        entry.touch.timestamp = timestamp
        entry.touch.phase = contact.phase == .began ? .moved : contact.phase
        if contact.phase == .moved && contact.location == entry.touch.previousLocationInWindow && contact.coalesced.isEmpty {
            entry.touch.phase = .stationary
        }
        entry.touch.majorRadius = contact.majorRadius
        entry.touch.majorRadiusTolerance = contact.majorRadiusTolerance
        entry.touch.force = contact.force
        entry.touch.maximumPossibleForce = contact.maximumPossibleForce
        entry.touch.coalescedSamples = contact.coalesced
        for sample in contact.coalesced {
            entry.farthestDistance = max(entry.farthestDistance, sample.locationInWindow.distance(to: entry.touch.beganLocationInWindow))
        }
        entry.farthestDistance = max(entry.farthestDistance, contact.location.distance(to: entry.touch.beganLocationInWindow))
    }

    /// Whether a touch landing on `view` (at `node` in the tree) is delivered, given the touches
    /// already down in `window`: found from the window's count of delivered touches by view, and,
    /// only when other views have some, from whether one of those views is exclusive-touch (as it
    /// is now).
    private func deliveryDecision(for view: ResponderID?, node: Int32?, in window: ResponderID) -> TouchDelivery {
        guard let view, let node else { return .noView }
        let flags = tree.touchFlags(ofNode: node)
        guard let delivered = live.deliveredTouches(in: window), delivered.count > 0 else { return .delivered }
        let onView = delivered.touches(on: view)
        if !flags.multipleTouch && onView > 0 { return .multipleTouchDisabled }
        guard delivered.count > onView else { return .delivered }
        if flags.exclusiveTouch { return .exclusiveTouchElsewhere }
        // No view is exclusive-touch: nothing to look for (a look-up per view touched, per touch-down).
        guard tree.exclusiveTouchViewCount > 0 else { return .delivered }
        let exclusiveElsewhere = delivered.containsView { other in other != view && tree.touchFlags(of: other)?.exclusiveTouch == true }
        return exclusiveElsewhere ? .exclusiveTouchElsewhere : .delivered
    }

    /// Delivers the changed touches: per phase (began, moved, ended, cancelled), one call per view
    /// with all of that view's touches in that phase, views in the order of their first touch. Then
    /// finished touches are retired.
    private mutating func deliver(_ changed: [Int], report: inout DispatchReport) {
        if recordsResponderCalls { report.event.allTouches = activeTouches }
        var touches = Self.take(&scratch.reportTouches)
        touches.removeAll(keepingCapacity: true)
        touches.reserveCapacity(changed.count)
        for i in changed {
            noteLocationInView(of: i)
            touches.append(live[i].touch)
        }
        report.changedTouches = touches
        scratch.reportTouches = touches
        let event = report.event
        // Recognizers see the touches first, and may take them from the views.
        runRecognizers(report.changedTouches, time: event.timestamp, report: &report)
        for trigger in HandlerTrigger.touchMethods {
            if canSkipCalls(for: trigger) {
                countUnhandledCalls(trigger, in: report.changedTouches)
                continue
            }
            callViews(trigger, report: &report)
        }
        if !forwarding.modes.isEmpty { forwardUnrouted(report.changedTouches, report: &report) }
        retireFinished(changed)
        if !gestures.isEmpty { resetFinishedRecognizers(time: event.timestamp, report: &report) }
    }

    /// Calls `trigger` on the views of the changed touches in its phase: one call per view with all
    /// of that view's touches, views in the order of their first touch. A touch claimed by a
    /// recognizer, or held back by one, makes no call.
    private mutating func callViews(_ trigger: HandlerTrigger, report: inout DispatchReport) {
        var calls = Self.take(&scratch.calls)
        var touches = Self.take(&scratch.touches)
        defer {
            Self.putBack(&calls, into: &scratch.calls)
            Self.putBack(&touches, into: &scratch.touches)
        }
        // Looked at in place; only the touches of this phase are copied.
        for i in report.changedTouches.indices where HandlerTrigger(phase: report.changedTouches[i].phase) == trigger {
            let touch = report.changedTouches[i]
            guard touch.delivery == .delivered, let view = touch.view, !gestures.isClaimed(touch.id) else { continue }
            if !gestures.isEmpty && !heldBack(touch) { continue }
            calls.append(ViewCall(view: view, touch: i))
        }
        // Each view's call comes with its first touch, and has its touches from there on.
        for c in calls.indices where !calls[..<c].contains(where: { $0.view == calls[c].view }) {
            touches.removeAll(keepingCapacity: true)
            for other in calls[c...] where other.view == calls[c].view { touches.append(report.changedTouches[other.touch]) }
            callChain(from: calls[c].view, trigger: trigger, touches: touches, report: &report)
            // Without recognizers no arbitration needs to know (one attached later never gets the touch).
            if trigger == .touchesBegan && !gestures.isEmpty { for touch in touches { gestures.beganDelivered(touch.id) } }
        }
    }

    /// Records where a live touch is in its view, as the view is now (the view may move later):
    /// what the touch's messages say, without a tree.
    private mutating func noteLocationInView(of i: Int) {
        // Read in place: copying the whole touch would retain each of its parts.
        guard let view = live[i].touch.view else { return }
        guard let index = tree.nodeIndex(of: view, hint: live[i].viewIndexHint) else {
            // The view left the tree: no location in it.
            live[i].touch.locationInView = nil
            live[i].touch.previousLocationInView = nil
            return
        }
        live[i].viewIndexHint = index
        live[i].touch.locationInView = tree.convertFromWindow(live[i].touch.locationInWindow, to: index)
        live[i].touch.previousLocationInView = tree.convertFromWindow(live[i].touch.previousLocationInWindow, to: index)
        guard recordsSampleLocationsInView, !live[i].touch.coalescedSamples.isEmpty else { return }
        tree.place(&live[i].touch.coalescedSamples, inView: index)
    }

    /// Finished touches leave, in the order they changed (the tap tracker hears of each).
    private mutating func retireFinished(_ changed: [Int]) {
        var finished = Self.take(&scratch.finished)
        defer { Self.putBack(&finished, into: &scratch.finished) }
        for i in changed {
            switch live[i].touch.phase {
            case .ended:
                let ppm = live[i].touch.window.map { tree.pointsPerMillimetre(of: $0) } ?? WindowProperties.defaultPointsPerMillimetre
                taps.touchEnded(live[i].touch, farthestDistance: live[i].farthestDistance, pointsPerMillimetre: ppm)
                finished.append(i)
            case .cancelled:
                statistics.touchesCancelled += 1
                finished.append(i)
            case .began, .moved, .stationary:
                break
            }
        }
        // Last place first: the touch that takes a removed one's place has finished already or not at all.
        finished.sort(by: >)
        for i in finished {
            let id = live[i].touch.id
            live.remove(at: i)
            forgetIfUnwatched(id)
        }
    }

    /// Whether the calls of `trigger` can be counted rather than made: nothing would observe them.
    /// No report records them, no responder has a handler for them, no recognizer can hold them
    /// back or claim their touches, and no control tracks them.
    private func canSkipCalls(for trigger: HandlerTrigger) -> Bool {
        !recordsResponderCalls && !handlers.hasHandlers(for: trigger) && gestures.isEmpty && !gestures.hasClaims
            && controls.isEmpty && trigger != .touchesBegan && forwarding.modes.isEmpty
    }

    /// Counts the calls of `trigger` that would pass along their chains unhandled: one per view
    /// with delivered touches in that phase.
    private mutating func countUnhandledCalls(_ trigger: HandlerTrigger, in touches: [Touch]) {
        var calls = 0
        for i in touches.indices {
            guard HandlerTrigger(phase: touches[i].phase) == trigger, touches[i].delivery == .delivered,
                let view = touches[i].view
            else { continue }
            // One call per view: counted with the view's first touch in this phase.
            var first = true
            for j in 0..<i where touches[j].view == view && touches[j].phase == touches[i].phase && touches[j].delivery == .delivered {
                first = false
                break
            }
            if first { calls += 1 }
        }
        statistics.unhandledCalls += calls
    }

    /// Forgets a finished touch's delivery record unless a recognizer still tracks or holds it
    /// (then resetting the recognizers forgets it).
    private mutating func forgetIfUnwatched(_ id: TouchID) {
        guard !gestures.touches.isEmpty else { return }
        gestures.forgetUnwatched(id)
    }

    /// Whether `touch`'s view call goes ahead now (`true`) or is held back by a recognizer's delay.
    private mutating func heldBack(_ touch: Touch) -> Bool {
        if gestures.touches[touch.id]?.heldBegan != nil {
            // Its began is still held: so is everything after it; keep its last state for the end.
            if touch.phase.isFinal { gestures.touches[touch.id]?.heldEnded = touch }
            return false
        }
        switch touch.phase {
        case .began where gestures.holds(touch.id, \.delaysTouchesBegan):
            gestures.touches[touch.id, default: TouchArbitration()].heldBegan = touch
            return false
        case .ended where gestures.holds(touch.id, \.delaysTouchesEnded):
            gestures.touches[touch.id, default: TouchArbitration()].heldEnded = touch
            return false
        default:
            return true
        }
    }

    /// Walks the responder chain from `first`: each responder's matching handlers emit their actions;
    /// the call goes on to the next responder unless a matching handler consumes it.
    mutating func callChain(
        from first: ResponderID, trigger: HandlerTrigger, touches: [Touch], report: inout DispatchReport
    ) {
        if !controls.isEmpty && isControl(first) {
            controlTracks(first, trigger: trigger, touches: touches, report: &report)
            forwardCall(trigger, touches, consumed: true, report: &report)
            return
        }
        let consumed = walkResponderChain(from: first, trigger: trigger, touches: touches.map(\.id), detail: [], report: &report) {
            $0.matches(trigger, touches: touches)
        }
        forwardCall(trigger, touches, consumed: consumed, report: &report)
    }

    /// The walk every responder call makes, touches or not: from `first` up the responder chain,
    /// each responder's handlers that `matches` selects emit their actions (with `touches` and
    /// `detail`), and the call goes on to the next responder unless one of them consumes it; a call
    /// that reaches the end is counted as unhandled. A call no responder has a handler for passes
    /// along the whole chain without a walk unless responder calls are recorded (`touches` is not
    /// even worked out then).
    /// - Returns: whether a handler consumed the call (it did not reach the end of the chain).
    @discardableResult
    mutating func walkResponderChain(
        from first: ResponderID, trigger: HandlerTrigger, touches: @autoclosure () -> [TouchID], detail: [String],
        report: inout DispatchReport, matches: (Handler) -> Bool
    ) -> Bool {
        guard recordsResponderCalls || handlers.hasHandlers(for: trigger) else {
            statistics.unhandledCalls += 1
            return false
        }
        let touches = touches()
        for responder in tree.responderChain(from: first) {
            let recorded = report.calls.count
            if recordsResponderCalls {
                let call = ResponderCall(responder: responder, trigger: trigger, touches: touches, detail: detail)
                report.calls.append(call)
                report.log.append(.call(call))
            }
            var passesOn = true
            for handler in handlers.handlers(for: responder) where matches(handler) {
                var action = ActionRecord(
                    name: handler.action, responder: responder, trigger: trigger, payload: handler.payload,
                    touches: touches, view: first, timestamp: report.event.timestamp)
                action.detail = detail
                report.actions.append(action)
                if recordsResponderCalls { report.log.append(.action(action)) }
                statistics.actionsEmitted += 1
                applyFirstResponderEffect(of: handler, report: &report)
                passesOn = passesOn && handler.passesOn
            }
            if !passesOn {
                if recordsResponderCalls { report.markCall(recorded, passedOn: false) }
                return true
            }
        }
        if recordsResponderCalls {
            report.unhandled.append(ResponderCall(responder: first, trigger: trigger, touches: touches, detail: detail))
        }
        statistics.unhandledCalls += 1
        return false
    }
}
