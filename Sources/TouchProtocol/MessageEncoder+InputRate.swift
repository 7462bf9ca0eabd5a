import TouchCore

/// The `input` form of `touch` messages: one message per input frame, rebuilt from the samples a
/// display-rate move merged, so that a client that draws or records signatures sees what it saw
/// with `refresh_hz = 0`.
extension MessageEncoder {
    /// One sample of a touch in an event: `k` indexes its merged samples, and the touch's own
    /// (newest) sample is `k == coalescedSamples.count`.
    struct SampleIndex {
        var touch: Int
        var k: Int
    }

    /// Adds one `moved` message per merged sample and one for each touch's newest sample, in time
    /// order (touches in the event's order where times are equal, as one input frame lists them).
    /// A sample where the touch stood still (the same place as the sample before) gives no
    /// message, as its input frame gave none.
    static func inputMessages(of touches: [Touch], to batch: inout MessageBatch) {
        var next = [Int](repeating: 0, count: touches.count)
        while true {
            var chosen: SampleIndex?
            var earliest = Double.infinity
            for i in touches.indices where next[i] <= touches[i].coalescedSamples.count {
                let k = next[i]
                let time = k < touches[i].coalescedSamples.count ? touches[i].coalescedSamples[k].timestamp : touches[i].timestamp
                if chosen == nil || time < earliest {
                    chosen = SampleIndex(touch: i, k: k)
                    earliest = time
                }
            }
            guard let sample = chosen else { return }
            next[sample.touch] += 1
            addInputSample(sample, of: touches, to: &batch)
        }
    }

    /// Adds the message of one sample (see ``inputMessages(of:to:)``), unless the touch stood still.
    private static func addInputSample(_ s: SampleIndex, of touches: [Touch], to batch: inout MessageBatch) {
        let samples = touches[s.touch].coalescedSamples
        let own = s.k == samples.count
        let phase = own ? touches[s.touch].phase : .moved
        let location = own ? touches[s.touch].locationInWindow : samples[s.k].locationInWindow
        let previous = s.k == 0 ? touches[s.touch].previousLocationInWindow : samples[s.k - 1].locationInWindow
        if phase == .moved && location == previous { return }
        let inView = own ? touches[s.touch].locationInView : samples[s.k].locationInView
        let previousInView = s.k == 0 ? touches[s.touch].previousLocationInView : samples[s.k - 1].locationInView
        batch.add(topic: .touches, view: touches[s.touch].view, droppable: phase == .moved, touchForms: .input) { w in
            w.member("type"); w.literal(#""touch""#)
            w.member("time"); w.double(own ? touches[s.touch].timestamp : samples[s.k].timestamp)
            w.member("touch"); w.int(Int64(clamping: touches[s.touch].id))
            w.member("phase"); self.phase(phase, to: &w)
            w.member("device"); w.string(touches[s.touch].device)
            w.member("window"); id(touches[s.touch].window, to: &w)
            w.member("view"); id(touches[s.touch].view, to: &w)
            w.member("location"); point(location, to: &w)
            w.member("previous_location"); point(previous, to: &w)
            w.member("location_in_view")
            if let p = inView { point(p, to: &w) } else { w.null() }
            w.member("previous_location_in_view")
            if let p = previousInView { point(p, to: &w) } else { w.null() }
            w.member("tap_count"); w.int(Int64(touches[s.touch].tapCount))
            w.member("major_radius"); w.double(own ? touches[s.touch].majorRadius : samples[s.k].majorRadius)
            w.member("major_radius_tolerance"); w.double(touches[s.touch].majorRadiusTolerance)
            w.member("force"); w.double(own ? touches[s.touch].force : samples[s.k].force)
            w.member("maximum_possible_force"); w.double(touches[s.touch].maximumPossibleForce)
        }
    }
}
