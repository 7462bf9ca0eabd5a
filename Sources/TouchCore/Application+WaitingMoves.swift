extension Application {
    /// The touches the moves waiting for their display tick will move, as the tick will dispatch
    /// them now, but for the samples already sent: one array per waiting move (oldest first), each
    /// touch `moved` to its newest sample, with the samples after `sentThrough`'s time for it and
    /// before the newest as its coalesced samples, its previous location the sample before those
    /// (where it was last dispatched, when none was sent), and its locations in its view as the
    /// view is now. A touch with nothing new, one that stands still, and a contact with no touch
    /// down are left out.
    ///
    /// For what goes out at the input's rate (each input frame as it arrives) while the application
    /// itself gets the moves at the display's: nothing is dispatched or changed. The work is the
    /// new samples', however many wait.
    public func waitingMoveTouches(sentThrough: (TouchID) -> InputTime = { _ in .distantPast }) -> [[Touch]] {
        // Loops rather than closures: a closure here would capture (copy) the whole application.
        let (waiting, picks) = waitingContacts(sentThrough: sentThrough)
        var moves: [[Touch]] = []
        moves.reserveCapacity(picks.count)
        for m in picks.indices {
            var touches: [Touch] = []
            touches.reserveCapacity(picks[m].count)
            for c in picks[m] {
                touches.append(
                    waitingTouch(live.entries[c.live].touch, moved: waiting[m].contacts[c.contact], from: c.first, at: waiting[m].timestamp))
            }
            moves.append(touches)
        }
        return moves
    }

    /// The same touches' new samples, without making whole touches: what goes out as frames
    /// arrive. Each has the touch's number, device, window and view, its newest sample, the ones
    /// before it not sent yet (read where the waiting move keeps them), where it was before those,
    /// and its size's tolerance, greatest force and tap count as the dispatch will give them. With
    /// `inView`, its places in its view as the view is now (as ``waitingMoveTouches(sentThrough:)``
    /// gives them); without, none (the `frames` form sends window points only).
    public func waitingMoveSamples(sentThrough: (TouchID) -> InputTime = { _ in .distantPast }, inView: Bool = false) -> [[WaitingTouchSamples]] {
        let (waiting, picks) = waitingContacts(sentThrough: sentThrough)
        var moves: [[WaitingTouchSamples]] = []
        moves.reserveCapacity(picks.count)
        for m in picks.indices {
            var samples: [WaitingTouchSamples] = []
            samples.reserveCapacity(picks[m].count)
            for c in picks[m] {
                samples.append(waitingSamples(of: c, in: waiting, move: m, inView: inView))
            }
            moves.append(samples)
        }
        return moves
    }

    /// The new samples of `c`, a contact of the waiting move `waiting[m]` (see ``waitingMoveSamples(sentThrough:inView:)``).
    @inline(__always)
    private func waitingSamples(of c: WaitingContact, in waiting: [InputFrame], move m: Int, inView: Bool) -> WaitingTouchSamples {
        // Read in place: a copy of the move, the touch or the contact would retain each of its parts.
        let i = c.live
        let k = c.contact
        let first = c.first
        let previous = first == 0 ? live.entries[i].touch.locationInWindow : waiting[m].contacts[k].coalesced[first - 1].locationInWindow
        var coalesced = waiting[m].contacts[k].coalesced[first...]
        var locationInView: Point?
        var previousLocationInView: Point?
        if inView, let view = live.entries[i].touch.view, let index = tree.nodeIndex(of: view, hint: live.entries[i].viewIndexHint) {
            locationInView = tree.convertFromWindow(waiting[m].contacts[k].location, to: index)
            previousLocationInView = tree.convertFromWindow(previous, to: index)
            if !coalesced.isEmpty { coalesced = samplesInView(coalesced, index) }
        }
        return WaitingTouchSamples(
            id: live.entries[i].touch.id, device: live.entries[i].touch.device, window: live.entries[i].touch.window,
            view: live.entries[i].touch.view, timestamp: waiting[m].timestamp, locationInWindow: waiting[m].contacts[k].location,
            previousLocationInWindow: previous, force: waiting[m].contacts[k].force, majorRadius: waiting[m].contacts[k].majorRadius,
            tapCount: live.entries[i].touch.tapCount, majorRadiusTolerance: waiting[m].contacts[k].majorRadiusTolerance,
            maximumPossibleForce: waiting[m].contacts[k].maximumPossibleForce, locationInView: locationInView,
            previousLocationInView: previousLocationInView, coalescedSamples: coalesced)
    }

    /// `samples` with their places in the view at `index`, as the view is now.
    private func samplesInView(_ samples: ArraySlice<TouchSample>, _ index: Int32) -> ArraySlice<TouchSample> {
        var placed = Array(samples)
        tree.place(&placed, inView: index)
        return placed[...]
    }

    /// A contact of a waiting move with something new: its touch's place in `live`, its place in
    /// its move, and its first coalesced sample not sent.
    private struct WaitingContact {
        var live: Int
        var contact: Int
        var first: Int
    }

    /// The moves waiting for their display tick, oldest first, and for each the contacts that have
    /// something new (see ``waitingMoveTouches(sentThrough:)``).
    private func waitingContacts(sentThrough: (TouchID) -> InputTime) -> (waiting: [InputFrame], picks: [[WaitingContact]]) {
        let waiting = queue.waitingMoves
        guard !waiting.isEmpty else { return ([], []) }
        var picks: [[WaitingContact]] = []
        picks.reserveCapacity(waiting.count)
        for m in waiting.indices {
            var contacts: [WaitingContact] = []
            contacts.reserveCapacity(waiting[m].contacts.count)
            // Each contact read in place (a copy would retain its samples).
            for k in waiting[m].contacts.indices {
                guard let i = live.index(of: TouchKey(device: waiting[m].device, contact: waiting[m].contacts[k].id)) else { continue }
                if waiting[m].contacts[k].location == live.entries[i].touch.locationInWindow && waiting[m].contacts[k].coalesced.isEmpty {
                    continue
                }
                let sent = sentThrough(live.entries[i].touch.id)
                guard waiting[m].timestamp > sent else { continue }
                // The first sample not sent: found from the newest back, past the new ones only.
                var first = waiting[m].contacts[k].coalesced.count
                while first > 0 && waiting[m].contacts[k].coalesced[first - 1].timestamp > sent { first -= 1 }
                contacts.append(WaitingContact(live: i, contact: k, first: first))
            }
            picks.append(contacts)
        }
        return (waiting, picks)
    }

    /// `touch` as the dispatch of `contact` (a waiting move) will make it, with the coalesced
    /// samples from `first` on.
    private func waitingTouch(
        _ touch: consuming Touch, moved contact: InputContact, from first: Int, at timestamp: InputTime
    ) -> Touch {
        let dispatched = touch.locationInWindow
        var moved = touch
        moved.phase = .moved
        moved.timestamp = timestamp
        moved.previousLocationInWindow = first == 0 ? dispatched : contact.coalesced[first - 1].locationInWindow
        moved.locationInWindow = contact.location
        moved.majorRadius = contact.majorRadius
        moved.majorRadiusTolerance = contact.majorRadiusTolerance
        moved.force = contact.force
        moved.maximumPossibleForce = contact.maximumPossibleForce
        moved.coalescedSamples = first == 0 ? contact.coalesced : Array(contact.coalesced[first...])
        guard let view = moved.view else { return moved }
        guard let index = tree.nodeIndex[view] else {
            // The view left the tree: no location in it, as at dispatch.
            moved.locationInView = nil
            moved.previousLocationInView = nil
            return moved
        }
        moved.locationInView = tree.convertFromWindow(moved.locationInWindow, to: index)
        moved.previousLocationInView = tree.convertFromWindow(moved.previousLocationInWindow, to: index)
        tree.place(&moved.coalescedSamples, inView: index)
        return moved
    }
}
