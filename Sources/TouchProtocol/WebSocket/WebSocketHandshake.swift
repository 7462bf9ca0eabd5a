import CMd
import ExtrasBase64

/// The head of an HTTP/1.1 request (request line and header fields), read strictly and within bounds.
public struct HTTPRequestHead: Sendable, Hashable {
    public var method: String
    /// The request target as sent (path and query).
    public var target: String
    /// The header fields in order, names lowercased, values without surrounding blanks.
    public var fields: [(name: String, value: String)]

    /// The longest head read: request line and every field.
    public static let maximumBytes = 8 * 1024
    /// The most header fields read.
    public static let maximumFields = 64

    public static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.target == b.target && a.fields.elementsEqual(b.fields) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        for field in fields { hasher.combine(field.name); hasher.combine(field.value) }
    }

    /// Every value of the field `name` (lowercase), in order.
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The field's one value; `nil` when absent or sent more than once.
    public func value(_ name: String) -> String? {
        let all = values(name)
        return all.count == 1 ? all[0] : nil
    }

    /// The comma-separated elements of every value of a list field (`Connection`, `Upgrade`...).
    public func elements(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",").map { $0.trimmingSpaces() } }.filter { !$0.isEmpty }
    }

    /// What the bytes received so far hold.
    public enum Parsed: Sendable, Hashable {
        /// The head has not ended yet (and is within the bounds).
        case incomplete
        /// A whole head, and how many bytes it took (with its blank line).
        case head(HTTPRequestHead, length: Int)
        /// Not an acceptable head: the status to answer with and why.
        case refused(HTTPRefusal)
    }

    /// Reads a request head from the bytes received so far.
    public static func parse(_ bytes: [UInt8]) -> Parsed {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
            return bytes.count > maximumBytes
                ? .refused(HTTPRefusal(.headersTooLarge, "the request's head is longer than \(maximumBytes) bytes"))
                : .incomplete
        }
        guard end.upperBound <= maximumBytes else {
            return .refused(HTTPRefusal(.headersTooLarge, "the request's head is longer than \(maximumBytes) bytes"))
        }
        let head = bytes[..<end.lowerBound]
        guard head.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 < 127) || $0 == 13 || $0 == 10 }) else {
            return .refused(HTTPRefusal(.badRequest, "the request's head has a byte that is not printable ASCII"))
        }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.1", !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") else {
            return .refused(HTTPRefusal(.badRequest, "the request line is not \"METHOD /path HTTP/1.1\""))
        }
        guard lines.count - 1 <= maximumFields else {
            return .refused(HTTPRefusal(.headersTooLarge, "more than \(maximumFields) header fields"))
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }),
                  !line.contains("\r"), !line.contains("\n")
            else { return .refused(HTTPRefusal(.badRequest, "a header field is not \"Name: value\"")) }
            fields.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingSpaces()))
        }
        let parsed = HTTPRequestHead(method: String(requestLine[0]), target: String(requestLine[1]), fields: fields)
        return .head(parsed, length: end.upperBound)
    }
}

/// An HTTP refusal: its status and the reason, which touchd writes in the response's body.
public struct HTTPRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Status: String, Sendable, Hashable {
        case badRequest = "400 Bad Request"
        case unauthorized = "401 Unauthorized"
        case forbidden = "403 Forbidden"
        case notFound = "404 Not Found"
        case methodNotAllowed = "405 Method Not Allowed"
        case upgradeRequired = "426 Upgrade Required"
        case headersTooLarge = "431 Request Header Fields Too Large"
        case serviceUnavailable = "503 Service Unavailable"
    }

    public var status: Status
    public var reason: String

    public init(_ status: Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.rawValue): \(reason)" }

    /// The whole response: a plain-text body with the reason; the connection closes after it.
    public var response: [UInt8] {
        let body = Array((reason + "\n").utf8)
        var head = "HTTP/1.1 \(status.rawValue)\r\nContent-Type: text/plain; charset=utf-8\r\n"
        head += "Content-Length: \(body.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
        if status == .upgradeRequired { head += "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" }
        if status == .unauthorized { head += "WWW-Authenticate: Bearer realm=\"touchd\"\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}

/// The opening handshake of a WebSocket connection to touchd (RFC 6455, section 4.2), checked
/// against touchd's rules: the path `/`, an allowed `Origin`, and a token.
///
/// A token comes in the `Authorization: Bearer TOKEN` header, or, from a browser (which cannot set
/// headers), as the subprotocol `touchd.bearer.TOKEN` beside `touchd.v2` in
/// `Sec-WebSocket-Protocol`; never in the URL, which ends up in logs. touchd answers with the
/// subprotocol `touchd.v2` and never echoes a token.
public struct WebSocketHandshake: Sendable, Hashable {
    /// The subprotocol touchd speaks (the protocol's version 2 messages, one per text frame).
    public static let subprotocol = "touchd.v2"
    /// How a browser's subprotocol carrying a token starts.
    public static let tokenSubprotocolPrefix = "touchd.bearer."
    /// The GUID RFC 6455 appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The client's `Sec-WebSocket-Key`.
    public var key: String
    /// The token the client presented, if any.
    public var token: String?
    /// The `Origin` the client sent, if any (browsers always send one).
    public var origin: String?
    /// Whether the client asked for `touchd.v2` (then the response names it).
    public var offersSubprotocol: Bool

    /// Checks `head` as a WebSocket opening handshake. `allowsOrigin` decides an `Origin`.
    public static func check(_ head: HTTPRequestHead, allowsOrigin: (String) -> Bool) -> Result<Self, HTTPRefusal> {
        guard head.method == "GET" else {
            return .failure(HTTPRefusal(.methodNotAllowed, "a WebSocket handshake is a GET request"))
        }
        let path = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard path == "/" else { return .failure(HTTPRefusal(.notFound, "touchd's WebSocket is at /")) }
        guard head.target == "/" else {
            return .failure(HTTPRefusal(.badRequest, "no query: a token goes in the Authorization header or the subprotocol, never the URL"))
        }
        guard head.value("host") != nil else { return .failure(HTTPRefusal(.badRequest, "no Host header (or more than one)")) }
        guard head.elements("upgrade").contains(where: { $0.lowercased() == "websocket" }),
              head.elements("connection").contains(where: { $0.lowercased() == "upgrade" })
        else { return .failure(HTTPRefusal(.upgradeRequired, "this is touchd's WebSocket: send Upgrade: websocket")) }
        guard head.value("sec-websocket-version") == "13" else {
            return .failure(HTTPRefusal(.upgradeRequired, "only WebSocket version 13 is spoken"))
        }
        guard let key = head.value("sec-websocket-key"), isValidKey(key) else {
            return .failure(HTTPRefusal(.badRequest, "Sec-WebSocket-Key is not 16 bytes in base64"))
        }
        let origins = head.values("origin")
        guard origins.count <= 1 else { return .failure(HTTPRefusal(.badRequest, "more than one Origin header")) }
        if let origin = origins.first, !allowsOrigin(origin) {
            return .failure(HTTPRefusal(.forbidden, "the origin \(printable(origin)) is not in [daemon] websocket_origins"))
        }
        let protocols = head.elements("sec-websocket-protocol")
        let tokens = protocols.filter { $0.hasPrefix(tokenSubprotocolPrefix) }.map { String($0.dropFirst(tokenSubprotocolPrefix.count)) }
        let offers = protocols.contains(subprotocol)
        guard tokens.isEmpty || offers else {
            return .failure(HTTPRefusal(.badRequest, "a token subprotocol needs \(subprotocol) offered beside it"))
        }
        var presented = tokens
        let authorizations = head.values("authorization")
        for authorization in authorizations {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                return .failure(HTTPRefusal(.unauthorized, "the Authorization header is not \"Bearer TOKEN\""))
            }
            presented.append(parts[1].trimmingSpaces())
        }
        guard presented.count <= 1 else { return .failure(HTTPRefusal(.badRequest, "more than one token")) }
        return .success(Self(key: key, token: presented.first, origin: origins.first, offersSubprotocol: offers))
    }

    /// The `101 Switching Protocols` response that completes the handshake.
    public var response: [UInt8] {
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(Self.accept(key: key))\r\n"
        if offersSubprotocol { head += "Sec-WebSocket-Protocol: \(Self.subprotocol)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    /// RFC 6455's `Sec-WebSocket-Accept` for a client's key: base64 of the SHA-1 of key and GUID.
    public static func accept(key: String) -> String {
        Base64.encodeToString(bytes: sha1(Array((key + guid).utf8)))
    }

    /// The 20 bytes of the SHA-1 digest of `bytes` (libmd's).
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var context = SHA1_CTX()
        SHA1Init(&context)
        bytes.withUnsafeBufferPointer { SHA1Update(&context, $0.baseAddress, $0.count) }
        // SHA1Final writes exactly 20 bytes (SHA1_DIGEST_LENGTH) into the array's room.
        var digest = [UInt8](repeating: 0, count: 20)
        digest.withUnsafeMutableBufferPointer { SHA1Final($0.baseAddress, &context) }
        return digest
    }

    static func isValidKey(_ key: String) -> Bool {
        guard key.utf8.count == 24, let decoded = try? key.base64decoded() else { return false }
        return decoded.count == 16
    }

    /// Text from a request as it may be quoted in a refusal: printable ASCII, at most 100 bytes.
    static func printable(_ text: String) -> String {
        let bytes = text.utf8.prefix(100).map { $0 >= 32 && $0 < 127 && $0 != UInt8(ascii: "\"") ? Character(Unicode.Scalar($0)) : "?" }
        return "\"" + String(bytes) + "\""
    }
}
