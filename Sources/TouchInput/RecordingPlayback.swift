import TouchCore
import TouchEvdev

/// A recording's events played through its device's pipeline in time order: the stepping that
/// `touchd replay` (all at once) and the daemon's recording source (paced by a timer) share, so a
/// recording takes the path a live device's reads take.
///
/// Besides the events, it plays what a device does without input: an accelerometer's shake ends
/// at its deadline when the device goes quiet (the kernel sends nothing then), before any later
/// event, and after the last event as the device stays quiet. ``finish()`` then ends what is still
/// held (touches, keys) as cancelled, as unplugging the device would.
public struct RecordingPlayback: Sendable {
    /// The events, in file order.
    public let events: [InputEvent]
    /// The pipeline the events go through; `nil` once the device is no longer used (a reloaded
    /// layout that does not take it).
    public var pipeline: DevicePipeline?
    /// The index of the next event to play.
    public private(set) var next = 0

    /// A playback of `events` from the start, through `pipeline`.
    public init(events: [InputEvent], pipeline: DevicePipeline) {
        self.events = events
        self.pipeline = pipeline
    }

    /// Whether every event has been played.
    public var isAtEnd: Bool { next >= events.count }

    /// When the next thing is due on the recording's clock: the next event, or the device's own
    /// deadline when that comes first (or when no event is left); `nil` when nothing is.
    /// (Mutating as ``DevicePipeline/deadline`` is: the pipeline is looked at in place.)
    public var nextDue: EventTime? {
        mutating get {
            let deadline = pipeline?.deadline
            guard next < events.count else { return deadline }
            let event = events[next].time
            guard let deadline, deadline < event else { return event }
            return deadline
        }
    }

    /// Plays everything due at or before `time` (deadlines before the events that follow them), at
    /// most `maximumEvents` events of it, and returns the events it completes, in order. What the
    /// bound leaves is still due (``nextDue``): a caller that fell behind plays it in later turns,
    /// as a live device's reads are bounded, rather than in one long one.
    public mutating func play(through time: EventTime, maximumEvents: Int = .max) -> [QueuedEvent] {
        var completed: [QueuedEvent] = []
        let limit = next + min(max(maximumEvents, 1), events.count - next)
        guard var decoder = pipeline.take() else {
            while next < limit, events[next].time <= time { next += 1 }
            return completed
        }
        if decoder.hasDeadlines {
            // Event by event: a shake's deadline may fall between any two.
            while next < limit, events[next].time <= time {
                if let deadline = decoder.deadline, deadline < events[next].time { completed += decoder.advance(to: deadline) }
                completed += decoder.feed(events[next])
                next += 1
            }
        } else {
            // One batch, fed with one access to the decoder's state (as a live device's read is).
            var end = next
            while end < limit, events[end].time <= time { end += 1 }
            decoder.feed(events[next..<end], into: &completed)
            next = end
        }
        // Cut short by the bound, the device's time is its last event's: a deadline after it waits.
        let reached = next < events.count && events[next].time <= time && next > 0 ? events[next - 1].time : time
        if let deadline = decoder.deadline, deadline <= reached { completed += decoder.advance(to: deadline) }
        pipeline = consume decoder
        return completed
    }

    /// Ends the recording: what the device still holds (touches, keys, a shake whose deadline was
    /// not played) ends as cancelled, at the last event's time, as unplugging it would.
    public mutating func finish() -> [QueuedEvent] {
        next = events.count
        guard var decoder = pipeline.take() else { return [] }
        let completed = decoder.finish(at: events.last?.time ?? EventTime(microseconds: 0))
        pipeline = decoder
        return completed
    }

    /// What the device's stream had that was odd, since the last call.
    public mutating func takeAnomalies() -> [DeviceAnomaly] { pipeline?.takeAnomalies() ?? [] }
}
