#if canImport(Glibc)
import Glibc
#endif

/// The one way touchd calls the operating system: every system call and every libevdev/libudev
/// call that can fail goes through here.
///
/// - `EINTR` is retried (a signal interrupted the call; nothing happened).
/// - `EAGAIN`/`EWOULDBLOCK` becomes ``Outcome/wouldBlock``: "nothing more now", not an error.
/// - Anything else throws a ``SystemError`` naming the call and its subject. `EBADF` and `EFAULT`
///   (a closed descriptor or a bad pointer: a bug in touchd, never a condition of the system) are
///   thrown too, with ``SystemError/isProgrammingError`` set: a daemon reports a bug and goes on
///   rather than stopping every kiosk that meets it.
///
/// Tests drive it with closures that set `errno` (or return a negative errno): it is the seam where
/// the mapping of each outcome is checked without devices or sockets.
public enum SystemCall {
    /// What a call that did not fail produced.
    public enum Outcome: Equatable, Sendable {
        /// The call's (non-negative) result.
        case done(Int)
        /// `EAGAIN`: the call would have blocked; try again when the descriptor is ready.
        case wouldBlock
    }

    /// A call that returns -1 and sets `errno` on failure (`open`, `fcntl`, `bind`, `read`, ...).
    ///
    /// Inlinable, as the funnel's other calls: the loop's `epoll_wait`, a device's reads and a
    /// client's writes go through it on every frame.
    @inlinable
    public static func posix<R: BinaryInteger>(_ call: String, _ subject: String = "", _ body: () -> R) throws(SystemError) -> Outcome {
        while true {
            let rc = body()
            if rc >= 0 { return .done(Int(truncatingIfNeeded: rc)) }
            let code = Glibc.errno
            if code == EINTR { continue }
            return try outcome(ofFailure: code, call: call, subject: subject)
        }
    }

    /// A call that returns -1 and sets `errno` on failure, for which "would block" is a failure
    /// too (creating descriptors, binding, `fstat`): its result, or a thrown ``SystemError``.
    @inlinable
    @discardableResult
    public static func require<R: BinaryInteger>(_ call: String, _ subject: String = "", _ body: () -> R) throws(SystemError) -> Int {
        switch try posix(call, subject, body) {
        case .done(let value): return value
        case .wouldBlock: throw SystemError(call: call, subject: subject, errno: EAGAIN)
        }
    }

    /// A call that makes a descriptor (`open`, `socket`, `epoll_create1`, `timerfd_create`, ...):
    /// the new descriptor, or a thrown ``SystemError``.
    @inlinable
    public static func descriptor(_ call: String, _ subject: String = "", _ body: () -> Int32) throws(SystemError) -> Int32 {
        Int32(truncatingIfNeeded: try require(call, subject, body))
    }

    /// A libevdev/libudev call that returns a negative errno on failure (`libevdev_next_event`,
    /// `libevdev_grab`, `udev_monitor_enable_receiving`, ...).
    @inlinable
    public static func negativeErrno(_ call: String, _ subject: String = "", _ body: () -> Int32) throws(SystemError) -> Outcome {
        while true {
            let rc = body()
            if rc >= 0 { return .done(Int(rc)) }
            if rc == -EINTR { continue }
            // A negated Int32.min cannot be represented: report it as EINVAL rather than trap.
            let code = rc == Int32.min ? EINVAL : -rc
            return try outcome(ofFailure: code, call: call, subject: subject)
        }
    }

    /// A constructor that returns NULL and sets `errno` on failure (`udev_new`, `fdopen`, ...).
    public static func pointer<T>(_ call: String, _ subject: String = "", _ body: () -> T?) throws(SystemError) -> T {
        while true {
            Glibc.errno = 0
            if let value = body() { return value }
            let code = Glibc.errno
            if code == EINTR { continue }
            // libudev does not always set errno; ENOMEM is its usual reason for NULL.
            throw SystemError(call: call, subject: subject, errno: code == 0 ? ENOMEM : code)
        }
    }

    @usableFromInline
    static func outcome(ofFailure code: Int32, call: String, subject: String) throws(SystemError) -> Outcome {
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(call: call, subject: subject, errno: code)
    }
}

extension SystemError {
    /// `EBADF` or `EFAULT`: touchd passed a closed descriptor or a bad pointer. A bug in touchd,
    /// logged as one, never a condition of the system or its devices.
    public var isProgrammingError: Bool { errno == EBADF || errno == EFAULT }
}
