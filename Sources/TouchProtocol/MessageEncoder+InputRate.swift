import TouchCore

/// What went out at the input's rate ahead of its dispatch: for each touch whose moves wait for a
/// display tick, the time of the newest sample already sent in the `input` and `frames` forms
/// (``MessageEncoder/arrivalMessages(of:forms:marks:)``), so that its dispatch at the tick sends
/// only what is new.
public struct InputRateMarks: Hashable, Sendable {
    /// By touch number, ascending: a handful of touches is found by a few comparisons, without
    /// hashing (touch numbers only grow, so a new touch is mostly added at the end).
    private var touches: [TouchID] = []
    private var times: [InputTime] = []

    /// No sample sent ahead.
    public init() {}

    /// Whether no touch has samples sent ahead.
    public var isEmpty: Bool { touches.isEmpty }

    /// The time of the newest sample of `touch` sent ahead; ``InputTime/distantPast`` for none.
    public func sent(_ touch: TouchID) -> InputTime {
        let i = place(of: touch)
        return i < touches.count && touches[i] == touch ? times[i] : .distantPast
    }

    mutating func noteSent(_ touch: TouchID, through time: InputTime) {
        let i = place(of: touch)
        if i < touches.count && touches[i] == touch {
            times[i] = max(times[i], time)
        } else {
            touches.insert(touch, at: i)
            times.insert(time, at: i)
        }
    }

    /// Forgets what a dispatch consumed: a finished touch, and a touch whose dispatched samples
    /// reach as far as what was sent ahead of it.
    mutating func dispatched(_ dispatched: [Touch]) {
        for touch in dispatched {
            let i = place(of: touch.id)
            guard i < touches.count && touches[i] == touch.id else { continue }
            if touch.phase == .ended || touch.phase == .cancelled || times[i] <= touch.timestamp {
                touches.remove(at: i)
                times.remove(at: i)
            }
        }
    }

    /// Where `touch` is or would go: the first place whose number is not below it.
    private func place(of touch: TouchID) -> Int {
        var low = 0
        var high = touches.count
        while low < high {
            let middle = (low + high) / 2
            if touches[middle] < touch { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The forms sent at the input's rate: `input`, one `touch` message per sample, and `frames`, one
/// `touch_frame` message per input frame, both rebuilt from the samples a display-rate move merged,
/// so that a client that draws or records signatures sees what it saw with `refresh_hz = 0`.
extension MessageEncoder {
    /// One sample of a touch in an event: `k` indexes its merged samples, and the touch's own
    /// (newest) sample is `k == coalescedSamples.count`.
    struct SampleIndex {
        var touch: Int
        var k: Int
    }

    /// The messages of the input's rate for the touches the moves waiting for their display tick
    /// will make (``TouchCore/Application/waitingMoveTouches(sentThrough:)``, given
    /// ``InputRateMarks/sent(_:)``): each sample not sent before, in the forms of `forms` among
    /// `input` and `frames`; `marks` then holds them as sent.
    public static func arrivalMessages(of moves: [[Touch]], forms: TouchForms, marks: inout InputRateMarks) -> [OutboundMessage] {
        var batch = MessageBatch(messages: 8)
        addArrivals(of: moves, forms: forms, marks: &marks, to: &batch)
        return batch.finish()
    }

    /// The same messages from the waiting moves' new samples without whole touches
    /// (``TouchCore/Application/waitingMoveSamples(sentThrough:inView:)``, with the places in the
    /// view when `forms` has `input`), written in `batch`, which keeps its room for the next use
    /// (see ``messages(for:interest:hitsSent:marks:batch:)``): the daemon's, for every input frame
    /// while a client wants the `input` or `frames` form. (Neither entry is generic: each kind of
    /// touch gets an encoding made for it, not one through the protocol's witnesses.)
    public static func arrivalMessages(
        of moves: [[WaitingTouchSamples]], forms: TouchForms, marks: inout InputRateMarks, batch: inout MessageBatch
    ) -> [OutboundMessage] {
        batch.removeAll()
        addArrivals(of: moves, forms: forms, marks: &marks, to: &batch)
        return batch.take()
    }

    private static func addArrivals<T: SampledTouch>(of moves: [[T]], forms: TouchForms, marks: inout InputRateMarks, to batch: inout MessageBatch) {
        addArrivals(of: moves, marks: &marks, to: &batch) { touches, samples, batch in
            if forms.contains(.input) { inputMessages(of: touches, samples: samples, to: &batch) }
            if forms.contains(.frames) { frameMessages(of: touches, samples: samples, to: &batch) }
        }
    }

    /// Each waiting move's samples not sent before, in order, encoded by `encode` in `batch`;
    /// `marks` then holds them as sent.
    private static func addArrivals<T: SampledTouch>(
        of moves: [[T]], marks: inout InputRateMarks, to batch: inout MessageBatch, encode: ([T], [SampleIndex], inout MessageBatch) -> Void
    ) {
        for touches in moves where !touches.isEmpty {
            let samples = samples(of: touches, after: marks)
            guard !samples.isEmpty else { continue }
            encode(touches, samples, &batch)
            for i in touches.indices { marks.noteSent(touches[i].id, through: touches[i].timestamp) }
        }
    }

    /// The samples of `touches` after those `marks` holds as sent, in time order (touches in the
    /// event's order where times are equal, as one input frame lists them).
    static func samples<T: SampledTouch>(of touches: [T], after marks: InputRateMarks) -> [SampleIndex] {
        // Most often (a frame as it arrives, a touch-down, a lift) each touch has one sample, all of
        // one time: they are in the event's order.
        if touches.allSatisfy({ $0.coalescedSamples.isEmpty && $0.timestamp == touches[0].timestamp }) {
            var order: [SampleIndex] = []
            order.reserveCapacity(touches.count)
            for i in touches.indices where marks.isEmpty || touches[i].timestamp > marks.sent(touches[i].id) {
                order.append(SampleIndex(touch: i, k: 0))
            }
            return order
        }
        var next = [Int](repeating: 0, count: touches.count)
        var total = 0
        for i in touches.indices {
            let sent = marks.isEmpty ? InputTime.distantPast : marks.sent(touches[i].id)
            while next[i] <= touches[i].coalescedSamples.count && time(of: SampleIndex(touch: i, k: next[i]), in: touches) <= sent {
                next[i] += 1
            }
            total += touches[i].coalescedSamples.count + 1 - next[i]
        }
        var order: [SampleIndex] = []
        order.reserveCapacity(total)
        while true {
            var chosen: SampleIndex?
            var earliest = InputTime.distantFuture
            for i in touches.indices where next[i] <= touches[i].coalescedSamples.count {
                let time = time(of: SampleIndex(touch: i, k: next[i]), in: touches)
                if chosen == nil || time < earliest {
                    chosen = SampleIndex(touch: i, k: next[i])
                    earliest = time
                }
            }
            guard let sample = chosen else { return order }
            next[sample.touch] += 1
            order.append(sample)
        }
    }

    private static func time<T: SampledTouch>(of s: SampleIndex, in touches: [T]) -> InputTime {
        s.k < touches[s.touch].coalescedSamples.count ? touches[s.touch].sample(s.k).timestamp : touches[s.touch].timestamp
    }

    /// A sample's place, with the one before it: what its messages say.
    struct SampleView {
        var phase: TouchPhase
        var time: InputTime
        var location: Point
        var previous: Point
        var force: Double
        var majorRadius: Double
        /// The touch stood still: its input frame gave no message.
        var isStill: Bool { phase == .moved && location == previous }
    }

    static func view<T: SampledTouch>(of s: SampleIndex, in touches: [T]) -> SampleView {
        // Read in place: a copy of the whole touch would retain each of its parts.
        let own = s.k == touches[s.touch].coalescedSamples.count
        let sample = own ? nil : touches[s.touch].sample(s.k)
        return SampleView(
            phase: own ? touches[s.touch].phase : .moved,
            time: sample?.timestamp ?? touches[s.touch].timestamp,
            location: sample?.locationInWindow ?? touches[s.touch].locationInWindow,
            previous: s.k == 0 ? touches[s.touch].previousLocationInWindow : touches[s.touch].sample(s.k - 1).locationInWindow,
            force: sample?.force ?? touches[s.touch].force,
            majorRadius: sample?.majorRadius ?? touches[s.touch].majorRadius)
    }

    /// Adds one `moved` message per sample of `samples` (``samples(of:after:)``), the touch's own
    /// sample with its phase. A sample where the touch stood still (the same place as the sample
    /// before) gives no message, as its input frame gave none.
    static func inputMessages<T: SampledTouch>(of touches: [T], samples: [SampleIndex], to batch: inout MessageBatch) {
        // The batch's kept texts, taken out while its messages are added.
        var texts = TouchTexts()
        swap(&texts, &batch.touchTexts)
        for s in samples { addInputSample(s, of: touches, texts: &texts, to: &batch) }
        swap(&texts, &batch.touchTexts)
    }

    /// Adds the message of one sample (see ``inputMessages(of:samples:to:)``), unless the touch
    /// stood still; what it repeats of the touch's last message is copied from `texts`, which then
    /// keeps what it wrote.
    private static func addInputSample<T: SampledTouch>(
        _ s: SampleIndex, of touches: [T], texts: inout TouchTexts, to batch: inout MessageBatch
    ) {
        let sample = view(of: s, in: touches)
        if sample.isStill { return }
        let own = s.k == touches[s.touch].coalescedSamples.count
        let inView = own ? touches[s.touch].locationInView : touches[s.touch].sample(s.k).locationInView
        let previousInView = s.k == 0 ? touches[s.touch].previousLocationInView : touches[s.touch].sample(s.k - 1).locationInView
        let n = texts.index(
            of: touches[s.touch].id, device: touches[s.touch].device, window: touches[s.touch].window, view: touches[s.touch].view)
        batch.add(topic: .touches, view: touches[s.touch].view, droppable: sample.phase == .moved, touchForms: .input) { w in
            w.member("type"); w.literal(#""touch""#)
            w.member("time"); w.double(sample.time.seconds)
            w.member("touch"); w.int(Int64(clamping: touches[s.touch].id))
            w.member("phase"); self.phase(sample.phase, to: &w)
            texts.writePlace(n, to: &w)
            texts.withNumbers(n) { kept in
                // The places before with the text of the last ones, then these kept as the last.
                var location: TouchTexts.Numbers.Pair = (.init(), .init())
                w.member("location"); w.point(x: sample.location.x, y: sample.location.y, reusing: &location)
                w.member("previous_location"); w.point(x: sample.previous.x, y: sample.previous.y, reusing: &kept.location)
                kept.location = location
                var locationInView: TouchTexts.Numbers.Pair = (.init(), .init())
                w.member("location_in_view")
                if let p = inView { w.point(x: p.x, y: p.y, reusing: &locationInView) } else { w.null() }
                w.member("previous_location_in_view")
                if let p = previousInView { w.point(x: p.x, y: p.y, reusing: &kept.locationInView) } else { w.null() }
                if inView != nil { kept.locationInView = locationInView }
                w.member("tap_count"); w.int(Int64(touches[s.touch].tapCount))
                w.member("major_radius"); w.double(sample.majorRadius, reusing: &kept.majorRadius)
                w.member("major_radius_tolerance"); w.double(touches[s.touch].majorRadiusTolerance, reusing: &kept.majorRadiusTolerance)
                w.member("force"); w.double(sample.force, reusing: &kept.force)
                w.member("maximum_possible_force"); w.double(touches[s.touch].maximumPossibleForce, reusing: &kept.maximumPossibleForce)
            }
        }
        if sample.phase.isFinal { texts.forget(n) }
    }

    /// Adds one `touch_frame` message per input frame (the samples of one time), device and window, with
    /// every touch the frame changed as `[touch, phase, x, y, force, major_radius]`; a frame in which
    /// every touch stood still gives none.
    static func frameMessages<T: SampledTouch>(of touches: [T], samples: [SampleIndex], to batch: inout MessageBatch) {
        var start = 0
        while start < samples.count {
            let time = time(of: samples[start], in: touches)
            var end = start + 1
            while end < samples.count && self.time(of: samples[end], in: touches) == time { end += 1 }
            // The changed touches of the frame; touches of one event share a device and a window,
            // but for a cancellation of several, which gives a message for each.
            var changed: [(touch: Int, sample: SampleView)] = []
            changed.reserveCapacity(end - start)
            for s in samples[start..<end] {
                let sample = view(of: s, in: touches)
                if !sample.isStill { changed.append((s.touch, sample)) }
            }
            while let first = changed.first {
                let samePlace = { (i: Int) in touches[i].device == touches[first.touch].device && touches[i].window == touches[first.touch].window }
                // Nearly always one device and window: the frame's touches as they are.
                if changed.allSatisfy({ samePlace($0.touch) }) {
                    addFrame(changed, at: time, of: touches, to: &batch)
                    break
                }
                addFrame(changed.filter { samePlace($0.touch) }, at: time, of: touches, to: &batch)
                changed.removeAll { samePlace($0.touch) }
            }
            start = end
        }
    }

    private static func addFrame<T: SampledTouch>(
        _ changed: [(touch: Int, sample: SampleView)], at time: InputTime, of touches: [T], to batch: inout MessageBatch
    ) {
        guard let first = changed.first else { return }
        var views: [ResponderID] = []
        views.reserveCapacity(changed.count)
        var droppable = true
        for entry in changed {
            if let v = touches[entry.touch].view, !views.contains(v) { views.append(v) }
            if entry.sample.phase != .moved { droppable = false }
        }
        batch.add(topic: .touches, views: views, droppable: droppable, touchForms: .frames) { w in
            w.member("type"); w.literal(#""touch_frame""#)
            w.member("time"); w.double(time.seconds)
            w.member("device"); w.string(touches[first.touch].device)
            w.member("window"); id(touches[first.touch].window, to: &w)
            w.member("touches")
            w.literal("[")
            for (n, entry) in changed.enumerated() {
                if n > 0 { w.literal(",") }
                w.literal("[")
                w.int(Int64(clamping: touches[entry.touch].id)); w.literal(",")
                phase(entry.sample.phase, to: &w); w.literal(",")
                w.double(entry.sample.location.x); w.literal(",")
                w.double(entry.sample.location.y); w.literal(",")
                w.double(entry.sample.force); w.literal(",")
                w.double(entry.sample.majorRadius)
                w.literal("]")
            }
            w.literal("]")
        }
    }
}

extension SampledTouch {
    /// The `k`th merged sample (0 is the oldest), wherever the samples' indices start.
    @inline(__always)
    func sample(_ k: Int) -> TouchSample { coalescedSamples[coalescedSamples.startIndex + k] }
}
