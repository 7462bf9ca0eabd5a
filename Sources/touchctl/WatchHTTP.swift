/// The little HTTP that `touchctl watch` speaks: a request's head read, and responses written.
/// Only `GET` (and `HEAD`) of a few paths; every response but the event stream closes its
/// connection once written.
enum WatchHTTP {
    /// The longest request head read (request line and headers).
    static let maximumHeadBytes = 8 * 1024

    /// A request's method, path (without its query) and `Host` header.
    struct Request: Equatable {
        var method: String
        var path: String
        var host: String?
    }

    /// What a head that is not complete yet, complete, or too long or malformed gives.
    enum Parsed: Equatable {
        case incomplete
        case request(Request)
        case bad(status: String)
    }

    /// Parses the bytes read so far of a request.
    static func parse(_ bytes: [UInt8]) -> Parsed {
        let end: [UInt8] = [13, 10, 13, 10]
        guard let range = bytes.firstRange(of: end) else {
            return bytes.count > maximumHeadBytes ? .bad(status: "431 Request Header Fields Too Large") : .incomplete
        }
        let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .bad(status: "400 Bad Request") }
        var host: String?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "host" { host = line[line.index(after: colon)...].trimmed(of: " \t") }
        }
        let target = parts[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        return .request(Request(method: String(parts[0]), path: path, host: host))
    }

    /// A whole response: status line, headers and body.
    static func response(status: String, type: String, body: [UInt8], headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
        head += commonHeaders + "Connection: close\r\n\r\n"
        return Array(head.utf8) + (headOnly ? [] : body)
    }

    /// The head of the event stream (Server-Sent Events), which stays open.
    static let streamHead = Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n" + commonHeaders + "\r\n").utf8)

    /// Headers of every response: nothing cached, no type guessed, scripts and styles from this
    /// server only, no frame around the page.
    static let commonHeaders =
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
        + "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'\r\n"

    /// One event of the stream: `event: NAME` (when named) and the data line.
    static func event(_ name: String?, data: [UInt8]) -> [UInt8] {
        var bytes = name.map { Array("event: \($0)\n".utf8) } ?? []
        bytes += Array("data: ".utf8) + data + [10, 10]
        return bytes
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `set`.
    func trimmed(of set: String) -> String {
        let skipped = Set(set)
        let start = firstIndex { !skipped.contains($0) } ?? endIndex
        let end = lastIndex { !skipped.contains($0) }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
