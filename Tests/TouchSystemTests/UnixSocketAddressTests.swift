import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

@Suite struct UnixSocketAddressTests {
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
}
