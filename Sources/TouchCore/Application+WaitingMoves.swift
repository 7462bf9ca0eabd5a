extension Application {
    /// The touches the moves waiting for their display tick will move, as the tick will dispatch
    /// them now: one array per waiting move (oldest first), each touch `moved` to its newest sample
    /// with the earlier ones as its coalesced samples, its previous location where it was last
    /// dispatched, and its locations in its view as the view is now. A touch that stands still, and
    /// a contact with no touch down, are left out.
    ///
    /// For what goes out at the input's rate (each input frame as it arrives) while the application
    /// itself gets the moves at the display's: nothing is dispatched or changed.
    public func waitingMoveTouches() -> [[Touch]] {
        let waiting = queue.waitingMoves
        guard !waiting.isEmpty else { return [] }
        return waiting.map { frame in
            var touches: [Touch] = []
            touches.reserveCapacity(frame.contacts.count)
            for contact in frame.contacts {
                guard let i = live.index(of: TouchKey(device: frame.device, contact: contact.id)) else { continue }
                if contact.location == live[i].touch.locationInWindow && contact.coalesced.isEmpty { continue }
                touches.append(waitingTouch(live[i].touch, moved: contact, at: frame.timestamp))
            }
            return touches
        }
    }

    /// `touch` as the dispatch of `contact` (a waiting move) will make it.
    private func waitingTouch(_ touch: Touch, moved contact: InputContact, at timestamp: Double) -> Touch {
        var moved = touch
        moved.phase = .moved
        moved.timestamp = timestamp
        moved.previousLocationInWindow = touch.locationInWindow
        moved.locationInWindow = contact.location
        moved.majorRadius = contact.majorRadius
        moved.majorRadiusTolerance = contact.majorRadiusTolerance
        moved.force = contact.force
        moved.maximumPossibleForce = contact.maximumPossibleForce
        moved.coalescedSamples = contact.coalesced
        guard let view = touch.view else { return moved }
        guard let index = tree.nodeIndex[view] else {
            // The view left the tree: no location in it, as at dispatch.
            moved.locationInView = nil
            moved.previousLocationInView = nil
            return moved
        }
        moved.locationInView = tree.convertFromWindow(moved.locationInWindow, to: index)
        moved.previousLocationInView = tree.convertFromWindow(moved.previousLocationInWindow, to: index)
        for k in moved.coalescedSamples.indices {
            moved.coalescedSamples[k].locationInView = tree.convertFromWindow(moved.coalescedSamples[k].locationInWindow, to: index)
        }
        return moved
    }
}
