import TouchCore
import TouchProtocol

/// The WebSocket listener's parsers: an HTTP request head and the client frames after it (and the
/// head's bytes read as a tokens file, ``WebSocketTokens``).
///
/// The first byte picks how the stream is cut (1 to 64 bytes a chunk); the next two split the rest
/// into a head and frames. The head goes to ``HTTPRequestHead/parse(_:)`` chunk by chunk, as bytes
/// arrive, and a complete one to ``WebSocketHandshake/check(_:allowsOrigin:)``; the frames go to a
/// ``WebSocketFrameDecoder`` with a 4 KiB bound.
///
/// Checked: the head parser gives the same answer however the bytes were cut; an accepted handshake
/// has a key of 16 bytes and a refusal is a well-formed HTTP response; the decoder never holds
/// more than its bound and one chunk, every text message it gives is UTF-8 and within the bound, a
/// ping's payload is at most 125 bytes, and once it failed it fails again. Then every text message
/// is framed again as a client would (masked, in fragments) and must decode to itself.
public enum WebSocketFuzzing {
    static let maximumMessage = 4096

    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        var input = FuzzBytes(bytes)
        let chunk = 1 + input.choice(64)
        let split = Int(input.uint16())
        let rest = Array(input.remaining)
        let headBytes = Array(rest.prefix(split)), frameBytes = Array(rest.dropFirst(split))
        try checkHead(headBytes, chunk: chunk)
        try checkTokens(headBytes)
        let texts = try checkFrames(frameBytes, chunk: chunk)
        for text in texts { try checkRoundTrip(text, pieces: chunk) }
    }

    private static func checkHead(_ bytes: [UInt8], chunk: Int) throws(FuzzViolation) {
        let whole = HTTPRequestHead.parse(bytes)
        var received: [UInt8] = []
        var answer = HTTPRequestHead.Parsed.incomplete
        var start = 0
        while start < bytes.count, answer == .incomplete {
            let end = min(bytes.count, start + chunk)
            received += bytes[start..<end]
            start = end
            answer = HTTPRequestHead.parse(received)
        }
        switch (whole, answer) {
        case (.head(let a, let n), .head(let b, let m)):
            try require(a == b && n == m, "a head parsed differently when cut into chunks")
            try checkHandshake(a)
        case (.refused(let a), .refused(let b)):
            try require(a.status == b.status, "a head refused differently when cut into chunks")
        case (.incomplete, .incomplete): break
        case (.refused(let refusal), .head):
            // Cut earlier, a head may end before the rest of the bytes exceed the bound.
            try require(refusal.status == .headersTooLarge, "a whole stream refused (\(refusal)) that parses in chunks")
        default:
            try require(false, "the head parser gave \(whole) whole and \(answer) in chunks")
        }
    }

    /// The same bytes as a tokens file: every token read is a valid one, found again with its role
    /// and place, and its prefix is not a token.
    private static func checkTokens(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let tokens = try? WebSocketTokens(parsing: bytes) else { return }
        try require(tokens.entries.count <= WebSocketTokens.maximumTokens, "\(tokens.entries.count) tokens")
        for (index, entry) in tokens.entries.enumerated() {
            try require(WebSocketTokens.isValid(entry.token), "an invalid token was read")
            let text = String(decoding: entry.token, as: UTF8.self)
            let match = tokens.match(text)
            try require(match?.index == index && match?.role == entry.role, "a token read is not found with its role")
            let shorter = String(text.dropLast())
            try require(tokens.match(shorter).map { tokens.entries[$0.index].token == Array(shorter.utf8) } ?? true, "a prefix matched")
        }
    }

    private static func checkHandshake(_ head: HTTPRequestHead) throws(FuzzViolation) {
        switch WebSocketHandshake.check(head, allowsOrigin: { $0.hasPrefix("http://localhost") }) {
        case .success(let handshake):
            try require(handshake.key.utf8.count == 24, "accepted a key of \(handshake.key.utf8.count) characters")
            let response = String(decoding: handshake.response, as: UTF8.self)
            try require(response.hasPrefix("HTTP/1.1 101 ") && response.hasSuffix("\r\n\r\n"), "a malformed 101 response")
            try require(!response.contains(WebSocketHandshake.tokenSubprotocolPrefix), "the response echoes a token")
        case .failure(let refusal):
            let response = refusal.response
            try require(response.starts(with: Array("HTTP/1.1 ".utf8)), "a refusal that is no HTTP response")
            try require(UTF8Text.firstInvalidOffset(in: response) == nil, "a refusal that is not UTF-8")
        }
    }

    private static func checkFrames(_ bytes: [UInt8], chunk: Int) throws(FuzzViolation) -> [[UInt8]] {
        var decoder = WebSocketFrameDecoder(maximumMessageLength: maximumMessage)
        var texts: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            decoder.append(bytes[start..<end])
            start = end
            var messages: [WebSocketInbound] = []
            var failure: WebSocketFailure?
            do throws(WebSocketFailure) {
                while let message = try decoder.next() { messages.append(message) }
            } catch {
                failure = error
            }
            for message in messages {
                switch message {
                case .text(let text):
                    try require(text.count <= maximumMessage, "a text message of \(text.count) bytes")
                    try require(UTF8Text.firstInvalidOffset(in: text) == nil, "a text message that is not UTF-8")
                    texts.append(text)
                case .ping(let payload):
                    try require(payload.count <= 125, "a ping of \(payload.count) bytes")
                case .pong, .close: break
                }
            }
            if let failure {
                let again = Result { () throws(WebSocketFailure) in try decoder.next() }
                try require(again == .failure(failure), "a failed decoder went on")
                return texts
            }
            try require(decoder.bufferedByteCount <= decoder.maximumBufferedBytes + chunk,
                        "the decoder holds \(decoder.bufferedByteCount) bytes")
        }
        return texts
    }

    /// `text` framed as a client would, in `pieces` fragments, decodes to itself.
    private static func checkRoundTrip(_ text: [UInt8], pieces: Int) throws(FuzzViolation) {
        let size = max(1, (text.count + pieces - 1) / pieces)
        var stream: [UInt8] = []
        var start = 0
        repeat {
            let end = min(text.count, start + size)
            stream += maskedFrame(opcode: start == 0 ? 1 : 0, final: end == text.count, Array(text[start..<end]))
            start = end
        } while start < text.count
        var decoder = WebSocketFrameDecoder(maximumMessageLength: maximumMessage)
        decoder.append(stream)
        let decoded = Result { () throws(WebSocketFailure) in try decoder.next() }
        try require(decoded == .success(.text(text)), "a message framed again decoded as \(decoded)")
    }

    static func maskedFrame(opcode: UInt8, final: Bool, _ payload: [UInt8]) -> [UInt8] {
        let mask: [UInt8] = [0xA5, 0x01, 0x7E, 0x33]
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(truncatingIfNeeded: payload.count))
        } else {
            bytes += [0x80 | 126, UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)]
        }
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }
}
