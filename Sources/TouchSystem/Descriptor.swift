#if canImport(Glibc)
import Glibc
#endif

/// Operations on a raw file descriptor that several parts of touchd need (the caller owns the
/// descriptor and closes it).
public enum Descriptor {
    /// Makes reads and writes on `fd` return `EAGAIN` instead of blocking (`O_NONBLOCK`), if they
    /// did not already.
    /// - Throws: ``SystemError`` from `fcntl`.
    public static func setNonBlocking(_ fd: Int32, _ subject: String = "") throws(SystemError) {
        let flags = Int32(truncatingIfNeeded: try SystemCall.require("fcntl(F_GETFL)", subject) { fcntl(fd, F_GETFL) })
        guard flags & O_NONBLOCK == 0 else { return }
        try SystemCall.require("fcntl(F_SETFL)", subject) { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Reads what `fd` has now into `buffer` (`read`): the number of bytes read (0 at the end of a
    /// file), or ``SystemCall/Outcome/wouldBlock`` when a non-blocking descriptor has nothing.
    /// Never more than `buffer.count` bytes.
    /// - Throws: ``SystemError`` from `read` (`ENODEV`: a device that went away).
    @inlinable
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ subject: String = "") throws(SystemError) -> SystemCall.Outcome {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .done(0) }
        return try SystemCall.posix("read", subject) { Glibc.read(fd, base, buffer.count) }
    }

    /// Reads into all of `bytes`' room (a chunk of a file, a pipe), as the read into a buffer does.
    public static func read(_ fd: Int32, into bytes: inout [UInt8], _ subject: String = "") throws(SystemError) -> SystemCall.Outcome {
        // The buffer's closure does not carry the error's type: it comes out through a `Result`.
        try bytes.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try read(fd, into: buffer, subject) } }.get()
    }

    /// Reads one fixed-size record into `value`'s bytes (a timerfd's count, a signalfd's
    /// `signalfd_siginfo`): `.done(n)` with the bytes read.
    public static func read<Record>(_ fd: Int32, intoBytesOf value: inout Record, _ subject: String = "") throws(SystemError) -> SystemCall.Outcome {
        try withUnsafeMutableBytes(of: &value) { buffer in Result { () throws(SystemError) in try read(fd, into: buffer, subject) } }.get()
    }

    /// Closes `fd`, once: on Linux the descriptor is released even when `close` reports `EINTR`,
    /// so it is never retried (a retry could close a descriptor another part just opened). The
    /// error, if any, is returned for the caller to log; the descriptor is gone either way.
    @discardableResult
    public static func close(_ fd: Int32, _ subject: String = "") -> SystemError? {
        guard Glibc.close(fd) != 0 else { return nil }
        return SystemError.current("close", subject.isEmpty ? "fd \(fd)" : subject)
    }
}
