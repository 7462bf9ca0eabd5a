/// What one read of an evdev device produced, in order: runs of events read normally and, for each
/// `SYN_DROPPED`, libevdev's sync delta; and whether the device went away.
///
/// libevdev's `SYN_DROPPED` protocol: when the kernel's buffer overflowed, events were lost.
/// libevdev then reports the kernel's `SYN_DROPPED` and, read with `LIBEVDEV_READ_FLAG_SYNC` until
/// `-EAGAIN`, a *delta*: the events that take its last known state (every key, axis and slot) to
/// the device's current one. A read may hold several: each delta applies to the state the
/// segments before it left, so they are decoded in order
/// (``EventStreamDecoder/decode(_:into:)``).
public struct DeviceRead: Hashable, Sendable {
    /// One part of a read.
    public enum Segment: Hashable, Sendable {
        /// Events read normally, in order.
        case events([InputEvent])
        /// The kernel's `SYN_DROPPED` (`dropped`), then libevdev's sync delta.
        case resync(dropped: InputEvent, delta: [InputEvent])
    }

    /// The parts, in order; empty for a spurious wake-up.
    public var segments: [Segment]
    /// The device is gone (unplugged): nothing more will come, and the owner should drop it and
    /// cancel what it still holds.
    public var isRemoval: Bool

    /// A read from its parts.
    public init(segments: [Segment] = [], isRemoval: Bool = false) {
        self.segments = segments
        self.isRemoval = isRemoval
    }

    /// Events read normally, nothing lost.
    public static func events(_ events: [InputEvent]) -> DeviceRead {
        DeviceRead(segments: events.isEmpty ? [] : [.events(events)])
    }

    /// Every event in order, each `SYN_DROPPED` marking where its delta starts: for logging and
    /// recording. To decode, use the segments (a delta is not a normal frame).
    public var allEvents: [InputEvent] {
        segments.flatMap { segment -> [InputEvent] in
            switch segment {
            case .events(let events): events
            case .resync(let dropped, let delta): [dropped] + delta
            }
        }
    }

    /// The time a resync frame is stamped with: the delta's last event's, or the `SYN_DROPPED`'s
    /// for an empty delta.
    public static func resyncTime(dropped: InputEvent, delta: [InputEvent]) -> EventTime {
        delta.last?.time ?? dropped.time
    }

    /// The `SYN_DROPPED` events of the read, in order.
    public var drops: [InputEvent] {
        segments.compactMap { segment in
            guard case .resync(let dropped, _) = segment else { return nil }
            return dropped
        }
    }
}
