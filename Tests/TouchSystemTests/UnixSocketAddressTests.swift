import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct UnixSocketAddressTests {
    @Test func aPathAddressHoldsThePathAndItsTerminator() throws {
        let address = try UnixSocketAddress(path: "/run/touchd/socket")
        #expect(address.length == socklen_t(2 + 18 + 1))
        let family = address.withSockaddr { pointer, _ in pointer.pointee.sa_family }
        #expect(family == sa_family_t(AF_UNIX))
    }

    @Test func anAbstractAddressStartsWithANulByte() throws {
        let address = try UnixSocketAddress(path: "@/org/freedesktop/systemd1/notify")
        #expect(address.length == socklen_t(2 + 33))
        let first = address.withSockaddr { pointer, _ in
            pointer.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { un in withUnsafeBytes(of: un.pointee.sun_path) { $0[0] } }
        }
        #expect(first == 0)
    }

    @Test func aPathTooLongForTheKernelIsRefused() {
        let path = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: SystemError(call: "sockaddr_un", subject: path, errno: ENAMETOOLONG)) { try UnixSocketAddress(path: path) }
        #expect(throws: SystemError(call: "sockaddr_un", subject: "", errno: EINVAL)) { try UnixSocketAddress(path: "") }
    }

    @Test func aClientConnectsToAListenerAndIsToldWhenNobodyListens() throws {
        let path = "/tmp/touchd-address-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let address = try UnixSocketAddress(path: path)
        #expect(throws: SystemError(call: "connect", subject: path, errno: ENOENT)) { try address.connectedStream() }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        #expect(address.withSockaddr { bind(listener, $0, $1) } == 0)
        #expect(listen(listener, 4) == 0)
        let client = try address.connectedStream(nonBlocking: true)
        defer { close(client) }
        let flags = fcntl(client, F_GETFL)
        #expect(flags & O_NONBLOCK != 0)
        #expect(fcntl(client, F_GETFD) & FD_CLOEXEC != 0, "no descriptor leaks into a child")
        let accepted = accept(listener, nil, nil)
        #expect(accepted >= 0)
        close(accepted)
        close(listener)
        unlink(path)
        #expect(throws: SystemError(call: "connect", subject: path, errno: ENOENT)) { try address.connectedStream() }
    }
}
