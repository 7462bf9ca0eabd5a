import TouchSystem
import CEvdev
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

extension EvdevDevice {
    /// The most events one `read(2)` takes (6 KiB): a ten-finger frame is about sixty.
    static let batchCapacity = 256

    /// Reads everything available now, without blocking, following libevdev's `SYN_DROPPED`
    /// protocol (see ``TouchEvdev/DeviceRead`` and ``EventDrain``).
    ///
    /// Call it when ``fileDescriptor`` is readable. It reads batches with `read(2)` until one
    /// comes short of the room it had (evdev hands over everything it holds, up to the room given:
    /// a short batch leaves nothing behind, and a next read would only find `EAGAIN`), each event
    /// sanitised and tracked as libevdev would (``TouchEvdev/EvdevState``); at a `SYN_DROPPED` it
    /// has libevdev compute the sync delta from that state, however many come, and reads on to
    /// `EAGAIN`: nothing is left behind that no readiness would announce (the loop's readiness is
    /// level-triggered). A removal is a value, not an error.
    ///
    /// - Returns: The events and resyncs in order, and whether the device went away.
    /// - Throws: ``SystemError`` from `read` or `libevdev_next_event` for any failure other than
    ///   `EAGAIN` (done) and `ENODEV` (removed), e.g. `EIO`. The device is unusable afterwards;
    ///   events read before the failure are lost with it.
    public func read() throws(SystemError) -> DeviceRead {
        let (result, error) = drain()
        if let error { throw error }
        return result
    }

    /// ``read()`` for callers that treat every failure as the device going away: a failure other
    /// than `ENODEV` also ends in a removal (with the events read before it).
    public func readAvailable() -> DeviceRead {
        drain().read
    }

    private func drain() -> (read: DeviceRead, error: SystemError?) {
        let handle = self.handle
        let path = self.path
        return EventDrain.drain(
            state: &state, batch: &batch, previous: &lastRead,
            next: { batch in readBatch(into: &batch) },
            resync: { state in Self.resync(&state, handle: handle, path: path) })
    }

    /// One `read(2)` of the descriptor into `batch` (replacing what it held).
    private func readBatch(into batch: inout [InputEvent]) -> EventDrain.Batch {
        batch.removeAll(keepingCapacity: true)
        let size = MemoryLayout<input_event>.stride
        let outcome: SystemCall.Outcome
        do throws(SystemError) {
            outcome = try Descriptor.read(fileDescriptor, into: UnsafeMutableRawBufferPointer(buffer), path)
        } catch {
            return .failed(error)
        }
        guard case .done(let bytes) = outcome, bytes > 0 else { return .done }
        // The kernel gives whole events; anything else is a broken device (libevdev: EINVAL).
        guard bytes % size == 0 else { return .failed(SystemError(call: "read", subject: path, errno: EINVAL)) }
        let count = bytes / size
        for ev in buffer.prefix(count) { batch.append(Self.inputEvent(ev)) }
        return count < buffer.count ? .readAll : .read
    }

    /// libevdev's sync delta from `state` to the kernel's state now: `state` handed to libevdev, a
    /// forced sync, the delta read in sync mode until `EAGAIN`, and `state` loaded back.
    private static func resync(_ state: inout EvdevState, handle: OpaquePointer, path: String) -> (delta: [InputEvent], failure: SystemError?) {
        push(state, to: handle)
        var ev = input_event()
        var delta: [InputEvent] = []
        defer { reload(&state, from: handle) }
        do throws(SystemError) {
            _ = try SystemCall.negativeErrno("libevdev_next_event", path) {
                libevdev_next_event(handle, LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue, &ev)
            }
            while case .done = try SystemCall.negativeErrno("libevdev_next_event", path, {
                libevdev_next_event(handle, LIBEVDEV_READ_FLAG_SYNC.rawValue, &ev)
            }) {
                delta.append(inputEvent(ev))
            }
            return (delta, nil)
        } catch {
            return (delta, error)
        }
    }

    static func inputEvent(_ ev: input_event) -> InputEvent {
        InputEvent(
            time: EventTime(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
            type: ev.type, code: ev.code, value: ev.value)
    }
}

/// The reading protocol, apart from the device (so that it is tested without one): `read(2)`
/// batches until one shows the device had no more (`EAGAIN`, or a batch short of the read's room
/// with no `SYN_DROPPED` in it), every event sanitised and tracked through ``TouchEvdev/EvdevState``
/// (an event libevdev would drop is skipped); at a `SYN_DROPPED`, the rest of its batch is
/// discarded (libevdev discards the events queued after it: the kernel's state replaces them),
/// the sync delta is read, and reading goes on.
public enum EventDrain {
    /// What one `read(2)` gave.
    public enum Batch: Equatable, Sendable {
        /// Events: the batch holds them, and filled the read's room (more may wait).
        case read
        /// Events, fewer than the read had room for: the batch holds them, and the device held no
        /// more (evdev hands over all it holds, up to the room given), so no read follows unless
        /// a `SYN_DROPPED` among them has its delta read.
        case readAll
        /// `EAGAIN` (or nothing): nothing more now.
        case done
        /// Any other failure (`ENODEV`: the device is gone).
        case failed(SystemError)
    }

    /// Drains a device.
    ///
    /// - Parameters:
    ///   - state: libevdev's view of the device, kept up to date.
    ///   - batch: Storage for `next` to fill, reused from read to read.
    ///   - previous: The last drain's read, kept by the caller: its lists are filled again when its
    ///     reader has let them go (otherwise new ones are made), and it is this drain's read after.
    ///   - next: One `read(2)`, its events put in the batch.
    ///   - resync: After a `SYN_DROPPED`: the sync delta from the state (which it brings up to
    ///     date), and a failure that ended it.
    /// - Returns: What was read, in order; a failure ends it in a removal, and is returned too
    ///   unless it is `ENODEV` (an unplug is no fault).
    @inlinable
    public static func drain(
        state: inout EvdevState, batch: inout [InputEvent], previous: inout DeviceRead,
        next: (inout [InputEvent]) -> Batch,
        resync: (inout EvdevState) -> (delta: [InputEvent], failure: SystemError?)
    ) -> (read: DeviceRead, error: SystemError?) {
        var read = DeviceRead()
        var run: [InputEvent] = []
        reuse(&previous, segments: &read.segments, run: &run)
        defer { previous = read }
        func flush() {
            if !run.isEmpty { read.segments.append(.events(run)) }
            run = []
        }
        while true {
            let outcome = next(&batch)
            switch outcome {
            case .read, .readAll:
                var resynced = false
                if run.isEmpty { run.reserveCapacity(batch.count) }
                for index in batch.indices {
                    var event = batch[index]
                    guard state.admit(&event) else { continue }
                    guard event.type == EventType.syn && event.code == SynCode.dropped else {
                        run.append(event)
                        continue
                    }
                    flush()
                    let (delta, failure) = resync(&state)
                    read.segments.append(.resync(dropped: event, delta: delta))
                    if let failure { return removal(read, failure) }
                    resynced = true
                    break
                }
                // The device held no more: a read now would only find `EAGAIN`. After a resync
                // the kernel's queue is read on (libevdev's sync may leave events behind it).
                if outcome == .readAll && !resynced {
                    flush()
                    return (read, nil)
                }
            case .done:
                flush()
                return (read, nil)
            case .failed(let error):
                flush()
                return removal(read, error)
            }
        }
    }

    /// Takes the lists of `previous` for a new read, emptied: its segments' list, and the events of
    /// its first run. Neither is made anew when the read's reader has let go of them.
    @usableFromInline
    static func reuse(_ previous: inout DeviceRead, segments: inout [DeviceRead.Segment], run: inout [InputEvent]) {
        swap(&segments, &previous.segments)
        previous.isRemoval = false
        if let first = segments.first, case .events(let events) = first { run = events }
        segments.removeAll(keepingCapacity: true)
        run.removeAll(keepingCapacity: true)
    }

    @usableFromInline
    static func removal(_ read: DeviceRead, _ error: SystemError) -> (read: DeviceRead, error: SystemError?) {
        var removed = read
        removed.isRemoval = true
        return (removed, error.isDeviceGone ? nil : error)
    }
}
