import CFuzzSupport
import TouchCore
import TouchProtocol
import TouchSystem

/// A client of the daemon's socket for the request target: it writes what it is given without
/// blocking (keeping what the socket does not take), reads whatever arrives, and keeps every line
/// it received, each read as strict JSON.
final class FuzzClient {
    let fd: Int32
    /// The role the daemon must give it (``FuzzDaemon/connection(for:)``).
    let role: ClientRole
    /// Every complete line received, parsed; a line that is not JSON is a violation at once.
    private(set) var messages: [JSONValue] = []
    /// Complete, non-empty request lines written, in order, for matching the replies.
    private(set) var requests: [[UInt8]] = []
    /// Whether the daemon closed the connection (end of stream or an error reading).
    private(set) var isClosed = false
    /// Whether this side hung up.
    private(set) var hungUp = false
    private var received: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var partialRequest: [UInt8] = []
    /// Where `recv` writes, kept from read to read.
    private var chunk = [UInt8](repeating: 0, count: 65536)

    /// Connects to the socket at `path` as a client meant to have `role`.
    init(path: String, role: ClientRole) throws(FuzzViolation) {
        let (uid, role) = FuzzDaemon.connection(for: role)
        self.role = role
        // A local until connected: a failure closes it before `self.fd` is set, so `deinit` (which
        // runs once every property is set) never closes the number again.
        let fd: Int32
        do throws(SystemError) {
            fd = try SocketIO.unixStream(nonBlocking: true, path)
        } catch {
            throw FuzzViolation("the client has no socket: \(error)")
        }
        do throws(SystemError) {
            let address = try UnixSocketAddress(path: path)
            try address.withSockaddr { sockaddr, length throws(SystemError) in
                try SystemCall.require("connect", path) { touchd_fuzz_connect_as(fd, sockaddr, length, uid) }
            }
        } catch {
            _ = Descriptor.close(fd)
            throw FuzzViolation("the client cannot connect: \(error)")
        }
        self.fd = fd
    }

    deinit { _ = Descriptor.close(fd) }

    /// Queues `bytes` and writes what the socket takes now.
    func write(_ bytes: ArraySlice<UInt8>) {
        guard !hungUp else { return }
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !partialRequest.isEmpty { requests.append(partialRequest) }
                partialRequest = []
            } else {
                partialRequest.append(byte)
            }
        }
        outgoing += bytes
        pump()
    }

    /// Writes as much of what is queued as the socket takes.
    func pump() {
        while !outgoing.isEmpty && !hungUp {
            let outcome = try? outgoing.withUnsafeBytes { raw throws(SystemError) in try SocketIO.send(fd, raw, "the fuzzing client") }
            guard case .done(let n) = outcome, n > 0 else { return }
            outgoing.removeFirst(min(n, outgoing.count))
        }
    }

    /// Bytes queued that the socket has not taken.
    var unsentCount: Int { outgoing.count }

    /// Says nothing more will be sent (the daemon still answers what it got, a last request
    /// without its newline included).
    func finishSending() {
        guard !hungUp else { return }
        if !partialRequest.isEmpty { requests.append(partialRequest) }
        partialRequest = []
        SocketIO.shutdown(fd, .sending)
    }

    /// Closes both directions at once, without reading what is on its way.
    func hangUp() {
        hungUp = true
        outgoing = []
        SocketIO.shutdown(fd, .both)
    }

    /// Reads whatever has arrived; returns how many bytes.
    func read() throws(FuzzViolation) -> Int {
        guard !hungUp, !isClosed else { return 0 }
        var total = 0
        while true {
            let outcome = try? chunk.withUnsafeMutableBytes { raw throws(SystemError) in try SocketIO.receive(fd, into: raw, "the fuzzing client") }
            guard case .done(let n) = outcome else {
                if outcome == nil { isClosed = true }
                break
            }
            if n == 0 {
                isClosed = true
                break
            }
            total += n
            received += chunk[0..<n]
        }
        try takeLines()
        return total
    }

    private func takeLines() throws(FuzzViolation) {
        var start = 0
        while let newline = received[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(received[start..<newline])
            start = newline + 1
            do throws(JSONReadError) {
                messages.append(try JSONReader.read(line))
            } catch {
                throw FuzzViolation("the daemon wrote a line that is not JSON (\(error)): \(String(decoding: line.prefix(500), as: UTF8.self))")
            }
        }
        received.removeFirst(start)
    }

    /// Bytes received after the last complete line.
    var unterminatedCount: Int { received.count }
}
