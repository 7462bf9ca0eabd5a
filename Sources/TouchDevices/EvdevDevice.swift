import CEvdev
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

/// Why a device could not be opened or read.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var call: String
    public var path: String
    public var errno: Int32

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String { "\(call) \(path): \(String(cString: strerror(errno)))" }
}

/// One evdev device node, read through libevdev.
///
/// Owns its file descriptor (opened non-blocking) and its libevdev handle; `deinit` frees both.
/// Not thread-safe: use it on one thread (the daemon's event loop).
public final class EvdevDevice {
    /// What a read produced.
    public enum ReadResult: Sendable {
        /// Events in order (possibly none).
        case events([InputEvent])
        /// Events were lost: `before` were read normally first, then the `SYN_DROPPED` and libevdev's
        /// sync delta (the events that bring the device state up to date), then `after`.
        case resync(before: [InputEvent], dropped: InputEvent, delta: [InputEvent], after: [InputEvent])
        /// The device is gone (unplugged): nothing more will come.
        case removed(before: [InputEvent])
    }

    public let path: String
    public let fileDescriptor: Int32
    private let handle: OpaquePointer
    public let description: DeviceDescription
    /// The physical path (`phys`), stable while the device stays on the same port.
    public let physicalPath: String?
    public private(set) var isGrabbed = false

    /// Opens `path` for reading (non-blocking) and sets the event clock to CLOCK_MONOTONIC.
    /// - Throws: ``DeviceError`` naming the failed call (`open`, `libevdev_new_from_fd`).
    public init(path: String) throws(DeviceError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw DeviceError(call: "open", path: path, errno: errno) }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            close(fd)
            throw DeviceError(call: "libevdev_new_from_fd", path: path, errno: -rc)
        }
        _ = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        self.path = path
        self.fileDescriptor = fd
        self.handle = dev
        self.description = EvdevDevice.describe(dev)
        self.physicalPath = libevdev_get_phys(dev).map { String(cString: $0) }
    }

    deinit {
        if isGrabbed { _ = libevdev_grab(handle, LIBEVDEV_UNGRAB) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// Grabs the device exclusively (`EVIOCGRAB`), so no other reader sees its events.
    public func grab() throws(DeviceError) {
        let rc = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard rc == 0 else { throw DeviceError(call: "EVIOCGRAB", path: path, errno: -rc) }
        isGrabbed = true
    }

    /// Reads everything available now, following libevdev's SYN_DROPPED protocol.
    public func readAvailable() -> ReadResult {
        var events: [InputEvent] = []
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var dropped: InputEvent?
        var delta: [InputEvent] = []
        var before: [InputEvent] = []
        while true {
            let rc = libevdev_next_event(handle, flags, &ev)
            if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    // The delta is complete; go back to normal reading.
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                break
            }
            if rc == -ENODEV || rc == -EIO { return .removed(before: before + events) }
            if rc < 0 {
                if rc == -EINTR { continue }
                return .removed(before: before + events)
            }
            let event = InputEvent(
                time: EventTime(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
                type: ev.type, code: ev.code, value: ev.value)
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    // The SYN_DROPPED itself: start reading the delta.
                    before = events
                    events = []
                    dropped = event
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                } else {
                    delta.append(event)
                }
                continue
            }
            events.append(event)
        }
        if let dropped { return .resync(before: before, dropped: dropped, delta: delta, after: events) }
        return .events(events)
    }

    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var description = DeviceDescription(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        for prop in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, prop) == 1 {
            description.properties.insert(UInt16(prop))
        }
        let limits: [(UInt32, UInt32)] = [
            (UInt32(EV_SYN), UInt32(SYN_CNT)), (UInt32(EV_KEY), UInt32(KEY_CNT)), (UInt32(EV_REL), UInt32(REL_CNT)),
            (UInt32(EV_ABS), UInt32(ABS_CNT)), (UInt32(EV_MSC), UInt32(MSC_CNT)), (UInt32(EV_SW), UInt32(SW_CNT)),
        ]
        for (type, count) in limits where libevdev_has_event_type(dev, type) == 1 {
            var codes: Set<UInt16> = []
            for code in 0..<count where libevdev_has_event_code(dev, type, code) == 1 { codes.insert(UInt16(code)) }
            description.codes[UInt16(type)] = codes
        }
        for code in description.codes[UInt16(EV_ABS)] ?? [] {
            guard let info = libevdev_get_abs_info(dev, UInt32(code)) else { continue }
            description.absInfo[code] = AbsInfo(
                minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                flat: info.pointee.flat, resolution: info.pointee.resolution, value: info.pointee.value)
        }
        return description
    }
}
