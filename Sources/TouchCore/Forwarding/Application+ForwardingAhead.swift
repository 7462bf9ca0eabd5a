extension Application {
    /// The steps of `frame`'s touches that go on to the windows' virtual touchscreens now, as the
    /// frame arrives, ahead of its dispatch: a compositor behind touchd gets a forwarded finger's
    /// moves and lift without waiting for the frame's hit-tests, recognizers, handlers and
    /// messages (or, at a display rate, for the tick).
    ///
    /// Only what the dispatch cannot change goes ahead: the moves and lifts of touches already
    /// down on a virtual touchscreen, where the mode is ``ForwardMode/all``, or
    /// ``ForwardMode/unclaimed`` and no recognizer the touch reaches might still claim it
    /// (`cancels_touches_in_view`) or hold its lift back (`delays_touches_ended`), and only while
    /// nothing waits in the queue but move-only frames (a touch-down, lift or other event queued
    /// before it is dispatched first, and may change what the touches' recognizers do; a move
    /// cannot give a touch to a recognizer that might claim it). Everything else
    /// goes on at dispatch as before, and the dispatch does not play again what went ahead: each
    /// touch's steps on its virtual touchscreen are those its dispatch alone would play, but for
    /// the moves a display tick merges, which go on one by one.
    ///
    /// Called before `frame` is queued; nothing else of the application changes.
    public mutating func forwardAhead(_ frame: InputFrame) -> [ForwardedTouch] {
        guard !forwarding.live.isEmpty, queue.holdsOnlyMoves else { return [] }
        var steps: [ForwardedTouch] = []
        steps.reserveCapacity(frame.contacts.count)
        // The fingers of a frame are mostly on one view: its mode is looked up once.
        var lastMode: (view: ResponderID?, window: ResponderID, mode: ForwardMode)?
        for contact in frame.contacts where contact.phase == .moved || contact.phase == .ended {
            guard let i = live.index(of: TouchKey(device: frame.device, contact: contact.id)) else { continue }
            let id = live.entries[i].touch.id
            guard let window = live.entries[i].touch.window, forwarding.live.contains(id) else { continue }
            let view = live.entries[i].touch.view
            let mode: ForwardMode
            if let last = lastMode, last.view == view, last.window == window {
                mode = last.mode
            } else {
                mode = forwardMode(view: view, window: window)
                lastMode = (view, window, mode)
            }
            guard goesOnWhateverDispatchDoes(id, contact.phase, mode: mode, delivery: live.entries[i].touch.delivery) else { continue }
            let phase: ForwardedTouch.Phase
            if contact.phase == .ended {
                forwarding.live.remove(id)
                forwarding.forgetAhead(id)
                phase = .ended
            } else {
                // A contact that stands still since it last went on is no step.
                let last = forwarding.ahead(of: id)?.location ?? live.entries[i].touch.locationInWindow
                guard contact.location != last else { continue }
                forwarding.noteAhead(.init(touch: id, timestamp: frame.timestamp, location: contact.location))
                phase = .moved
            }
            steps.append(
                ForwardedTouch(
                    touch: id, window: window, phase: phase, location: contact.location, majorRadius: contact.majorRadius,
                    force: contact.force, maximumPossibleForce: contact.maximumPossibleForce, timestamp: frame.timestamp))
        }
        return steps
    }

    /// Whether a step (`phase`, moved or ended) of the forwarded touch `id`, whose place forwards
    /// by `mode`, goes on at its dispatch whatever the dispatch does: as ``forwardUnrouted(_:report:)`` and
    /// ``forwardCall(_:_:consumed:report:)`` decide, with no recognizer left that could take the
    /// touch (or hold its lift).
    private func goesOnWhateverDispatchDoes(_ id: TouchID, _ phase: TouchPhase, mode: ForwardMode, delivery: TouchDelivery) -> Bool {
        switch mode {
        case .none:
            // Its moves stop here; its end goes on at dispatch.
            return false
        case .all:
            return true
        case .unclaimed:
            // A touch its view does not get goes on whatever the views do.
            guard delivery == .delivered, !gestures.isEmpty, let recognizers = gestures.touches[id]?.recognizers else { return true }
            for recognizer in recognizers {
                guard let r = gestures.recognizers[recognizer], r.state == .possible else { continue }
                if r.spec.cancelsTouchesInView || (phase == .ended && r.spec.delaysTouchesEnded) { return false }
            }
            return true
        }
    }
}
