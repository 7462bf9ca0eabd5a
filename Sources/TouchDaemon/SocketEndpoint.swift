import TouchSystem

/// The listening Unix socket a ``SocketServer`` accepts on: bound at a path by touchd, or handed
/// over by systemd (socket activation).
public struct SocketEndpoint: Sendable {
    /// The socket's file.
    public let path: String
    /// The listening descriptor.
    public let fd: Int32
    /// Whether the descriptor came from systemd (then the file is never unlinked by touchd).
    public let isActivated: Bool

    /// Binds `path` with `mode` (and `group` when given), listening.
    ///
    /// A socket file left behind is removed only when nothing answers on it: a running daemon's
    /// socket is never taken over.
    /// - Throws: ``SystemError``: the path is another kind of file, a daemon answers on it, or
    ///   binding failed.
    public static func bind(path: String, mode: UInt32 = 0o660, group: UInt32? = nil) throws(SystemError) -> SocketEndpoint {
        try removeStaleSocket(at: path)
        let fd = try UnixSocketAddress(path: path).listeningStream(mode: mode, group: group)
        return SocketEndpoint(path: path, fd: fd, isActivated: false)
    }

    /// Adopts the listening descriptor `fd` systemd handed over for `path`.
    /// - Throws: ``SystemError`` when the descriptor cannot be made non-blocking.
    public static func activated(fd: Int32, path: String) throws(SystemError) -> SocketEndpoint {
        try Descriptor.setNonBlocking(fd, "fd \(fd) from systemd")
        return SocketEndpoint(path: path, fd: fd, isActivated: true)
    }

    /// Stops listening: closes the descriptor and removes the file, unless systemd owns them.
    func close() {
        guard !isActivated else { return }
        Descriptor.close(fd)
        try? FileStatus.remove(path)
    }

    /// Removes a socket file nobody listens on; refuses when a daemon answers on it.
    private static func removeStaleSocket(at path: String) throws(SystemError) {
        guard let status = try? FileStatus.of(path, followingLinks: false) else { return }
        guard status.kind == .socket else { throw SystemError.alreadyExists(call: "bind", subject: "\(path) exists and is not a socket") }
        let address = try UnixSocketAddress(path: path)
        do {
            Descriptor.close(try address.connectedStream())
        } catch where error.isConnectionRefused || error.isMissing {
            try? FileStatus.remove(path)
            return
        }
        throw SystemError.addressInUse(call: "bind", subject: "\(path): another touchd is listening on it")
    }
}
