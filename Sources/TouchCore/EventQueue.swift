/// An event waiting in the application's queue.
///
/// Touches, presses, remote-control and motion events share one queue, so they are dispatched in
/// the order they arrived; only move-only touch frames are ever merged.
public enum QueuedEvent: Hashable, Sendable {
    case touches(InputFrame)
    case presses(PressInput)
    case remoteControl(RemoteControlInput)
    case motion(MotionInput)

    /// When the event happened (seconds on the input's clock).
    public var timestamp: InputTime {
        switch self {
        case .touches(let frame): frame.timestamp
        case .presses(let input): input.timestamp
        case .remoteControl(let input): input.timestamp
        case .motion(let input): input.timestamp
        }
    }
}

/// What happened to an event offered to the queue.
public enum EnqueueOutcome: Hashable, Sendable {
    /// Added at the tail.
    case queued
    /// Merged into the move-only frame at the tail (its samples kept as coalesced samples).
    case coalesced
    /// The queue is full and the event could not be merged: dispatch before offering it again.
    /// Nothing was dropped.
    case full
}

/// The application's event queue: first in, first out, bounded. The counterpart of the queue
/// `UIApplication` takes events from, one at a time.
///
/// Display rate: an event may be offered with the time it is due (``enqueue(_:dueAt:)``): a
/// move-only frame of a window with a refresh rate waits for the window's next display tick. Such
/// a *pending* move merges into the pending move of the same device, window and contacts due at the
/// same tick, wherever it waits among the pending moves at the tail; every sample is kept as the
/// touch's coalesced samples (UIKit's `coalescedTouches(for:)`). An event due at once (every other
/// event) makes everything queued before it due with it, so order is kept.
///
/// Backlog policy: once ``coalescingThreshold`` events wait, a move-only frame whose device and
/// contacts equal those of the frame at the tail is merged into it, whatever its tick. Frames with a
/// touch that begins, ends or is cancelled are never merged, dropped or reordered. When
/// ``capacity`` events wait and a frame cannot be merged, ``enqueue(_:dueAt:)`` answers
/// ``EnqueueOutcome/full`` and the caller dispatches the oldest events to make room before offering
/// it again (the daemon does so at once, so its reading never stops and nothing is dropped).
public struct ApplicationEventQueue: Sendable {
    /// An event and when it may be dispatched (``InputTime/distantPast``: at once).
    struct Entry: Sendable {
        var event: QueuedEvent
        var due: InputTime
    }

    public let capacity: Int
    public let coalescingThreshold: Int
    private var storage: [Entry] = []
    private var head = 0
    /// The index in `storage` up to which every entry is due (an event due at once makes all
    /// before it due); `head - 1` or less when none is.
    private var dueThrough = -1
    /// How many frames were merged since the queue was made.
    public private(set) var coalescedCount = 0
    /// The most events that ever waited at once.
    public private(set) var highWaterMark = 0
    /// How many of the events waiting are not move-only frames.
    private var waitingOthers = 0
    /// Emptied sample lists with their room, given back by dispatched touches
    /// (``recycle(_:)``): a merge takes one rather than allocating, so that a move waiting for
    /// its display tick costs no allocation once warm.
    private var spareSamples: [[TouchSample]] = []

    public init(capacity: Int = 1024, coalescingThreshold: Int = 8) {
        precondition(capacity >= 1 && coalescingThreshold >= 1, "queue capacity and threshold must be positive")
        self.capacity = capacity
        self.coalescingThreshold = min(coalescingThreshold, capacity)
    }

    /// The number of events waiting.
    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    /// When the earliest event waiting for a display tick is due; `nil` when none waits. (Events
    /// due at once are not counted: they are dispatched without waiting.)
    public var nextTick: InputTime? {
        var earliest: InputTime?
        for i in max(head, dueThrough + 1)..<storage.count where storage[i].due > .distantPast {
            earliest = min(earliest ?? storage[i].due, storage[i].due)
        }
        return earliest
    }

    /// Offers an event at the tail, due at `due` (input time; ``InputTime/distantPast``, the default,
    /// for at once); see the type's display-rate and backlog policies.
    public mutating func enqueue(_ event: QueuedEvent, dueAt due: InputTime = .distantPast) -> EnqueueOutcome {
        if case .touches(let frame) = event, frame.isMoveOnly {
            if due > .distantPast, let i = pendingMove(like: frame, dueAt: due) {
                Self.merge(frame, into: &storage[i].event, spares: &spareSamples)
                coalescedCount += 1
                return .coalesced
            }
            if count >= coalescingThreshold, let last = storage.indices.last, last >= head, Self.canMerge(frame, into: storage[last].event) {
                Self.merge(frame, into: &storage[last].event, spares: &spareSamples)
                coalescedCount += 1
                return .coalesced
            }
        }
        guard count < capacity else { return .full }
        storage.append(Entry(event: event, due: due))
        if !Self.isMoveOnly(event) { waitingOthers += 1 }
        if due == .distantPast { dueThrough = storage.count - 1 }
        highWaterMark = max(highWaterMark, count)
        return .queued
    }

    /// The pending move among those waiting at the tail that `frame` merges into: the same device,
    /// window and contacts, due at the same tick. The search stops at an event due at once (nothing
    /// is merged across it) and at a move of the same device due at another tick.
    private func pendingMove(like frame: InputFrame, dueAt due: InputTime) -> Int? {
        var i = storage.count - 1
        while i > dueThrough && i >= head {
            guard case .touches(let waiting) = storage[i].event else { return nil }
            if waiting.device == frame.device {
                return storage[i].due == due && Self.canMerge(frame, into: storage[i].event) ? i : nil
            }
            i -= 1
        }
        return nil
    }

    /// The most emptied sample lists kept (``recycle(_:)``): as many as ten fingers of two
    /// devices need at once, with room to spare.
    static let spareSampleLimit = 32
    /// The most room a list kept may have: a display tick's samples at the slowest refresh rate
    /// (10 Hz) from a 1 kHz device, with room to spare. A larger one (a backlog merged) is let go,
    /// so that the spare lists never hold more than a few hundred kilobytes.
    static let spareSampleRoom = 128

    /// Takes back a dispatched touch's coalesced samples for a later merge, emptied with their room
    /// kept; `samples` is left empty. (Should anything else still hold the list, emptying it makes
    /// a new one, as the merge would have.) Beyond ``spareSampleLimit``, or with little room or
    /// more than ``spareSampleRoom``, the list is only let go.
    public mutating func recycle(_ samples: inout [TouchSample]) {
        var taken: [TouchSample] = []
        swap(&taken, &samples)
        guard spareSamples.count < Self.spareSampleLimit, (8...Self.spareSampleRoom).contains(taken.capacity) else { return }
        taken.removeAll(keepingCapacity: true)
        spareSamples.append(taken)
    }

    /// The move-only frames waiting for a display tick, oldest first (each with the samples merged
    /// into it so far): what the tick will dispatch.
    public var waitingMoves: [InputFrame] {
        var frames: [InputFrame] = []
        for i in max(head, dueThrough + 1)..<storage.count where storage[i].due > .distantPast {
            if case .touches(let frame) = storage[i].event { frames.append(frame) }
        }
        return frames
    }

    /// Whether nothing waits but move-only frames (or nothing at all): no touch begins, ends or is
    /// cancelled, and no other event is dispatched, before what comes next.
    public var holdsOnlyMoves: Bool { waitingOthers == 0 }

    /// Whether an event is due by `time` (``dequeue(dueBy:)`` would give one).
    public func hasEventDue(by time: InputTime) -> Bool {
        guard head < storage.count else { return false }
        if head <= dueThrough { return true }
        for i in head..<storage.count where storage[i].due <= time { return true }
        return false
    }

    /// Takes the oldest event, due or not.
    public mutating func dequeue() -> QueuedEvent? { take(dueBy: .distantFuture)?.event }

    /// Takes the oldest event if it is due by `time`: due itself, or queued before an event that is.
    public mutating func dequeue(dueBy time: InputTime) -> QueuedEvent? { take(dueBy: time)?.event }

    /// Takes the oldest event if it is due by `time`, with the tick it waited for (``InputTime/distantPast`` for
    /// an event due at once).
    mutating func take(dueBy time: InputTime) -> (event: QueuedEvent, due: InputTime)? {
        guard head < storage.count else { return nil }
        if head > dueThrough {
            var i = storage.count - 1
            while i >= head && storage[i].due > time { i -= 1 }
            guard i >= head else { return nil }
            dueThrough = i
        }
        let entry = storage[head]
        head += 1
        if !Self.isMoveOnly(entry.event) { waitingOthers -= 1 }
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
            dueThrough = -1
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            dueThrough -= head
            head = 0
        }
        return (entry.event, entry.due)
    }

    /// Whether `event` is a touch frame in which every contact only moved or stood still.
    static func isMoveOnly(_ event: QueuedEvent) -> Bool {
        guard case .touches(let frame) = event else { return false }
        return frame.isMoveOnly
    }

    /// Whether `frame` (move-only) merges into `waiting`: a move-only frame of the same device and
    /// window with the same contacts.
    static func canMerge(_ frame: InputFrame, into waiting: QueuedEvent) -> Bool {
        guard case .touches(let older) = waiting, older.isMoveOnly, older.device == frame.device, older.window == frame.window,
            older.contacts.count == frame.contacts.count
        else { return false }
        for i in older.contacts.indices where older.contacts[i].id != frame.contacts[i].id { return false }
        return true
    }

    /// Merges `newer` into the frame `waiting` holds (``canMerge(_:into:)`` said it may): the merged
    /// frame is `newer` with `waiting`'s samples, and its own, as coalesced samples (oldest first).
    /// Changed in place: the samples are appended to arrays the queue alone holds.
    static func merge(_ newer: InputFrame, into waiting: inout QueuedEvent, spares: inout [[TouchSample]]) {
        guard case .touches(var frame) = waiting else { return }
        // The queue's reference goes, so the frame's arrays are this function's alone.
        waiting = .motion(MotionInput(device: "", window: nil, timestamp: 0, phase: .began))
        let time = frame.timestamp
        // Changed in place, through the array's subscript: no contact is copied.
        for i in frame.contacts.indices where i < newer.contacts.count {
            // Room for a display frame's samples at once (1 kHz input at 60 Hz is 16 or 17).
            if frame.contacts[i].coalesced.isEmpty {
                if let spare = spares.popLast() {
                    frame.contacts[i].coalesced = spare
                } else {
                    frame.contacts[i].coalesced.reserveCapacity(24)
                }
            }
            frame.contacts[i].coalesced.append(
                TouchSample(
                    timestamp: time, locationInWindow: frame.contacts[i].location, force: frame.contacts[i].force,
                    majorRadius: frame.contacts[i].majorRadius))
            if !newer.contacts[i].coalesced.isEmpty { frame.contacts[i].coalesced += newer.contacts[i].coalesced }
            if frame.contacts[i].phase != .moved { frame.contacts[i].phase = newer.contacts[i].phase }
            frame.contacts[i].location = newer.contacts[i].location
            frame.contacts[i].majorRadius = newer.contacts[i].majorRadius
            frame.contacts[i].majorRadiusTolerance = newer.contacts[i].majorRadiusTolerance
            frame.contacts[i].force = newer.contacts[i].force
            frame.contacts[i].maximumPossibleForce = newer.contacts[i].maximumPossibleForce
        }
        frame.timestamp = newer.timestamp
        waiting = .touches(frame)
    }
}
