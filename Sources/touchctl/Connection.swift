import TouchCore
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to touchd's socket: requests out, messages in, framed and read by the
/// protocol module's own ``LineSplitter`` and ``JSONReader``.
final class Connection {
    /// The longest message line taken from touchd (a `snapshot` reply carries a whole picture).
    static let maximumMessageBytes = 64 << 20

    let fd: Int32
    private var lines = LineSplitter(maximumLineLength: Connection.maximumMessageBytes)
    private var nextID: Int64 = 1

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectionError("socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw ConnectionError("\(path): path too long")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard r == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ConnectionError("cannot connect to \(path): \(reason) (is touchd running? --socket or TOUCHD_SOCKET choose the path)")
        }
    }

    deinit { close(fd) }

    /// The next message and its line as touchd sent it, or `nil` when touchd closed the connection.
    func receive() throws -> (message: JSONValue, line: [UInt8])? {
        while true {
            let line: [UInt8]?
            do {
                line = try lines.nextLine()
            } catch {
                throw ConnectionError("touchd sent \(error)")
            }
            if let line {
                do {
                    return (try JSONReader.read(line), line)
                } catch {
                    throw ConnectionError("touchd sent a line that is not JSON: \(error)")
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            lines.append(chunk[0..<n])
        }
    }

    /// Sends a request (an object's members, without `id`) and waits for its reply, skipping
    /// other messages; returns the reply's result.
    /// - Throws: ``ConnectionError`` with the error touchd replied, or when it went away.
    func request(_ members: [(String, JSONValue)]) throws -> JSONValue {
        let id = JSONValue.int(nextID)
        nextID += 1
        var line = Array(JSONValue.object(members + [("id", id)]).jsonText.utf8)
        line.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < line.count {
            let n = line[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ConnectionError("cannot send to touchd: \(String(cString: strerror(errno)))") }
            sent += n
        }
        while let (message, _) = try receive() {
            guard message["type"] == "reply", message["id"] == id else { continue }
            if message["ok"] == true { return message["result"] ?? .null }
            let error = message["error"]
            throw ConnectionError("\(error?["code"]?.plainText ?? "error"): \(error?["message"]?.plainText ?? "")")
        }
        throw ConnectionError("touchd closed the connection")
    }
}

struct ConnectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
