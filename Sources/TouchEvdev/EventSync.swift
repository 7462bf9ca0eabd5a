/// libevdev's rules for lost events, as one state machine that every decoder follows (touches:
/// ``FrameAssembler``; keys: ``KeyDecoder``; accelerometers: ``AccelerometerDecoder``).
///
/// The kernel's `SYN_DROPPED` means its buffer overflowed and events were lost. libevdev's
/// documented rules: drop the incomplete frame, ignore events up to and including the next
/// `SYN_REPORT`, then bring every slot, key and axis up to date from the device's state (libevdev's
/// sync delta, or in a raw stream the frame after the drop), cancelling what disappeared: a touch
/// whose tracking id is gone, a key that is up now, was not seen to lift.
///
/// Each decoder asks ``step(_:)`` what an event of the raw stream means and acts on the answer;
/// libevdev's delta, read apart from the stream, goes to the decoder's `resync(with:at:)`, which
/// calls ``resynchronised()``. The transitions:
///
///     inSync      SYN_REPORT      → inSync      settle the frame
///     inSync      SYN_DROPPED     → discarding  drop the frame; anomaly (reader)
///     inSync      frame too long  → discarding  drop the frame; anomaly (device)
///     discarding  SYN_REPORT      → resyncing   nothing settled
///     discarding  other events    → discarding  ignored
///     resyncing   SYN_REPORT      → inSync      settle the frame as a resync
///     resyncing   SYN_DROPPED     → discarding  drop the frame; anomaly (reader)
///     resyncing   frame too long  → discarding  drop the frame; anomaly (device)
///     any         resynchronised  → inSync      (libevdev's delta settled as one resync frame)
public struct EventSync: Sendable {
    /// Where the stream stands.
    public enum State: Hashable, Sendable {
        /// Frames are complete.
        case inSync
        /// Events were lost: everything up to the next `SYN_REPORT` is ignored.
        case discarding
        /// The frame being assembled follows lost events: it brings the state up to date.
        case resyncing
    }

    /// What one event means for the frame being assembled.
    public enum Step: Hashable, Sendable {
        /// A part of the frame: the decoder collects it if it cares.
        case collect
        /// `SYN_REPORT`: the decoder settles its frame; `isResync` when the frame follows lost
        /// events (what it shows gone was not seen to go: cancel it).
        case settle(isResync: Bool)
        /// The frame is lost: the decoder drops what it collected and records the anomaly.
        case drop(DeviceAnomaly.Kind)
        /// Nothing to do (events after a `SYN_DROPPED`, up to the next `SYN_REPORT`).
        case ignore
    }

    /// The most events a frame may hold before it is dropped as garbage.
    public static let maximumFrameEvents = 16_384

    /// Where the stream stands.
    public private(set) var state = State.inSync
    /// Events collected into the frame so far.
    private var frameEvents = 0

    /// A stream in sync.
    public init() {}

    /// What `event` means; moves the state on.
    @inline(__always)
    public mutating func step(_ event: InputEvent) -> Step {
        let isSyn = event.type == EventType.syn
        switch state {
        case .inSync, .resyncing:
            if isSyn && event.code == SynCode.report {
                let isResync = state == .resyncing
                state = .inSync
                frameEvents = 0
                return .settle(isResync: isResync)
            }
            if isSyn && event.code == SynCode.dropped { return discard(.eventsDropped) }
            guard frameEvents < Self.maximumFrameEvents else { return discard(.frameTooLong(limit: Self.maximumFrameEvents)) }
            frameEvents += 1
            return .collect
        case .discarding:
            if isSyn && event.code == SynCode.report { state = .resyncing }
            return .ignore
        }
    }

    /// The decoder brought its state up to date from libevdev's delta (or gave up its state): the
    /// stream is in sync again.
    public mutating func resynchronised() {
        state = .inSync
        frameEvents = 0
    }

    private mutating func discard(_ kind: DeviceAnomaly.Kind) -> Step {
        state = .discarding
        frameEvents = 0
        return .drop(kind)
    }
}

/// A decoder of one device's kernel events into frames that follows libevdev's rules for lost
/// events (``EventSync``): ``FrameAssembler`` (touches), ``KeyDecoder`` (keys) and
/// ``AccelerometerDecoder`` (shakes).
public protocol EventStreamDecoder {
    /// What the decoder makes of a frame of events.
    associatedtype Frame

    /// Takes one event of the raw stream (a `SYN_DROPPED` included).
    ///
    /// - Returns: At a `SYN_REPORT` that changed something, the frame; otherwise nil.
    mutating func feed(_ event: InputEvent) -> Frame?

    /// Brings the state up to date after lost events from libevdev's sync delta (the events read
    /// with `LIBEVDEV_READ_FLAG_SYNC` after the `SYN_DROPPED` passed to ``feed(_:)``), settled as
    /// one frame at `time`: what the delta shows gone is cancelled.
    mutating func resync(with delta: [InputEvent], at time: EventTime) -> Frame?

    /// Cancels whatever is still held (touches down, keys down, a shake): the device went away or
    /// the stream ended.
    mutating func finish(at time: EventTime) -> Frame?

    /// Returns and forgets what was odd in the stream since the last call, oldest first.
    mutating func takeAnomalies() -> [DeviceAnomaly]
}

extension EventStreamDecoder {
    /// Runs one read of a device through the decoder, in order: events through ``feed(_:)``, each
    /// `SYN_DROPPED` through ``feed(_:)`` and its sync delta through ``resync(with:at:)`` (at
    /// ``DeviceRead/resyncTime(dropped:delta:)``). A removal's events
    /// are decoded too; cancelling what is still held is the caller's (``finish(at:)``), which knows
    /// when the removal happened.
    ///
    /// - Parameter frames: Where the frames go, in order.
    public mutating func decode(_ read: DeviceRead, into frames: inout [Frame]) {
        for segment in read.segments {
            switch segment {
            case .events(let events):
                for event in events {
                    if let frame = feed(event) { frames.append(frame) }
                }
            case .resync(let dropped, let delta):
                if let frame = feed(dropped) { frames.append(frame) }
                if let frame = resync(with: delta, at: DeviceRead.resyncTime(dropped: dropped, delta: delta)) { frames.append(frame) }
            }
        }
    }
}
