#if canImport(Glibc)
import Glibc
#endif

/// An IP address and port (`sockaddr_in` or `sockaddr_in6`): the one place such an address is
/// built, for `touchctl watch`'s page and the daemon's TUIO datagrams. The daemon itself never
/// listens on IP.
///
/// Written `HOST:PORT`: an IPv4 literal (`127.0.0.1:8080`), `localhost` (127.0.0.1), or an IPv6
/// literal in brackets (`[::1]:8080`). No name is looked up: the address listened on is the one
/// written. Port 0 asks the kernel for a free one (``boundPort(of:)`` tells which).
public struct InternetSocketAddress: Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage
    /// The host as written (`localhost` as `127.0.0.1`), without brackets.
    public let host: String
    /// The port.
    public let port: UInt16

    /// An address from `HOST:PORT`.
    /// - Throws: ``SystemError`` with `EINVAL` naming what was given, when it is not an IP literal
    ///   and a port from 0 to 65535.
    public init(parsing text: String) throws(SystemError) {
        let invalid = SystemError(call: "address", subject: "\(text) (expected HOST:PORT with an IP address: 127.0.0.1:8080, [::1]:8080)", errno: EINVAL)
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { throw invalid }
        var host = String(text[..<colon])
        let bracketed = host.hasPrefix("[") && host.hasSuffix("]") && host.count >= 2
        if bracketed { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        if !bracketed, !host.contains(":") {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(truncatingIfNeeded: AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw invalid }
            storage = .v4(address)
        } else {
            guard bracketed else { throw invalid }
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(truncatingIfNeeded: AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw invalid }
            storage = .v6(address)
        }
        self.host = host
        self.port = port
    }

    /// Whether the address is on the loopback: `127.0.0.0/8` or `::1` (only this machine reaches it).
    public var isLoopback: Bool {
        switch storage {
        case .v4(let address): UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case .v6: host == "::1" || host == "0:0:0:0:0:0:0:1"
        }
    }

    /// `HOST:PORT`, with an IPv6 host in brackets.
    public var description: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// A new non-blocking TCP socket bound to this address and listening (the caller owns it).
    /// `SO_REUSEADDR` is set, so a restarted tool can bind a port whose old connections linger.
    /// - Throws: ``SystemError`` from `socket`, `setsockopt`, `bind` (`EADDRINUSE`, `EADDRNOTAVAIL`)
    ///   or `listen`.
    public func listeningStream(backlog: Int32 = 16) throws(SystemError) -> Int32 {
        let family: Int32 = if case .v4 = storage { AF_INET } else { AF_INET6 }
        let type = Int32(truncatingIfNeeded: SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let fd = try SystemCall.descriptor("socket", description) { socket(family, type, 0) }
        do {
            var on: Int32 = 1
            let size = socklen_t(truncatingIfNeeded: MemoryLayout<Int32>.size)
            try SystemCall.require("setsockopt(SO_REUSEADDR)", description) { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, size) }
            _ = try withSockaddr { address, length throws(SystemError) in
                try SystemCall.require("bind", description) { bind(fd, address, length) }
            }
            try SystemCall.require("listen", description) { listen(fd, backlog) }
        } catch {
            Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// A new non-blocking UDP socket connected to this address (the caller owns it): what `send`
    /// writes datagrams to (TUIO).
    /// - Throws: ``SystemError`` from `socket` or `connect`.
    public func connectedDatagram() throws(SystemError) -> Int32 {
        let family: Int32 = if case .v4 = storage { AF_INET } else { AF_INET6 }
        let type = Int32(truncatingIfNeeded: SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let fd = try SystemCall.descriptor("socket", description) { socket(family, type, 0) }
        do {
            _ = try withSockaddr { address, length throws(SystemError) in
                try SystemCall.require("connect", description) { connect(fd, address, length) }
            }
        } catch {
            Descriptor.close(fd)
            throw error
        }
        return fd
    }

    /// The port a listening socket was bound to (the kernel's choice for port 0).
    /// - Throws: ``SystemError`` from `getsockname`.
    public static func boundPort(of fd: Int32) throws(SystemError) -> UInt16 {
        var address = sockaddr_in6()
        var length = socklen_t(truncatingIfNeeded: MemoryLayout<sockaddr_in6>.size)
        _ = try withUnsafeMutablePointer(to: &address) { pointer throws(SystemError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemError) in
                try SystemCall.require("getsockname", "fd \(fd)") { getsockname(fd, raw, &length) }
            }
        }
        // sin_port and sin6_port sit at the same offset, after the family.
        return UInt16(bigEndian: address.sin6_port)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    private func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        switch storage {
        case .v4(var address):
            return try withUnsafePointer(to: &address) { pointer throws(E) -> R in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw: UnsafePointer<sockaddr>) throws(E) -> R in
                    try body(raw, socklen_t(truncatingIfNeeded: MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var address):
            return try withUnsafePointer(to: &address) { pointer throws(E) -> R in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw: UnsafePointer<sockaddr>) throws(E) -> R in
                    try body(raw, socklen_t(truncatingIfNeeded: MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }
}
