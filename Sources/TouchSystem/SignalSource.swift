import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Signals delivered as a descriptor (`signalfd`), so no logic runs in a signal handler.
public final class SignalSource {
    /// The descriptor to wait on (owned by the source).
    public let fd: Int32

    /// Blocks `signals` and reads them from a descriptor instead.
    ///
    /// The mask is per thread and threads inherit it: create this before any other thread starts
    /// (the daemon's command is synchronous for this reason), or a thread that still has the signal
    /// unblocked takes it with its default action.
    /// - Throws: ``SystemError`` from `sigprocmask` or `signalfd`.
    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        try SystemCall.require("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try SystemCall.descriptor("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { Descriptor.close(fd) }

    /// The signals waiting, in order.
    /// - Throws: ``SystemError`` from `read` (never `EAGAIN`: that ends the list).
    public func receive() throws(SystemError) -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while case .done(let n) = try Descriptor.read(fd, intoBytesOf: &info, "signalfd"), n == size {
            result.append(Int32(bitPattern: info.ssi_signo))
        }
        return result
    }
}

/// The signals the daemon handles, by what they ask.
public enum ProcessSignal {
    /// `SIGTERM`: stop (systemd's stop).
    public static let terminate = SIGTERM
    /// `SIGINT`: stop (Ctrl-C).
    public static let interrupt = SIGINT
    /// `SIGHUP`: reload.
    public static let hangUp = SIGHUP
    /// `SIGPIPE`: taken so that a write to a closed connection is an error, not the end.
    public static let brokenPipe = SIGPIPE

    /// Makes `SIGINT` and `SIGTERM` end the process with status 0, as a stop asked for: for a tool
    /// that blocks reading and keeps nothing unwritten (each line is flushed as it is printed).
    /// The handler only calls `_exit`, which is safe in a signal handler. The signals are unblocked
    /// too: a parent that blocked them (as a ``SignalSource`` does) passes its mask on.
    public static func stopsQuietly() {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in [interrupt, terminate] {
            signal(s) { _ in _exit(0) }
            sigaddset(&mask, s)
        }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }
}
