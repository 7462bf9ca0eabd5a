import TouchSystem
import CEvdev
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

extension EvdevDevice {
    /// Reads everything available now, without blocking, following libevdev's `SYN_DROPPED`
    /// protocol (see ``TouchEvdev/DeviceRead`` and ``EventDrain``).
    ///
    /// Call it when ``fileDescriptor`` is readable. It drains with `libevdev_next_event` until
    /// `EAGAIN`, reading each sync delta with `LIBEVDEV_READ_FLAG_SYNC` until `EAGAIN` as libevdev
    /// requires, however many `SYN_DROPPED` come: nothing is left behind that no readiness would
    /// announce. A removal is a value, not an error.
    ///
    /// - Returns: The events and resyncs in order, and whether the device went away.
    /// - Throws: ``SystemError`` from `libevdev_next_event` for any failure other than
    ///   `EAGAIN` (done) and `ENODEV` (removed), e.g. `EIO`. The device is unusable afterwards;
    ///   events read before the failure are lost with it.
    public func read() throws(SystemError) -> DeviceRead {
        let (result, error) = drain()
        if let error { throw error }
        return result
    }

    /// ``read()`` for callers that treat every failure as the device going away: a
    /// `libevdev_next_event` failure other than `ENODEV` also ends in a removal (with the events
    /// read before it).
    public func readAvailable() -> DeviceRead {
        drain().read
    }

    private func drain() -> (read: DeviceRead, error: SystemError?) {
        var ev = input_event()
        let handle = self.handle
        let path = self.path
        return EventDrain.drain { mode in
            let flags = mode == .sync ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
            do throws(SystemError) {
                guard case .done(let rc) = try SystemCall.negativeErrno("libevdev_next_event", path, {
                    libevdev_next_event(handle, flags, &ev)
                }) else { return .done }
                let event = Self.inputEvent(ev)
                return rc == Int(LIBEVDEV_READ_STATUS_SYNC.rawValue) ? .sync(event) : .event(event)
            } catch {
                return .failed(error)
            }
        }
    }

    static func inputEvent(_ ev: input_event) -> InputEvent {
        InputEvent(
            time: EventTime(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
            type: ev.type, code: ev.code, value: ev.value)
    }
}

/// libevdev's reading protocol, apart from libevdev (so that it is tested without a device):
/// read normally until `EAGAIN`; when a read reports `LIBEVDEV_READ_STATUS_SYNC` (the kernel's
/// `SYN_DROPPED`), read in sync mode until `EAGAIN` (the delta), then go on reading normally.
public enum EventDrain {
    /// How to call `libevdev_next_event`.
    public enum Mode: Hashable, Sendable {
        /// `LIBEVDEV_READ_FLAG_NORMAL`.
        case normal
        /// `LIBEVDEV_READ_FLAG_SYNC`: the delta after a `SYN_DROPPED`.
        case sync
    }

    /// What one call of `libevdev_next_event` gave.
    public enum Status: Hashable, Sendable {
        /// `LIBEVDEV_READ_STATUS_SUCCESS`: an event.
        case event(InputEvent)
        /// `LIBEVDEV_READ_STATUS_SYNC`: in normal mode the kernel's `SYN_DROPPED`; in sync mode
        /// an event of the delta.
        case sync(InputEvent)
        /// `-EAGAIN`: nothing more now (in sync mode: the delta is complete).
        case done
        /// Any other failure (`ENODEV`: the device is gone).
        case failed(SystemError)
    }

    /// Drains a device through `next`, called with the mode each call must use.
    ///
    /// - Returns: What was read, in order; a failure ends it in a removal, and is returned too
    ///   unless it is `ENODEV` (an unplug is no fault).
    public static func drain(_ next: (Mode) -> Status) -> (read: DeviceRead, error: SystemError?) {
        var read = DeviceRead()
        var run: [InputEvent] = []
        // A multitouch frame is a few dozen events: room for them at once, not by doubling.
        run.reserveCapacity(64)
        func flush() {
            if !run.isEmpty { read.segments.append(.events(run)) }
            run = []
        }
        while true {
            switch next(.normal) {
            case .event(let event):
                run.append(event)
            case .sync(let dropped):
                flush()
                let (delta, failure) = readDelta(next)
                read.segments.append(.resync(dropped: dropped, delta: delta))
                if let failure { return removal(read, failure) }
            case .done:
                flush()
                return (read, nil)
            case .failed(let error):
                flush()
                return removal(read, error)
            }
        }
    }

    /// Reads a sync delta in sync mode until `EAGAIN` (or a failure).
    private static func readDelta(_ next: (Mode) -> Status) -> (delta: [InputEvent], failure: SystemError?) {
        var delta: [InputEvent] = []
        while true {
            switch next(.sync) {
            case .event(let event), .sync(let event): delta.append(event)
            case .done: return (delta, nil)
            case .failed(let error): return (delta, error)
            }
        }
    }

    private static func removal(_ read: DeviceRead, _ error: SystemError) -> (read: DeviceRead, error: SystemError?) {
        var removed = read
        removed.isRemoval = true
        return (removed, error.isDeviceGone ? nil : error)
    }
}
