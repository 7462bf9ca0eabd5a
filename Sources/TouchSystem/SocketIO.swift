import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing connected sockets (the daemon's clients, WebSocket connections, TUIO's
/// datagrams, systemd's notifications), accepting on listening ones, and what the kernel says about
/// them: the one place these system calls are made. The caller owns every descriptor.
public enum SocketIO {
    /// Reads what has arrived into `buffer`: `.done(n)` (0 when the peer closed its side) or
    /// `.wouldBlock`.
    /// - Throws: ``SystemError`` from `recv` (the connection failed).
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ subject: String) throws(SystemError) -> SystemCall.Outcome {
        try SystemCall.posix("recv", subject) { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Waits at most `milliseconds` for `fd` to have something to read (or its peer to close it):
    /// a client's wait for a greeting that a socket which is not touchd's never sends.
    /// - Returns: false when the time ran out first.
    /// - Throws: ``SystemError`` from `poll`.
    public static func waitReadable(_ fd: Int32, milliseconds: Int32, _ subject: String) throws(SystemError) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(truncatingIfNeeded: POLLIN), revents: 0)
        return try SystemCall.require("poll", subject) { poll(&entry, 1, milliseconds) } > 0
    }

    /// Reads what has arrived into `buffer` without waiting, on any socket (`MSG_DONTWAIT`):
    /// `.done(n)` (0 when the peer closed its side) or `.wouldBlock`.
    /// - Throws: ``SystemError`` from `recv` (the connection failed).
    public static func receiveNow(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, _ subject: String) throws(SystemError) -> SystemCall.Outcome {
        try SystemCall.posix("recv", subject) { recv(fd, buffer.baseAddress, buffer.count, Int32(truncatingIfNeeded: MSG_DONTWAIT)) }
    }

    /// Writes what the socket takes now of `bytes`, never blocking and never raising `SIGPIPE`:
    /// `.done(n)` or `.wouldBlock`.
    /// - Throws: ``SystemError`` from `send` (`EPIPE`, `ECONNRESET`: the peer is gone; for a
    ///   connected datagram socket, `ECONNREFUSED`: nobody listens there).
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ subject: String) throws(SystemError) -> SystemCall.Outcome {
        try SystemCall.posix("send", subject) { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends one datagram to `address` (a Unix datagram socket: systemd's notification socket).
    /// - Throws: ``SystemError`` from `sendto`.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: UnixSocketAddress) throws(SystemError) -> SystemCall.Outcome {
        try address.withSockaddr { sa, length throws(SystemError) in
            try SystemCall.posix("sendto", address.path) { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), sa, length) }
        }
    }

    /// A new Unix datagram socket, closed on exec (for ``send(_:_:to:)``).
    /// - Throws: ``SystemError`` from `socket`.
    public static func unixDatagram(_ subject: String) throws(SystemError) -> Int32 {
        try SystemCall.descriptor("socket", subject) { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// A new Unix stream socket, closed on exec, not yet connected.
    /// - Parameter nonBlocking: whether reads and writes return `EAGAIN` instead of blocking.
    /// - Throws: ``SystemError`` from `socket`.
    public static func unixStream(nonBlocking: Bool, _ subject: String) throws(SystemError) -> Int32 {
        let type = Int32(truncatingIfNeeded: SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | (nonBlocking ? SOCK_NONBLOCK.rawValue : 0))
        return try SystemCall.descriptor("socket", subject) { socket(AF_UNIX, type, 0) }
    }

    /// What ``shutdown(_:_:)`` closes of a connection.
    public enum Direction: Sendable {
        /// Nothing more is sent (the peer reads the end); what arrives is still read.
        case sending
        /// Both ways at once.
        case both
    }

    /// Closes one or both directions of a connected socket, keeping the descriptor (`shutdown`).
    /// A socket already shut or never connected is left as it is.
    public static func shutdown(_ fd: Int32, _ direction: Direction) {
        let how: Int32
        switch direction {
        case .sending: how = Int32(truncatingIfNeeded: SHUT_WR)
        case .both: how = Int32(truncatingIfNeeded: SHUT_RDWR)
        }
        _ = Glibc.shutdown(fd, how)
    }

    /// The bytes a socket holds that its peer has not read (`SIOCOUTQ`), or `nil` when the kernel
    /// does not tell.
    public static func unsentBytes(_ fd: Int32) -> Int? {
        var unsent: Int32 = 0
        guard (try? SystemCall.require("ioctl(SIOCOUTQ)", "socket") { touchd_socket_unsent(fd, &unsent) }) != nil else { return nil }
        return Int(unsent)
    }

    /// The socket's send buffer (`SO_SNDBUF`), or `nil` when the kernel does not tell.
    public static func sendBufferSize(_ fd: Int32) -> Int? { intOption(fd, SO_SNDBUF) }

    /// An `int` socket option at `SOL_SOCKET` (`SO_TYPE`, `SO_ACCEPTCONN`, `SO_SNDBUF`...), or `nil`.
    public static func intOption(_ fd: Int32, _ name: Int32) -> Int? {
        var value: Int32 = 0
        var length = socklen_t(truncatingIfNeeded: MemoryLayout<Int32>.size)
        guard (try? SystemCall.require("getsockopt", "fd \(fd)") { getsockopt(fd, SOL_SOCKET, name, &value, &length) }) != nil else { return nil }
        return Int(value)
    }

    /// What accepting one connection gave.
    public enum Accepted: Equatable, Sendable {
        /// A connection, non-blocking and closed on exec.
        case connection(Int32)
        /// Nobody waits.
        case nothingWaiting
        /// One gave up while waiting (`ECONNABORTED`, `EPROTO`): try the next.
        case gaveUp
        /// The process or the system is out of descriptors or memory: the connection waits in the
        /// backlog until accepting is tried again.
        case outOfResources
    }

    /// Accepts one waiting connection on the listening socket `fd`.
    /// - Throws: ``SystemError`` from `accept4` for anything else.
    public static func accept(_ fd: Int32, _ subject: String) throws(SystemError) -> Accepted {
        let accepted: SystemCall.Outcome
        do {
            accepted = try SystemCall.posix("accept4", subject) {
                accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
        } catch {
            switch error.errno {
            case ECONNABORTED, EPROTO: return .gaveUp
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfResources
            default: throw error
            }
        }
        guard case .done(let connection) = accepted else { return .nothingWaiting }
        return .connection(Int32(truncatingIfNeeded: connection))
    }
}

/// The credentials of a connected peer: SO_PEERCRED's process, user and primary group, and
/// SO_PEERGROUPS's supplementary groups (empty on kernels before 4.13), as they were at `connect`.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var supplementaryGIDs: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, supplementaryGIDs: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.supplementaryGIDs = supplementaryGIDs
    }

    public var description: String { "uid \(uid), gid \(gid), pid \(pid)" }

    /// Reads a connected Unix socket's peer credentials; `nil` when the kernel gives none.
    public static func of(socket fd: Int32) -> PeerCredentials? {
        var cred = touchd_ucred()
        guard (try? SystemCall.require("getsockopt(SO_PEERCRED)", "client socket") { touchd_peer_credentials(fd, &cred) }) != nil else { return nil }
        var groups = [UInt32](repeating: 0, count: 64)
        func readGroups() -> Int {
            let capacity = Int32(clamping: groups.count)
            // A kernel before 4.13 has no SO_PEERGROUPS: then only the primary group is known.
            return (try? SystemCall.require("getsockopt(SO_PEERGROUPS)", "client socket") { touchd_peer_groups(fd, &groups, capacity) }) ?? 0
        }
        var n = readGroups()
        if n > groups.count {
            // The kernel gives at most NGROUPS_MAX (65536) groups.
            groups = [UInt32](repeating: 0, count: min(n, 65_536))
            n = readGroups()
        }
        let supplementary = Array(groups.prefix(min(n, groups.count)))
        return PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, supplementaryGIDs: supplementary)
    }
}

/// Users and groups by name, through the system's databases (`getpwnam_r`, `getgrnam_r`: NSS, so
/// LDAP and systemd's dynamic users are found too), and the process's own.
public enum Accounts {
    /// The user `name`'s id, or `nil` when the system knows no such user.
    public static func userID(_ name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// The group `name`'s id, or `nil` when the system knows no such group.
    public static func groupID(_ name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        // Large groups list every member: give the entry room.
        var buffer = [CChar](repeating: 0, count: 256 * 1024)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The process's effective user.
    public static var effectiveUserID: UInt32 { geteuid() }
}
