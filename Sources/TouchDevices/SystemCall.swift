#if canImport(Glibc)
import Glibc
#endif

/// The one way this module calls C: every system call and every libevdev/libudev call that can
/// fail goes through here.
///
/// - `EINTR` is retried (a signal interrupted the call; nothing happened).
/// - `EAGAIN`/`EWOULDBLOCK` becomes ``Outcome/wouldBlock``: "nothing more now", not an error.
/// - `EBADF` and `EFAULT` trap: they can only mean this module used a closed descriptor or a bad
///   pointer, which is a bug here, not a condition to handle.
/// - Anything else throws a ``DeviceError`` naming the call and its subject.
///
/// Tests drive it with closures that set `errno` (or return a negative errno), which makes it the
/// seam for checking the mapping without devices.
enum SystemCall {
    /// What a call that did not fail produced.
    enum Outcome: Equatable {
        /// The call's (non-negative) result.
        case done(Int32)
        /// `EAGAIN`: the call would have blocked; try again when the descriptor is ready.
        case wouldBlock
    }

    /// A libc call that returns -1 and sets `errno` on failure (`open`, `fcntl`, `poll`, ...).
    static func posix(_ call: String, path: String = "", _ body: () -> Int32) throws(DeviceError) -> Outcome {
        while true {
            let rc = body()
            if rc >= 0 { return .done(rc) }
            let code = Glibc.errno
            if code == EINTR { continue }
            return try outcome(ofFailure: code, call: call, path: path)
        }
    }

    /// A libevdev/libudev call that returns a negative errno on failure (`libevdev_next_event`,
    /// `libevdev_grab`, `udev_monitor_enable_receiving`, ...).
    static func negativeErrno(_ call: String, path: String = "", _ body: () -> Int32) throws(DeviceError) -> Outcome {
        while true {
            let rc = body()
            if rc >= 0 { return .done(rc) }
            if rc == -EINTR { continue }
            return try outcome(ofFailure: -rc, call: call, path: path)
        }
    }

    /// A libudev constructor that returns NULL and sets `errno` on failure (`udev_new`, ...).
    static func pointer<T>(_ call: String, path: String = "", _ body: () -> T?) throws(DeviceError) -> T {
        while true {
            Glibc.errno = 0
            if let value = body() { return value }
            let code = Glibc.errno
            if code == EINTR { continue }
            // libudev does not always set errno; ENOMEM is its usual reason for NULL.
            throw DeviceError(call: call, path: path, errno: code == 0 ? ENOMEM : code)
        }
    }

    private static func outcome(ofFailure code: Int32, call: String, path: String) throws(DeviceError) -> Outcome {
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        precondition(code != EBADF && code != EFAULT, "touchd bug: \(call) \(path) was given a bad descriptor or pointer (errno \(code))")
        throw DeviceError(call: call, path: path, errno: code)
    }
}
