extension Application {
    /// The touches the moves waiting for their display tick will move, as the tick will dispatch
    /// them now, but for the samples already sent: one array per waiting move (oldest first), each
    /// touch `moved` to its newest sample, with the samples after `sentThrough`'s time for it and
    /// before the newest as its coalesced samples, its previous location the sample before those
    /// (where it was last dispatched, when none was sent), and, with `locationsInView`, its
    /// locations in its view as the view is now (else those of its last dispatch). A touch with
    /// nothing new, one that stands still, and a contact with no touch down are left out.
    ///
    /// For what goes out at the input's rate (each input frame as it arrives) while the application
    /// itself gets the moves at the display's: nothing is dispatched or changed. The work is the
    /// new samples', however many wait.
    public func waitingMoveTouches(sentThrough: (TouchID) -> Double = { _ in -.infinity }, locationsInView: Bool = true) -> [[Touch]] {
        let waiting = queue.waitingMoves
        guard !waiting.isEmpty else { return [] }
        return waiting.map { frame in
            var touches: [Touch] = []
            touches.reserveCapacity(frame.contacts.count)
            for contact in frame.contacts {
                guard let i = live.index(of: TouchKey(device: frame.device, contact: contact.id)) else { continue }
                let touch = live.entries[i].touch
                if contact.location == touch.locationInWindow && contact.coalesced.isEmpty { continue }
                let sent = sentThrough(touch.id)
                guard frame.timestamp > sent else { continue }
                // The first sample not sent: found from the newest back, past the new ones only.
                var first = contact.coalesced.count
                while first > 0 && contact.coalesced[first - 1].timestamp > sent { first -= 1 }
                touches.append(waitingTouch(touch, moved: contact, from: first, at: frame.timestamp, locationsInView: locationsInView))
            }
            return touches
        }
    }

    /// `touch` as the dispatch of `contact` (a waiting move) will make it, with the coalesced
    /// samples from `first` on.
    private func waitingTouch(
        _ touch: consuming Touch, moved contact: InputContact, from first: Int, at timestamp: Double, locationsInView: Bool
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
        guard locationsInView, let view = moved.view else { return moved }
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
