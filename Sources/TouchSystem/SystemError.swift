#if canImport(Glibc)
import Glibc
#endif

/// A failed system or C-library call: which call, on what, and the `errno` it reported.
///
/// The one error type of touchd's operating-system boundary (``SystemCall``): opening and reading
/// devices, udev, sockets, timers, files. Its ``description`` says what went wrong where, e.g.
/// `libevdev_new_from_fd /dev/null: Inappropriate ioctl for device (ENOTTY)`.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function (or ioctl) that failed, as named in its man page: `open`, `EVIOCGRAB`, `bind`.
    public var call: String
    /// What the call was about (a device node, a socket path, a descriptor); empty when nothing.
    public var subject: String
    /// The error number (positive, as `errno` holds it).
    public var errno: Int32

    /// An error from its three parts.
    public init(call: String, subject: String = "", errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    /// An error for `call` on `subject` with the calling thread's current `errno`.
    public static func current(_ call: String, _ subject: String = "") -> SystemError {
        SystemError(call: call, subject: subject, errno: Glibc.errno)
    }

    /// The device went away (`ENODEV`): it was unplugged. Not a fault.
    public var isDeviceGone: Bool { errno == ENODEV }

    /// The caller lacks permission (`EACCES`, `EPERM`): usually not root and not in group `input`.
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// The file or node does not exist (`ENOENT`), as when a kernel uevent arrives before devtmpfs
    /// has made the node, or the device left between enumeration and opening.
    public var isMissing: Bool { errno == ENOENT }

    /// The process or system ran out of descriptors (`EMFILE`, `ENFILE`).
    public var isOutOfDescriptors: Bool { errno == EMFILE || errno == ENFILE }

    /// Another holds what was asked for alone (`EBUSY`): another reader's grab of a device.
    public var isBusy: Bool { errno == EBUSY }

    /// Nobody listens at the address (`ECONNREFUSED`).
    public var isConnectionRefused: Bool { errno == ECONNREFUSED }

    /// `EEXIST`, for a refusal touchd makes itself: something is in the way.
    public static func alreadyExists(call: String, subject: String) -> SystemError { SystemError(call: call, subject: subject, errno: EEXIST) }

    /// `EADDRINUSE`, for a refusal touchd makes itself: another process serves the address.
    public static func addressInUse(call: String, subject: String) -> SystemError { SystemError(call: call, subject: subject, errno: EADDRINUSE) }

    /// `strerror`'s text followed by the symbolic name: `No such device (ENODEV)`.
    public var errnoText: String {
        let text = String(cString: strerror(errno))
        return Self.symbolicName(errno).map { "\(text) (\($0))" } ?? text
    }

    /// `call subject: errno text`, the subject left out when empty.
    public var description: String {
        subject.isEmpty ? "\(call): \(errnoText)" : "\(call) \(subject): \(errnoText)"
    }

    /// The symbolic name of the error numbers touchd meets (`ENODEV`); nil for others.
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
        case EEXIST: "EEXIST"
        case ENODEV: "ENODEV"
        case EISDIR: "EISDIR"
        case EINVAL: "EINVAL"
        case ENFILE: "ENFILE"
        case EMFILE: "EMFILE"
        case ENOTTY: "ENOTTY"
        case EFBIG: "EFBIG"
        case ENOSPC: "ENOSPC"
        case EPIPE: "EPIPE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ENOSYS: "ENOSYS"
        case ELOOP: "ELOOP"
        case EADDRINUSE: "EADDRINUSE"
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case EPROTONOSUPPORT: "EPROTONOSUPPORT"
        default: nil
        }
    }
}
