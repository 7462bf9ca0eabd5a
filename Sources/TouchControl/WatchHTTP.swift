/// The little HTTP that `touchctl watch` speaks: a request's head read, and responses written.
/// Only `GET` (and `HEAD`) of a few paths; every response but the event stream closes its
/// connection once written. A head ends at its empty line, with CRLF or bare LF line ends.
enum WatchHTTP {
    /// The longest request head read (request line and headers).
    static let maximumHeadBytes = 8 * 1024

    /// A request's method, path (without its query), `Host` header, and the token it carries:
    /// the cookie `cookie` names, or an `Authorization: Bearer` header.
    struct Request: Equatable {
        var method: String
        var path: String
        var host: String?
        var token: String?
    }

    /// What a head that is not complete yet, complete, or too long or malformed gives.
    enum Parsed: Equatable {
        case incomplete
        case request(Request)
        case bad(status: String)
    }

    /// Parses the bytes read so far of a request. Lines end in CRLF or a bare LF (RFC 9112 lets a
    /// server take both); `cookie` is the name of the cookie that carries the token.
    static func parse(_ bytes: [UInt8], cookie: String = "") -> Parsed {
        guard let end = headEnd(bytes) else {
            return bytes.count > maximumHeadBytes ? .bad(status: "431 Request Header Fields Too Large") : .incomplete
        }
        guard end <= maximumHeadBytes else { return .bad(status: "431 Request Header Fields Too Large") }
        // Split on the bytes: in a `String`, CR LF is one character.
        let lines = bytes[..<end].split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .bad(status: "400 Bad Request") }
        var host: String?
        var token: String?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmed(of: " \t")
            switch line[..<colon].lowercased() {
            case "host": host = value
            case "authorization" where value.hasPrefix("Bearer "): token = String(value.dropFirst(7)).trimmed(of: " ")
            case "cookie" where token == nil && !cookie.isEmpty:
                for pair in value.split(separator: ";") {
                    let item = pair.trimmed(of: " ")
                    if item.hasPrefix(cookie + "=") { token = String(item.dropFirst(cookie.utf8.count + 1)) }
                }
            default: continue
            }
        }
        let target = parts[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        return .request(Request(method: String(parts[0]), path: path, host: host, token: token))
    }

    /// The offset where a complete head ends (its empty line), or `nil`.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: 10) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == 10 { return newline }
            if next + 1 < bytes.count, bytes[next] == 13, bytes[next + 1] == 10 { return newline }
            index = next
        }
        return nil
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
