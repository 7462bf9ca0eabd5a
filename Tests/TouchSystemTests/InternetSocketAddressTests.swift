import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The watch page's listening address: IP literals only, bound exactly where written.
@Suite(.timeLimit(.minutes(10))) struct InternetSocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080), ("localhost:80", "127.0.0.1", 80), ("[::1]:0", "::1", 0), ("0.0.0.0:65535", "0.0.0.0", 65535),
    ])
    func addressesAreReadAsWritten(text: String, host: String, port: Int) throws {
        let address = try InternetSocketAddress(parsing: text)
        #expect(address.host == host && Int(address.port) == port)
    }

    @Test(arguments: ["example.com:80", "127.0.0.1", "127.0.0.1:65536", "::1:80", "[::1]", "127.0.0.1:-1", "[nonsense]:80", ""])
    func anythingButAnIPLiteralAndAPortIsRefused(text: String) {
        #expect(throws: SystemError.self) { try InternetSocketAddress(parsing: text) }
    }

    @Test func portZeroBindsAFreePortOnTheAddressGiven() throws {
        let fd = try InternetSocketAddress(parsing: "127.0.0.1:0").listeningStream()
        defer { Descriptor.close(fd) }
        let port = try InternetSocketAddress.boundPort(of: fd)
        #expect(port > 0)
        #expect(try SocketIO.accept(fd, "test") == .nothingWaiting, "nobody waits: accepting does not block")
        // The port is taken: a second socket cannot bind it.
        #expect(throws: SystemError.self) { try InternetSocketAddress(parsing: "127.0.0.1:\(port)").listeningStream() }
    }
}
