import TouchCore
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Talks to systemd's service manager through `NOTIFY_SOCKET` (the `sd_notify` protocol): one
/// datagram per state change (`READY=1`, `STATUS=...`, `RELOADING=1`, `WATCHDOG=1`, `STOPPING=1`).
///
/// Without `NOTIFY_SOCKET` (not started by systemd), or when its socket cannot be made, every call
/// does nothing.
public final class SystemdNotifier {
    private let fd: Int32
    private let address: UnixSocketAddress?
    private let clock: any TimeSource
    /// How often systemd wants `WATCHDOG=1` (from `WATCHDOG_USEC`, when `WATCHDOG_PID` is ours or absent).
    public let watchdogInterval: TimeSpan?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the process's environment;
    /// `clock` stamps `RELOADING=1`.
    public convenience init(clock: any TimeSource) {
        self.init(environment: ProcessContext.environment(["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]), clock: clock)
    }

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` from `environment`; `clock` stamps `RELOADING=1`.
    public init(environment: [String: String], clock: any TimeSource) {
        self.clock = clock
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0, usec.isFinite,
            environment["WATCHDOG_PID"].map({ Int32($0) == ProcessContext.id }) ?? true
        {
            watchdogInterval = TimeSpan(seconds: usec / 1e6)
        } else {
            watchdogInterval = nil
        }
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, let address = try? UnixSocketAddress(path: path),
            let fd = try? SocketIO.unixDatagram(path)
        else {
            fd = -1
            address = nil
            return
        }
        self.fd = fd
        self.address = address
    }

    deinit { if fd >= 0 { Descriptor.close(fd) } }

    /// Whether systemd is listening.
    public var isActive: Bool { fd >= 0 }

    /// Sends `state` (newline-separated `KEY=VALUE` lines); returns whether it was sent whole.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard fd >= 0, let address else { return false }
        let bytes = Array(state.utf8)
        let outcome = try? bytes.withUnsafeBytes { raw throws(SystemError) in try SocketIO.send(fd, raw, to: address) }
        return outcome == .done(bytes.count)
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func status(_ text: String) { notify("STATUS=\(text)") }
    public func watchdog() { notify("WATCHDOG=1") }
    public func stopping() { notify("STOPPING=1") }

    /// `RELOADING=1` with the monotonic time systemd 253 and later want beside it.
    public func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(clock.now.microseconds)")
    }
}

/// The listening socket systemd passed, if it passed one to this process (`LISTEN_PID`, `LISTEN_FDS`).
public enum SocketActivation {
    /// Why a passed descriptor cannot be adopted.
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The first passed descriptor (3) when `LISTEN_PID` is this process and `LISTEN_FDS` >= 1.
    /// The variables are removed so that children do not adopt the descriptor too.
    /// - Throws: ``Unusable`` when descriptor 3 is not a listening Unix stream socket (a unit whose
    ///   socket has another type, or a stray `LISTEN_FDS`): adopting it would fail later, obscurely.
    public static func listeningDescriptor() throws(Unusable) -> Int32? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pidText = ProcessContext.environment("LISTEN_PID"), Int32(pidText) == ProcessContext.id,
            let countText = ProcessContext.environment("LISTEN_FDS"), let count = Int32(countText), count >= 1
        else { return nil }
        let fd: Int32 = 3
        try check(fd)
        do {
            try SystemCall.require("fcntl(F_SETFD)", "fd \(fd)") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
        } catch {
            throw Unusable(description: "socket activation passed descriptor \(fd), which cannot be kept from children: \(error)")
        }
        return fd
    }

    /// Checks that `fd` is a listening Unix-domain stream socket.
    public static func check(_ fd: Int32) throws(Unusable) {
        let info: FileStatus
        do { info = try FileStatus.of(descriptor: fd) } catch {
            throw Unusable(description: "socket activation passed descriptor \(fd), which is not open (\(error.errnoText))")
        }
        guard info.kind == .socket else {
            throw Unusable(description: "socket activation passed descriptor \(fd), which is not a socket")
        }
        func option(_ name: Int32) -> Int? { SocketIO.intOption(fd, name) }
        guard option(SO_DOMAIN) == Int(AF_UNIX) else {
            throw Unusable(description: "socket activation passed descriptor \(fd), which is not a Unix-domain socket (ListenStream= must be a path)")
        }
        guard option(SO_TYPE) == Int(SOCK_STREAM.rawValue) else {
            throw Unusable(description: "socket activation passed descriptor \(fd), which is not a stream socket (expected ListenStream=)")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw Unusable(description: "socket activation passed descriptor \(fd), which is not listening (Accept=no is expected)")
        }
    }
}
