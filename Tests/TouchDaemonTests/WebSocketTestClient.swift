import Foundation
import TouchDaemon
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket peer written by hand, byte by byte, for the hostile tests: it can send a handshake
/// in pieces, frames that lie about their length, fragments, and stop reading or answering.
/// Its frames are masked as a client's must be unless told otherwise; a ping is answered as it is
/// read (unless ``answersPings`` is false).
final class WebSocketTestClient {
    let fd: Int32
    private var received: [UInt8] = []
    private(set) var status: Int?
    private(set) var messages: [[String: Any]] = []
    /// The close frame's code, once one came.
    private(set) var closeCode: Int?
    private(set) var pings = 0
    /// Whether the connection ended (the daemon closed it).
    private(set) var closed = false
    var answersPings = true

    /// Connects to `port` on the loopback (non-blocking: the connection may still be completing).
    init(port: UInt16) throws {
        // Made in a local: a failure closes it and throws before `self.fd` is set, so `deinit`
        // (which runs once every property is set) never closes the number again, by then perhaps
        // another test's descriptor.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 || errno == EINPROGRESS else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// A handshake's request, with `token` in the Authorization header.
    static func handshake(token: String?, origin: String? = nil, port: UInt16) -> [UInt8] {
        var lines = [
            "GET / HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Protocol: touchd.v2",
        ]
        if let token { lines.append("Authorization: Bearer \(token)") }
        if let origin { lines.append("Origin: \(origin)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Writes `bytes` (what the socket takes; the rest is lost, which a test that floods wants).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A client frame: `opcode`, `payload`, masked unless `masked` is false; `announced` lies
    /// about the length when given.
    static func frame(opcode: UInt8, _ payload: [UInt8], final: Bool = true, masked: Bool = true, announced: UInt64? = nil) -> [UInt8] {
        let length = announced ?? UInt64(payload.count)
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((length >> UInt64(shift)) & 0xFF)) }
        }
        guard masked else { return bytes + payload }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }

    /// A request as one masked text frame.
    func request(_ json: String) { write(Self.frame(opcode: 1, Array(json.utf8))) }

    /// Reads what arrived: the handshake's status, then frames (messages, pings, the close).
    func poll() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += chunk[0..<n]
                continue
            }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOTCONN) { closed = true }
            break
        }
        parse()
    }

    private func parse() {
        if status == nil {
            guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let line = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first ?? ""
            let parts = line.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) : 0
            received.removeFirst(end.upperBound)
        }
        while received.count >= 2 {
            let opcode = received[0] & 0x0F
            var length = Int(received[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard received.count >= 4 else { return }
                length = Int(received[2]) << 8 | Int(received[3])
                offset = 4
            } else if length == 127 {
                guard received.count >= 10 else { return }
                length = (2..<10).reduce(0) { $0 << 8 | Int(received[$1]) }
                offset = 10
            }
            guard received.count >= offset + length else { return }
            let payload = Array(received[offset..<offset + length])
            received.removeFirst(offset + length)
            switch opcode {
            case 1:
                if let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] { messages.append(object) }
            case 8: closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
            case 9:
                pings += 1
                if answersPings { write(Self.frame(opcode: 0xA, payload)) }
            default: break
            }
        }
    }

    func of(type: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == type } }
}
