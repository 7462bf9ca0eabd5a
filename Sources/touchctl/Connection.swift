import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to touchd's socket: requests out, messages in.
final class Connection {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectionError("socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw ConnectionError("\(path): path too long") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard r == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ConnectionError("cannot connect to \(path): \(reason) (is touchd running? --socket or TOUCHD_SOCKET choose the path)")
        }
    }

    deinit { close(fd) }

    /// The next message, or `nil` when touchd closed the connection.
    func receive() throws -> [String: Any]? {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                let line = Data(buffer[0..<i])
                buffer.removeFirst(i + 1)
                guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw ConnectionError("touchd sent a line that is not a JSON object")
                }
                return object
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Sends a request and waits for its reply, skipping other messages.
    func request(_ command: [String: Any]) throws -> [String: Any] {
        var body = command
        let id = nextID
        nextID += 1
        body["id"] = id
        let data = try JSONSerialization.data(withJSONObject: body)
        var line = [UInt8](data)
        line.append(10)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        while let message = try receive() {
            if message["type"] as? String == "reply", message["id"] as? Int == id {
                if message["ok"] as? Bool == true { return message["result"] as? [String: Any] ?? [:] }
                let error = message["error"] as? [String: Any]
                throw ConnectionError("\(error?["code"] ?? "error"): \(error?["message"] ?? "")")
            }
        }
        throw ConnectionError("touchd closed the connection")
    }

    /// Like ``request(_:)`` for replies whose result is not an object.
    func requestAny(_ command: [String: Any]) throws -> Any {
        var body = command
        let id = nextID
        nextID += 1
        body["id"] = id
        let data = try JSONSerialization.data(withJSONObject: body)
        var line = [UInt8](data)
        line.append(10)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        while let message = try receive() {
            if message["type"] as? String == "reply", message["id"] as? Int == id {
                if message["ok"] as? Bool == true { return message["result"] as Any }
                let error = message["error"] as? [String: Any]
                throw ConnectionError("\(error?["code"] ?? "error"): \(error?["message"] ?? "")")
            }
        }
        throw ConnectionError("touchd closed the connection")
    }
}

struct ConnectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Compact JSON for printing.
func jsonText(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value) || value is String || value is NSNumber else { return "\(value)" }
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
}
