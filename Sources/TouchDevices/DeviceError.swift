#if canImport(Glibc)
import Glibc
#endif

/// Why a device, the udev context or its monitor could not be opened or read.
///
/// Carries the C call that failed, the path it was about (a devnode, a udev source; empty when
/// there is none) and the `errno` it reported, so a log line says what went wrong where:
/// `libevdev_new_from_fd /dev/null: Inappropriate ioctl for device (ENOTTY)`.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function (or ioctl) that failed, as named in its man page: `open`, `EVIOCGRAB`, ...
    public var call: String
    /// The device node or other subject of the call; empty when there is none.
    public var path: String
    /// The error number (positive, as `errno` holds it).
    public var errno: Int32

    /// An error from its three parts.
    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// The device went away (`ENODEV`): it was unplugged. Not a fault.
    public var isDeviceGone: Bool { errno == ENODEV }

    /// The caller lacks permission (`EACCES`, `EPERM`): usually not root and not in group `input`.
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// The node does not exist (`ENOENT`), as when a kernel uevent arrives before devtmpfs has
    /// made the node, or the device left between enumeration and opening.
    public var isMissing: Bool { errno == ENOENT }

    /// `strerror`'s text followed by the symbolic name: `No such device (ENODEV)`.
    public var errnoText: String {
        let text = String(cString: strerror(errno))
        return Self.symbolicName(errno).map { "\(text) (\($0))" } ?? text
    }

    /// `call path: errno text`, the path left out when empty.
    public var description: String {
        path.isEmpty ? "\(call): \(errnoText)" : "\(call) \(path): \(errnoText)"
    }

    /// The symbolic name of the error numbers a device shell meets (`ENODEV`), nil for others.
    public static func symbolicName(_ errno: Int32) -> String? {
        switch errno {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EFAULT: "EFAULT"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case EMFILE: "EMFILE"
        case ENOTTY: "ENOTTY"
        case ENOSYS: "ENOSYS"
        case EPROTONOSUPPORT: "EPROTONOSUPPORT"
        default: nil
        }
    }
}
