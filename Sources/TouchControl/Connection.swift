import TouchCore
import TouchProtocol
import TouchSystem

/// A blocking connection to touchd's socket: requests out, messages in, framed and read by the
/// protocol module's own ``LineSplitter`` and ``JSONReader``.
final class Connection {
    /// The longest message line taken from touchd (a `snapshot` reply carries a whole picture).
    static let maximumMessageBytes = 64 << 20

    let fd: Int32
    private var lines = LineSplitter(maximumLineLength: Connection.maximumMessageBytes)
    private var nextID: Int64 = 1

    /// How long touchd's first message may take: it sends it as it accepts the connection.
    static let greetingMilliseconds: Int32 = 5000

    /// Connects, and reads touchd's first message: `hello`, or `goodbye` with why touchd refused
    /// the connection (a user it does not allow, no place left), which is thrown.
    init(path: String) throws {
        do {
            fd = try UnixSocketAddress(path: path).connectedStream()
        } catch {
            throw ConnectionError("cannot connect to \(path): \(error.errnoText) (is touchd running? --socket or TOUCHD_SOCKET choose the path)")
        }
        try greet(path)
    }

    private func greet(_ path: String) throws {
        let seconds = Self.greetingMilliseconds / 1000
        do {
            guard try SocketIO.waitReadable(fd, milliseconds: Self.greetingMilliseconds, "touchd's socket") else {
                throw ConnectionError("nothing on \(path) said hello within \(seconds) s: is it touchd's socket?")
            }
        } catch let error as SystemError {
            throw ConnectionError("cannot read from touchd: \(error.errnoText)", lost: true)
        }
        guard let (message, _) = try receive() else { throw ConnectionError("touchd closed the connection at once", lost: true) }
        switch message["type"]?.stringValue {
        case "hello": return
        case "goodbye": throw ConnectionError("touchd refused the connection: \(message["reason"]?.stringValue ?? "no reason given")")
        default: throw ConnectionError("\(path) did not greet as touchd does (its first message is no hello): is it touchd's socket?")
        }
    }

    deinit { Descriptor.close(fd) }

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
            let received: SystemCall.Outcome
            do {
                received = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try SocketIO.receive(fd, into: buffer, "touchd's socket") } }.get()
            } catch {
                throw ConnectionError("cannot read from touchd: \(error.errnoText)", lost: true)
            }
            guard case .done(let n) = received, n > 0 else { return nil }
            lines.append(chunk[0..<n])
        }
    }

    /// The messages that have arrived, without waiting (for a connection watched by an event
    /// loop); nil once touchd has closed the connection.
    /// - Throws: ``ConnectionError`` when a line is not JSON or the socket fails.
    func receiveAvailable() throws -> [(message: JSONValue, line: [UInt8])]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let received: SystemCall.Outcome
            do {
                received = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try SocketIO.receiveNow(fd, into: buffer, "touchd's socket") } }.get()
            } catch {
                throw ConnectionError("cannot read from touchd: \(error.errnoText)", lost: true)
            }
            guard case .done(let n) = received else { break }
            if n == 0 {
                closed = true
                break
            }
            lines.append(chunk[0..<n])
        }
        var messages: [(message: JSONValue, line: [UInt8])] = []
        do {
            while let line = try lines.nextLine() { messages.append((try JSONReader.read(line), line)) }
        } catch {
            throw ConnectionError("touchd sent a line that is not JSON: \(error)")
        }
        return closed && messages.isEmpty ? nil : messages
    }

    /// Sends a request, given the connection's next `id`, without waiting for its reply.
    /// - Returns: the request's `id`, which its reply carries.
    /// - Throws: ``ConnectionError`` when touchd went away.
    @discardableResult
    func sendRequest(_ request: ClientRequest) throws -> Int64 {
        let id = nextID
        nextID += 1
        let line = request.line(id: id)
        var sent = 0
        while sent < line.count {
            let outcome: SystemCall.Outcome
            do {
                outcome = try line[sent...].withUnsafeBytes { bytes in Result { () throws(SystemError) in try SocketIO.send(fd, bytes, "touchd's socket") } }.get()
            } catch {
                throw ConnectionError("cannot send to touchd: \(error.errnoText)", lost: true)
            }
            guard case .done(let n) = outcome, n > 0 else { throw ConnectionError("cannot send to touchd: the connection is gone", lost: true) }
            sent += n
        }
        return id
    }

    /// Sends a request and waits for its reply, handing the messages that come before it to
    /// `other`; returns the reply's result.
    /// - Throws: ``ConnectionError`` with the error touchd replied, or when it went away.
    func request(_ request: ClientRequest, other: (_ message: JSONValue, _ line: [UInt8]) -> Void = { _, _ in }) throws -> JSONValue {
        let id = try sendRequest(request)
        while let (message, line) = try receive() {
            guard message["type"] == "reply", message["id"] == .int(id) else {
                other(message, line)
                continue
            }
            return try Self.result(of: message)
        }
        throw ConnectionError("touchd closed the connection", lost: true)
    }

    /// A reply's result, or its error thrown.
    static func result(of reply: JSONValue) throws -> JSONValue {
        if reply["ok"] == true { return reply["result"] ?? .null }
        let error = reply["error"]
        throw ConnectionError("\(error?["code"]?.plainText ?? "error"): \(error?["message"]?.plainText ?? "")")
    }
}

struct ConnectionError: Error, CustomStringConvertible {
    var description: String
    /// Whether the connection itself is gone (touchd closed it, or the socket failed), as opposed
    /// to touchd refusing a request: a watching command connects again after the first.
    var isLost = false
    init(_ description: String, lost: Bool = false) {
        self.description = description
        isLost = lost
    }
}
