import TouchCore

/// A WebSocket close code (RFC 6455, section 7.4), as touchd sends and understands them.
public enum WebSocketCloseCode: UInt16, Sendable, Hashable {
    /// The connection did what it was for (the client or touchd closed it).
    case normal = 1000
    /// touchd is shutting down, or the peer stopped answering pings.
    case goingAway = 1001
    /// The peer broke the protocol (an unmasked frame, a reserved bit, a bad opcode...).
    case protocolError = 1002
    /// A binary message: touchd's messages are text (JSON).
    case unsupportedData = 1003
    /// A text message that is not UTF-8.
    case invalidText = 1007
    /// touchd's policy: too slow a reader, not allowed, too many clients.
    case policyViolation = 1008
    /// A message or frame larger than touchd takes.
    case messageTooBig = 1009
}

/// Why the frames a peer sent cannot be read on: the connection is closed with ``code``.
public struct WebSocketFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(reason) (close code \(code.rawValue))" }
}

/// What a client's frames add up to, one at a time.
public enum WebSocketInbound: Sendable, Hashable {
    /// A whole text message (its fragments joined), checked to be UTF-8.
    case text([UInt8])
    /// A ping: answer with a pong carrying `payload`.
    case ping([UInt8])
    /// A pong (an answer to touchd's ping, or unasked: both only show the peer is there).
    case pong
    /// The peer closes: its code (nil when it gave none) and reason.
    case close(code: UInt16?, reason: [UInt8])
}

/// Reads the frames a WebSocket client sends (RFC 6455, section 5), however the stream is cut.
///
/// It takes what a server must: every frame masked, no reserved bit, known opcodes only, control
/// frames of at most 125 bytes and never fragmented, a close frame's code a valid one, text that is
/// UTF-8; and what touchd bounds: no message longer than ``maximumMessageLength`` (its fragments
/// together), at most ``maximumBufferedBytes`` held at once. Anything else is a
/// ``WebSocketFailure`` naming the close code to send, and the stream is unusable afterwards.
public struct WebSocketFrameDecoder: Sendable {
    /// The longest message (all its fragments), in bytes.
    public let maximumMessageLength: Int
    private var buffer: [UInt8] = []
    private var head = 0
    /// The fragments of a text message begun and not yet finished.
    private var fragments: [UInt8]?
    private var failure: WebSocketFailure?

    public init(maximumMessageLength: Int) {
        self.maximumMessageLength = max(maximumMessageLength, 0)
    }

    /// The most bytes held at once: a whole message plus one frame's header.
    public var maximumBufferedBytes: Int { maximumMessageLength + 14 }

    /// Bytes received and not yet read as a frame.
    public var bufferedByteCount: Int { buffer.count - head }

    /// Adds the next bytes of the stream.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        if head > 0 {
            buffer.removeFirst(head)
            head = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next complete message, or `nil` when the bytes so far end inside a frame.
    public mutating func next() throws(WebSocketFailure) -> WebSocketInbound? {
        if let failure { throw failure }
        do throws(WebSocketFailure) {
            while true {
                guard let frame = try nextFrame() else {
                    if bufferedByteCount > maximumBufferedBytes {
                        throw WebSocketFailure(.messageTooBig, "a frame longer than \(maximumMessageLength) bytes")
                    }
                    return nil
                }
                if let message = try assemble(frame) { return message }
            }
        } catch {
            failure = error
            throw error
        }
    }

    private struct Frame {
        var final: Bool
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// The next whole frame, unmasked; `nil` when it has not all arrived.
    private mutating func nextFrame() throws(WebSocketFailure) -> Frame? {
        let available = buffer.count - head
        guard available >= 2 else { return nil }
        let first = buffer[head], second = buffer[head + 1]
        guard first & 0x70 == 0 else { throw WebSocketFailure(.protocolError, "a reserved bit is set") }
        guard second & 0x80 != 0 else { throw WebSocketFailure(.protocolError, "a client's frame is not masked") }
        let opcode = first & 0x0F
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[head + 2]) << 8 | UInt64(buffer[head + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[head + 2 + $1]) }
            headerLength = 10
        }
        guard length <= UInt64(truncatingIfNeeded: maximumMessageLength) else {  // never negative: init
            throw WebSocketFailure(.messageTooBig, "a frame of \(length) bytes (at most \(maximumMessageLength))")
        }
        let payloadLength = Int(truncatingIfNeeded: length)  // at most maximumMessageLength: checked above
        guard available >= headerLength + 4 + payloadLength else { return nil }
        let maskStart = head + headerLength
        let mask = Array(buffer[maskStart..<maskStart + 4])
        let start = maskStart + 4
        var payload = Array(buffer[start..<start + payloadLength])
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        head = start + payloadLength
        return Frame(final: first & 0x80 != 0, opcode: opcode, payload: payload)
    }

    /// A message when `frame` completes one; `nil` for a fragment that does not.
    private mutating func assemble(_ frame: Frame) throws(WebSocketFailure) -> WebSocketInbound? {
        switch frame.opcode {
        case 0x8, 0x9, 0xA:
            guard frame.final, frame.payload.count <= 125 else {
                throw WebSocketFailure(.protocolError, "a control frame fragmented or longer than 125 bytes")
            }
            return try control(frame)
        case 0x1, 0x2:
            guard fragments == nil else {
                throw WebSocketFailure(.protocolError, "a new message began inside a fragmented one")
            }
            guard frame.opcode == 0x1 else {
                throw WebSocketFailure(.unsupportedData, "a binary message: touchd's messages are JSON text")
            }
            if frame.final { return try text(frame.payload) }
            fragments = frame.payload
            return nil
        case 0x0:
            guard var joined = fragments else {
                throw WebSocketFailure(.protocolError, "a continuation frame without a message begun")
            }
            guard joined.count + frame.payload.count <= maximumMessageLength else {
                throw WebSocketFailure(.messageTooBig, "a message longer than \(maximumMessageLength) bytes")
            }
            joined += frame.payload
            if frame.final {
                fragments = nil
                return try text(joined)
            }
            fragments = joined
            return nil
        default:
            throw WebSocketFailure(.protocolError, "the unknown opcode \(frame.opcode)")
        }
    }

    private func control(_ frame: Frame) throws(WebSocketFailure) -> WebSocketInbound {
        switch frame.opcode {
        case 0x9: return .ping(frame.payload)
        case 0xA: return .pong
        default:
            guard !frame.payload.isEmpty else { return .close(code: nil, reason: []) }
            guard frame.payload.count >= 2 else { throw WebSocketFailure(.protocolError, "a close frame of one byte") }
            let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
            guard Self.isValidReceivedCloseCode(code) else {
                throw WebSocketFailure(.protocolError, "the close code \(code) is not one a peer may send")
            }
            let reason = Array(frame.payload[2...])
            guard UTF8Text.firstInvalidOffset(in: reason) == nil else {
                throw WebSocketFailure(.invalidText, "a close reason that is not UTF-8")
            }
            return .close(code: code, reason: reason)
        }
    }

    private func text(_ bytes: [UInt8]) throws(WebSocketFailure) -> WebSocketInbound {
        if let offset = UTF8Text.firstInvalidOffset(in: bytes) {
            throw WebSocketFailure(.invalidText, "a text message that is not UTF-8 (at byte \(offset))")
        }
        return .text(bytes)
    }

    /// RFC 6455, section 7.4: the codes a close frame may carry (1005, 1006 and 1015 are never sent).
    static func isValidReceivedCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }
}

/// The frames touchd writes (a server's: never masked, never fragmented).
public enum WebSocketFrameEncoder {
    /// A text frame carrying `payload`.
    public static func text(_ payload: some Collection<UInt8>) -> [UInt8] { frame(opcode: 0x1, payload) }

    /// A pong answering a ping with `payload` (at most 125 bytes, as the decoder ensures).
    public static func pong(_ payload: [UInt8]) -> [UInt8] { frame(opcode: 0xA, payload.prefix(125)) }

    /// A ping carrying `payload` (at most 125 bytes).
    public static func ping(_ payload: [UInt8]) -> [UInt8] { frame(opcode: 0x9, payload.prefix(125)) }

    /// A close frame: the code and as much of `reason` as fits (123 bytes, never cutting a character).
    public static func close(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var text = Array(reason.utf8)
        if text.count > 123 {
            var end = 123
            while end > 0, text[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
            text = Array(text[..<end])
        }
        return frame(opcode: 0x8, [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)] + text)
    }

    /// The length of the header of a frame carrying `payloadLength` bytes.
    public static func headerLength(payloadLength: Int) -> Int {
        payloadLength < 126 ? 2 : payloadLength <= 0xFFFF ? 4 : 10
    }

    static func frame(opcode: UInt8, _ payload: some Collection<UInt8>) -> [UInt8] {
        let count = payload.count
        var bytes: [UInt8] = [0x80 | opcode]
        bytes.reserveCapacity(count + 10)
        if count < 126 {
            bytes.append(UInt8(truncatingIfNeeded: count))
        } else if count <= 0xFFFF {
            bytes += [126, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        } else {
            bytes.append(127)
            let length = UInt64(truncatingIfNeeded: count)  // a count is never negative
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
        }
        bytes += payload
        return bytes
    }
}
