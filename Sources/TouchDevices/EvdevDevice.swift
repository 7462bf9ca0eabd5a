import TouchSystem
import CEvdev
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

/// One evdev device node (`/dev/input/eventN`): described by libevdev, read with `read(2)`.
///
/// Events are read in batches straight from the descriptor (``read()``), sanitised and tracked as
/// libevdev would (``TouchEvdev/EvdevState``); libevdev describes the device and, after a
/// `SYN_DROPPED`, computes the sync delta from that state.
///
/// Ownership: the device owns both its file descriptor (opened `O_RDONLY | O_NONBLOCK |
/// O_CLOEXEC`, or adopted) and its libevdev handle; `deinit` releases a grab, frees the handle and
/// closes the descriptor. Callers may wait on ``fileDescriptor`` (poll, epoll, a dispatch source)
/// but must never read from it or close it themselves: an event read elsewhere would be missing
/// from the state that `SYN_DROPPED` handling starts from.
///
/// Isolation: not thread-safe and not `Sendable`. Create, read and drop it on one thread (the
/// event loop that waits on its descriptor).
///
/// Clock: events are stamped with `CLOCK_MONOTONIC` (``usesMonotonicClock``), so their times
/// compare with ``MonotonicClock/now()``.
public final class EvdevDevice {
    /// The node this device was opened from (or the name given with an adopted descriptor).
    public let path: String
    /// The descriptor to wait on for readability. Owned by the device: don't read or close it.
    public let fileDescriptor: Int32
    /// What the device is: name, ids, properties, codes and absolute axes (with resolution), as
    /// libevdev read them when the device was opened.
    public let description: DeviceDescription
    /// The kernel's physical path (`phys`, e.g. `usb-0000:00:14.0-2/input0`); stable while the
    /// device stays on the same port. Nil when the driver sets none (uinput, uhid).
    public let physicalPath: String?
    /// The kernel's unique id (`uniq`, often a serial number); nil when the driver sets none.
    public let uniqueID: String?
    /// Whether events are stamped with `CLOCK_MONOTONIC` (false only on kernels without
    /// `EVIOCSCLOCKID`, which then use `CLOCK_REALTIME`).
    public let usesMonotonicClock: Bool
    /// Whether this reader holds an exclusive grab (``grab()``).
    public private(set) var isGrabbed = false

    let handle: OpaquePointer
    /// libevdev's view of the device as the reads left it: what a resync starts from.
    var state: EvdevState
    /// The events of the last `read(2)`, converted (kept to reuse its storage).
    var batch: [InputEvent] = []
    /// The last drain's read, as handed out: the next drain fills its lists again once its reader
    /// is done with them (see ``EventDrain/drain(state:batch:previous:next:resync:)``).
    var lastRead = DeviceRead()
    /// Where `read(2)` puts the kernel's events.
    let buffer: UnsafeMutableBufferPointer<input_event>

    /// Opens the evdev node at `path`.
    ///
    /// - Parameters:
    ///   - path: The node, `/dev/input/eventN`.
    ///   - grab: Whether to take an exclusive grab (`EVIOCGRAB`) right away; see ``grab()``.
    /// - Throws: ``SystemError`` naming the failed call: `open` (`ENOENT`: no such node,
    ///   `EACCES`: not root and not in group `input`), `libevdev_new_from_fd` (`ENOTTY`: not an
    ///   evdev node), `EVIOCGRAB` (`EBUSY`: another reader holds a grab).
    public convenience init(path: String, grab: Bool = false) throws(SystemError) {
        let fd = try SystemCall.descriptor("open", path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        try self.init(adopting: fd, path: path)
        if grab { try self.grab() }
    }

    /// Takes ownership of an open descriptor, described by libevdev.
    ///
    /// The descriptor should be non-blocking (``readAvailable()`` drains until `EAGAIN`); it is
    /// closed when the device is dropped, and also when this initializer throws.
    ///
    /// - Parameters:
    ///   - fileDescriptor: An open evdev descriptor; owned by the device from now on.
    ///   - path: The name to use in errors and in ``path``.
    /// - Throws: ``SystemError`` from `libevdev_new_from_fd` (`ENOTTY` for anything that is not
    ///   an evdev node: a pipe, a regular file, `/dev/null`).
    public init(adopting fileDescriptor: Int32, path: String) throws(SystemError) {
        var dev: OpaquePointer?
        do {
            _ = try SystemCall.negativeErrno("libevdev_new_from_fd", path) { libevdev_new_from_fd(fileDescriptor, &dev) }
        } catch {
            Descriptor.close(fileDescriptor, path)
            throw error
        }
        guard let dev else {
            Descriptor.close(fileDescriptor, path)
            throw SystemError(call: "libevdev_new_from_fd", subject: path, errno: ENOMEM)
        }
        self.path = path
        self.fileDescriptor = fileDescriptor
        self.handle = dev
        self.usesMonotonicClock = libevdev_set_clock_id(dev, CLOCK_MONOTONIC) == 0
        let codes = Self.announcedCodes(of: dev)
        self.description = Self.describe(dev, codes: codes)
        self.physicalPath = Self.nonEmpty(libevdev_get_phys(dev))
        self.uniqueID = Self.nonEmpty(libevdev_get_uniq(dev))
        self.state = Self.loadState(of: dev, codes: codes)
        self.buffer = .allocate(capacity: Self.batchCapacity)
        self.batch.reserveCapacity(Self.batchCapacity)
    }

    deinit {
        // Closing the descriptor releases a grab too; the explicit release only says so first.
        if isGrabbed { _ = try? SystemCall.negativeErrno("EVIOCGRAB(release)", path) { libevdev_grab(handle, LIBEVDEV_UNGRAB) } }
        libevdev_free(handle)
        Descriptor.close(fileDescriptor, path)
        buffer.deallocate()
    }

    /// Grabs the device exclusively (`EVIOCGRAB`): while grabbed, no other reader (the console,
    /// a compositor, libinput) sees its events. Released by ``ungrab()`` or when the device is
    /// dropped.
    ///
    /// - Throws: ``SystemError`` from `EVIOCGRAB` (`EBUSY`: another reader holds a grab).
    public func grab() throws(SystemError) {
        guard !isGrabbed else { return }
        _ = try SystemCall.negativeErrno("EVIOCGRAB", path) { libevdev_grab(handle, LIBEVDEV_GRAB) }
        isGrabbed = true
    }

    /// Releases an exclusive grab (a no-op when not grabbed).
    /// - Throws: ``SystemError`` from `EVIOCGRAB` (the device went away, say); the grab is
    ///   considered released either way (closing the descriptor ends it at the latest).
    public func ungrab() throws(SystemError) {
        guard isGrabbed else { return }
        isGrabbed = false
        _ = try SystemCall.negativeErrno("EVIOCGRAB(release)", path) { libevdev_grab(handle, LIBEVDEV_UNGRAB) }
    }

    static func nonEmpty(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let string = String(cString: text)
        return string.isEmpty ? nil : string
    }
}
