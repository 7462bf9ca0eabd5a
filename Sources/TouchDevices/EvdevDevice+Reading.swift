import TouchSystem
import CEvdev
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

extension EvdevDevice {
    /// What one drain of the device produced.
    ///
    /// libevdev's `SYN_DROPPED` protocol: when the kernel's buffer overflowed, events were lost.
    /// libevdev then reports the kernel's `SYN_DROPPED` and, read in sync mode, a *delta*: the
    /// events that take its last known state (every key, axis and slot) to the device's current
    /// one, ending with a `SYN_REPORT`. A consumer discards its incomplete frame and applies the
    /// delta as one frame (``TouchEvdev/FrameAssembler/resync(with:at:)`` does exactly that;
    /// ``TouchEvdev/FrameAssembler/assemble(_:)`` routes a whole result).
    public enum ReadResult: Hashable, Sendable {
        /// Events in order, possibly none (a spurious wake-up).
        case events([InputEvent])
        /// Events were lost: `before` were read normally first, then came the kernel's
        /// `SYN_DROPPED` (`dropped`) and libevdev's sync delta, then `after` were read normally.
        case resync(before: [InputEvent], dropped: InputEvent, delta: [InputEvent], after: [InputEvent])
        /// The device is gone (unplugged, `ENODEV`): `before` were read first; nothing more will
        /// come, and the owner should drop the device and cancel its live contacts.
        case removed(before: [InputEvent])

        /// Every event in order, the `SYN_DROPPED` marking where the delta starts: for logging
        /// and recording. To assemble frames, use the cases (the delta is not a normal frame).
        public var allEvents: [InputEvent] {
            switch self {
            case .events(let events): events
            case .resync(let before, let dropped, let delta, let after): before + [dropped] + delta + after
            case .removed(let before): before
            }
        }

        /// Whether the device went away.
        public var isRemoval: Bool {
            if case .removed = self { return true }
            return false
        }
    }

    /// Whether a read left events behind that no descriptor readiness will announce (a second
    /// `SYN_DROPPED` in the same drain): call ``read()`` again without waiting.
    public var hasPendingEvents: Bool { stash != nil }

    /// Reads everything available now, without blocking, following libevdev's `SYN_DROPPED`
    /// protocol (see ``ReadResult``).
    ///
    /// Call it when ``fileDescriptor`` is readable (and again while ``hasPendingEvents``). It
    /// drains with `libevdev_next_event` until `EAGAIN`; a removal is a value, not an error.
    ///
    /// - Returns: The events, a resync, or the device's removal.
    /// - Throws: ``SystemError`` from `libevdev_next_event` for any failure other than
    ///   `EAGAIN` (done) and `ENODEV` (removed), e.g. `EIO`. The device is unusable afterwards;
    ///   events read before the failure are lost with it.
    public func read() throws(SystemError) -> ReadResult {
        let (result, error) = drain()
        if let error { throw error }
        return result
    }

    /// ``read()`` for callers that treat every failure as the device going away: a
    /// `libevdev_next_event` failure other than `ENODEV` also ends in ``ReadResult/removed(before:)``
    /// (with the events read before it).
    public func readAvailable() -> ReadResult {
        drain().result
    }

    private func drain() -> (result: ReadResult, error: SystemError?) {
        var events: [InputEvent] = []
        // A multitouch frame is a few dozen events: room for them at once, not by doubling.
        events.reserveCapacity(64)
        var before: [InputEvent] = []
        var resync: (dropped: InputEvent, delta: [InputEvent])?
        if let stash {
            resync = stash
            self.stash = nil
        }
        func result() -> ReadResult {
            guard let resync else { return .events(events) }
            return .resync(before: before, dropped: resync.dropped, delta: resync.delta, after: events)
        }
        var ev = input_event()
        while true {
            let status: Int32
            do throws(SystemError) {
                guard case .done(let rc) = try SystemCall.negativeErrno("libevdev_next_event", path, {
                    libevdev_next_event(handle, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &ev)
                }) else { return (result(), nil) }
                status = Int32(truncatingIfNeeded: rc)
            } catch {
                let flushed = resync.map { before + [$0.dropped] + $0.delta + events } ?? events
                return (.removed(before: flushed), error.isDeviceGone ? nil : error)
            }
            let event = Self.inputEvent(ev)
            guard status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) else {
                events.append(event)
                continue
            }
            // The kernel's SYN_DROPPED: read libevdev's delta in sync mode until EAGAIN.
            var delta: [InputEvent] = []
            while true {
                var sync = input_event()
                guard case .done = (try? SystemCall.negativeErrno("libevdev_next_event", path, {
                    libevdev_next_event(handle, LIBEVDEV_READ_FLAG_SYNC.rawValue, &sync)
                })) ?? .wouldBlock else { break }
                delta.append(Self.inputEvent(sync))
            }
            if resync == nil {
                before = events
                events = []
                resync = (event, delta)
            } else {
                // A second overflow in one drain: hand it out next time, so each delta applies to
                // the state it was computed against.
                stash = (event, delta)
                return (result(), nil)
            }
        }
    }

    static func inputEvent(_ ev: input_event) -> InputEvent {
        InputEvent(
            time: EventTime(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
            type: ev.type, code: ev.code, value: ev.value)
    }
}
