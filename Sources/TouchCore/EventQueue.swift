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
    public var timestamp: Double {
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
/// Backlog policy: once ``coalescingThreshold`` events wait, a move-only frame whose device and
/// contacts equal those of the frame at the tail is merged into it; the merged frame keeps every
/// sample as coalesced samples (UIKit's `coalescedTouches(for:)`). Frames with a touch that begins,
/// ends or is cancelled are never merged, dropped or reordered. When ``capacity`` events wait and a
/// frame cannot be merged, ``enqueue(_:)`` answers ``EnqueueOutcome/full`` and the caller dispatches
/// the oldest events to make room before offering it again (the daemon does so at once, so its
/// reading never stops and nothing is dropped).
public struct ApplicationEventQueue: Sendable {
    public let capacity: Int
    public let coalescingThreshold: Int
    private var storage: [QueuedEvent] = []
    private var head = 0
    /// How many frames were merged since the queue was made.
    public private(set) var coalescedCount = 0
    /// The most events that ever waited at once.
    public private(set) var highWaterMark = 0

    public init(capacity: Int = 1024, coalescingThreshold: Int = 8) {
        precondition(capacity >= 1 && coalescingThreshold >= 1, "queue capacity and threshold must be positive")
        self.capacity = capacity
        self.coalescingThreshold = min(coalescingThreshold, capacity)
    }

    /// The number of events waiting.
    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Offers an event at the tail; see the type's backlog policy.
    public mutating func enqueue(_ event: QueuedEvent) -> EnqueueOutcome {
        if count >= coalescingThreshold, case .touches(let frame) = event, frame.isMoveOnly,
            case .touches(let last)? = storage.last, let merged = Self.merge(last, into: frame)
        {
            storage[storage.count - 1] = .touches(merged)
            coalescedCount += 1
            return .coalesced
        }
        guard count < capacity else { return .full }
        storage.append(event)
        highWaterMark = max(highWaterMark, count)
        return .queued
    }

    /// Takes the oldest event.
    public mutating func dequeue() -> QueuedEvent? {
        guard head < storage.count else { return nil }
        let event = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return event
    }

    /// `newer` with `older`'s samples folded in, when both are move-only frames of one device with
    /// the same contacts; else `nil`.
    static func merge(_ older: InputFrame, into newer: InputFrame) -> InputFrame? {
        guard older.isMoveOnly, older.device == newer.device, older.window == newer.window,
            older.contacts.map(\.id) == newer.contacts.map(\.id)
        else { return nil }
        var merged = newer
        for i in merged.contacts.indices {
            let old = older.contacts[i]
            let sample = TouchSample(
                timestamp: older.timestamp, locationInWindow: old.location, force: old.force,
                majorRadius: old.majorRadius)
            merged.contacts[i].coalesced = old.coalesced + [sample] + merged.contacts[i].coalesced
            if old.phase == .moved { merged.contacts[i].phase = .moved }
        }
        return merged
    }
}
