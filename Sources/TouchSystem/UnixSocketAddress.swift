import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain socket address (`sockaddr_un`) for a filesystem path: the one place such an
/// address is built, for the daemon's listening socket, its clients and systemd's notify socket.
public struct UnixSocketAddress: Sendable {
    /// The path, as given.
    public let path: String
    /// The longest path an address holds, in bytes: `sun_path` less its terminating NUL (107).
    public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
    private var storage: sockaddr_un

    /// An address for `path`. An abstract address (systemd's notify socket may be one) is written
    /// with a leading `@`, which becomes the NUL byte that marks it.
    /// - Throws: ``SystemError`` with `ENAMETOOLONG` when the path does not fit `sun_path`
    ///   (107 bytes), and `EINVAL` when it is empty or holds a NUL byte.
    public init(path: String) throws(SystemError) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { throw SystemError(call: "sockaddr_un", subject: path, errno: EINVAL) }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard bytes.count <= Self.maximumPathBytes else { throw SystemError(call: "sockaddr_un", subject: path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        self.path = path
        self.storage = address
        self.length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
    }

    /// The address's length as `bind`, `connect` and `sendmsg` take it.
    public let length: socklen_t

    /// A new stream socket connected to this address: how every client of a Unix socket connects
    /// (`touchctl`, the probe for a live daemon, tests). The caller owns the descriptor.
    /// - Parameter nonBlocking: whether reads and writes return `EAGAIN` instead of blocking.
    /// - Throws: ``SystemError`` from `socket` or `connect` (`ENOENT` or `ECONNREFUSED` when nobody
    ///   listens there).
    public func connectedStream(nonBlocking: Bool = false) throws(SystemError) -> Int32 {
        let fd = try SocketIO.unixStream(nonBlocking: nonBlocking, path)
        do {
            try withSockaddr { address, length throws(SystemError) in
                try SystemCall.require("connect", path) { connect(fd, address, length) }
            }
        } catch {
            Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// A new non-blocking stream socket bound to this path and listening (the caller owns it): the
    /// file is made with `mode` (no wider while it is made: the umask keeps it private until
    /// `chmod`), and given to `group` when one is named.
    /// - Throws: ``SystemError`` from `socket`, `bind` (`EADDRINUSE`: the file exists), `chmod`,
    ///   `chown` or `listen`.
    public func listeningStream(mode: UInt32, group: UInt32?, backlog: Int32 = 64) throws(SystemError) -> Int32 {
        let type = Int32(truncatingIfNeeded: SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let fd = try SystemCall.descriptor("socket", path) { socket(AF_UNIX, type, 0) }
        do {
            let oldMask = umask(0o177)
            defer { umask(oldMask) }
            try withSockaddr { address, length throws(SystemError) in
                try SystemCall.require("bind", path) { bind(fd, address, length) }
            }
            try SystemCall.require("chmod", path) { chmod(path, mode_t(truncatingIfNeeded: mode)) }
            if let group { try SystemCall.require("chown", path) { chown(path, uid_t.max, group) } }
            try SystemCall.require("listen", path) { listen(fd, backlog) }
        } catch {
            Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    @discardableResult
    public func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        var copy = storage
        let length = length
        return try withUnsafePointer(to: &copy) { pointer throws(E) -> R in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address: UnsafePointer<sockaddr>) throws(E) -> R in
                try body(address, length)
            }
        }
    }
}
