import Testing
@testable import TouchProtocol

/// A client's frame, as a browser writes it: masked with `mask`.
func clientFrame(opcode: UInt8, _ payload: [UInt8], final: Bool = true, mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D],
                 rsv: UInt8 = 0, masked: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = [(final ? 0x80 : 0) | rsv | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
        bytes.append(maskBit | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
        bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
        bytes.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    if masked { bytes += mask }
    bytes += payload.enumerated().map { masked ? $0.element ^ mask[$0.offset & 3] : $0.element }
    return bytes
}

/// The frame decoder, fed whole and byte by byte, against what RFC 6455 makes a server refuse.
@Suite(.timeLimit(.minutes(10))) struct WebSocketFrameTests {
    static func decode(_ stream: [UInt8], chunk: Int = .max, maximum: Int = 1024) -> ([WebSocketInbound], WebSocketFailure?) {
        var decoder = WebSocketFrameDecoder(maximumMessageLength: maximum)
        var out: [WebSocketInbound] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start &+ chunk)
            decoder.append(stream[start..<end])
            start = end
            do {
                while let message = try decoder.next() { out.append(message) }
            } catch {
                return (out, error)
            }
        }
        return (out, nil)
    }

    @Test func aMaskedTextFrameIsReadWholeOrByteByByte() {
        let stream = clientFrame(opcode: 1, Array(#"{"cmd":"ping"}"#.utf8)) + clientFrame(opcode: 9, [1, 2])
        for chunk in [Int.max, 1, 3] {
            let (messages, failure) = Self.decode(stream, chunk: chunk)
            #expect(failure == nil)
            #expect(messages == [.text(Array(#"{"cmd":"ping"}"#.utf8)), .ping([1, 2])])
        }
    }

    @Test func fragmentsAreJoinedAndControlFramesMayComeBetweenThem() {
        let stream = clientFrame(opcode: 1, Array("ab".utf8), final: false) + clientFrame(opcode: 9, [])
            + clientFrame(opcode: 0, Array("cd".utf8), final: false) + clientFrame(opcode: 0, Array("e".utf8))
        let (messages, failure) = Self.decode(stream, chunk: 2)
        #expect(failure == nil)
        #expect(messages == [.ping([]), .text(Array("abcde".utf8))])
    }

    @Test func lengthsOf126AndMoreUseTheLongerHeaders() {
        let medium = [UInt8](repeating: 0x61, count: 300), large = [UInt8](repeating: 0x62, count: 70_000)
        let (messages, failure) = Self.decode(clientFrame(opcode: 1, medium) + clientFrame(opcode: 1, large), maximum: 100_000)
        #expect(failure == nil)
        #expect(messages == [.text(medium), .text(large)])
    }

    @Test(arguments: [
        (clientFrame(opcode: 1, [0x61], masked: false), WebSocketCloseCode.protocolError),
        (clientFrame(opcode: 1, [0x61], rsv: 0x40), .protocolError),
        (clientFrame(opcode: 3, []), .protocolError),
        (clientFrame(opcode: 2, [1, 2]), .unsupportedData),
        (clientFrame(opcode: 1, [0xC3, 0x28]), .invalidText),
        (clientFrame(opcode: 0, [0x61]), .protocolError),
        (clientFrame(opcode: 9, [UInt8](repeating: 0, count: 126)), .protocolError),
        (clientFrame(opcode: 9, [], final: false), .protocolError),
        (clientFrame(opcode: 8, [3, 0xED]), .protocolError),  // 1005 may not be sent
        (clientFrame(opcode: 8, [7]), .protocolError),
        (clientFrame(opcode: 1, [0x61], final: false) + clientFrame(opcode: 1, [0x62]), .protocolError),
        (clientFrame(opcode: 1, [UInt8](repeating: 0x61, count: 1025)), .messageTooBig),
        (clientFrame(opcode: 1, [UInt8](repeating: 0x61, count: 600), final: false)
            + clientFrame(opcode: 0, [UInt8](repeating: 0x61, count: 600)), .messageTooBig),
    ])
    func whatAServerMustRefuseClosesWithItsCode(stream: [UInt8], code: WebSocketCloseCode) {
        for chunk in [Int.max, 1] {
            let (_, failure) = Self.decode(stream, chunk: chunk)
            #expect(failure?.code == code, "\(stream.prefix(8))")
        }
    }

    @Test func anOversizedLengthIsRefusedBeforeItsPayloadArrives() {
        // A header announcing 2^62 bytes: refused at once, nothing buffered for it.
        var decoder = WebSocketFrameDecoder(maximumMessageLength: 1024)
        decoder.append([0x81, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0])
        #expect(throws: WebSocketFailure.self) { try decoder.next() }
        // And the decoder stays failed.
        decoder.append(clientFrame(opcode: 1, [0x61]))
        #expect(throws: WebSocketFailure.self) { try decoder.next() }
    }

    @Test func aCloseFrameGivesItsCodeAndReason() {
        let (messages, failure) = Self.decode(clientFrame(opcode: 8, [0x03, 0xE8] + Array("bye".utf8)) + clientFrame(opcode: 8, []))
        #expect(failure == nil)
        #expect(messages == [.close(code: 1000, reason: Array("bye".utf8)), .close(code: nil, reason: [])])
    }

    @Test func serverFramesAreUnmaskedWithTheShortestHeader() {
        #expect(WebSocketFrameEncoder.text(Array("hi".utf8)) == [0x81, 2, 0x68, 0x69])
        let long = WebSocketFrameEncoder.text([UInt8](repeating: 0, count: 300))
        #expect(Array(long.prefix(4)) == [0x81, 126, 1, 44])
        let huge = WebSocketFrameEncoder.text([UInt8](repeating: 0, count: 70_000))
        #expect(Array(huge.prefix(10)) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
        #expect(WebSocketFrameEncoder.headerLength(payloadLength: 70_000) == 10)
        #expect(WebSocketFrameEncoder.pong([9]) == [0x8A, 1, 9])
        // A close reason is cut to 123 bytes, never inside a character.
        let close = WebSocketFrameEncoder.close(.policyViolation, reason: String(repeating: "é", count: 100))
        #expect(close[0] == 0x88 && close[2] == 0x03 && close[3] == 0xF0)
        #expect(Int(close[1]) == close.count - 2 && close.count - 4 <= 123 && (close.count - 4) % 2 == 0)
    }
}

/// The opening handshake: RFC 6455's example, and each refusal with its status.
@Suite struct WebSocketHandshakeTests {
    static func head(_ lines: [String]) -> HTTPRequestHead? {
        guard case .head(let head, _) = HTTPRequestHead.parse(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)) else { return nil }
        return head
    }

    static let good = [
        "GET / HTTP/1.1", "Host: 127.0.0.1:8765", "Upgrade: websocket", "Connection: keep-alive, Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13", "Origin: http://localhost:8080",
    ]

    static func check(_ lines: [String], origins: Set<String> = ["http://localhost:8080"]) -> Result<WebSocketHandshake, HTTPRefusal>? {
        head(lines).map { WebSocketHandshake.check($0) { origins.contains($0) } }
    }

    @Test func theRFCsExampleKeyGivesTheRFCsAccept() throws {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let handshake = try #require(try Self.check(Self.good)?.get())
        #expect(handshake.token == nil)
        #expect(String(decoding: handshake.response, as: UTF8.self).contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
    }

    /// FIPS 180's examples (and the empty message): the handshake's digest is SHA-1 for any length.
    @Test func theDigestIsSHA1() {
        func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
        #expect(hex(WebSocketHandshake.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(WebSocketHandshake.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(WebSocketHandshake.sha1(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(WebSocketHandshake.sha1([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func aTokenComesInTheHeaderOrTheSubprotocolNeverEchoed() throws {
        let byHeader = try #require(try Self.check(Self.good + ["Authorization: Bearer abc123"])?.get())
        #expect(byHeader.token == "abc123")
        let byProtocol = try #require(try Self.check(Self.good + ["Sec-WebSocket-Protocol: touchd.v2, touchd.bearer.s3cr3t"])?.get())
        #expect(byProtocol.token == "s3cr3t")
        let response = String(decoding: byProtocol.response, as: UTF8.self)
        #expect(response.contains("Sec-WebSocket-Protocol: touchd.v2\r\n"))
        #expect(!response.contains("s3cr3t"))
    }

    @Test(arguments: [
        (["POST / HTTP/1.1"] + Array(good.dropFirst()), HTTPRefusal.Status.methodNotAllowed),
        (["GET /x HTTP/1.1"] + Array(good.dropFirst()), .notFound),
        (["GET /?token=abc HTTP/1.1"] + Array(good.dropFirst()), .badRequest),
        (good.filter { !$0.hasPrefix("Host") }, .badRequest),
        (good.filter { !$0.hasPrefix("Upgrade") }, .upgradeRequired),
        (good.map { $0.hasPrefix("Sec-WebSocket-Version") ? "Sec-WebSocket-Version: 8" : $0 }, .upgradeRequired),
        (good.map { $0.hasPrefix("Sec-WebSocket-Key") ? "Sec-WebSocket-Key: short" : $0 }, .badRequest),
        (good.map { $0.hasPrefix("Sec-WebSocket-Key") ? "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ" : $0 }, .badRequest),
        (good.map { $0.hasPrefix("Origin") ? "Origin: http://evil.example" : $0 }, .forbidden),
        (good + ["Origin: http://localhost:8080"], .badRequest),
        (good + ["Sec-WebSocket-Protocol: touchd.bearer.x"], .badRequest),
        (good + ["Authorization: Basic eDp5"], .unauthorized),
        (good + ["Authorization: Bearer a", "Sec-WebSocket-Protocol: touchd.v2, touchd.bearer.b"], .badRequest),
    ])
    func refusalsHaveTheirStatus(lines: [String], status: HTTPRefusal.Status) {
        guard case .failure(let refusal) = Self.check(lines) else {
            Issue.record("accepted: \(lines)")
            return
        }
        #expect(refusal.status == status, "\(refusal)")
        #expect(String(decoding: refusal.response, as: UTF8.self).hasPrefix("HTTP/1.1 \(status.rawValue)\r\n"))
    }

    @Test func headsAreBoundedAndStrict() {
        #expect(HTTPRequestHead.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) == .incomplete)
        let huge = Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000)).utf8)
        guard case .refused(let tooLong) = HTTPRequestHead.parse(huge) else { Issue.record("not refused"); return }
        #expect(tooLong.status == .headersTooLarge)
        let many = (0..<70).map { "X-\($0): 1" }
        guard case .refused(let tooMany) = HTTPRequestHead.parse(Array((["GET / HTTP/1.1"] + many).joined(separator: "\r\n").utf8 + [13, 10, 13, 10])) else {
            Issue.record("not refused"); return
        }
        #expect(tooMany.status == .headersTooLarge)
        for bad in ["GET / HTTP/1.0", "GET /", "GET / HTTP/1.1\r\nNo colon here", "GET / HTTP/1.1\r\nBad Name: x", "GET / HTTP/1.1\r\nX: \u{1}"] {
            guard case .refused(let refusal) = HTTPRequestHead.parse(Array((bad + "\r\n\r\n").utf8)) else {
                Issue.record("accepted: \(bad)"); continue
            }
            #expect(refusal.status == .badRequest)
        }
        // A bare LF ends no head: it is never taken for CRLF.
        #expect(HTTPRequestHead.parse(Array("GET / HTTP/1.1\nHost: x\n\n".utf8)) == .incomplete)
    }
}
