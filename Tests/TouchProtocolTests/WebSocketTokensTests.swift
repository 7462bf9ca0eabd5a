import Testing
import TouchProtocol

/// The tokens file of the WebSocket listener: what it takes, what it refuses (with the line), and
/// that a token is matched whole.
@Suite struct WebSocketTokensTests {
    @Test func rolesAndTokensAreReadSkippingCommentsAndBlankLines() throws {
        let text = "# kiosk page\n\ncontrol  abcdefghijklmnop0123 \r\nread_only\tA.b_c~d-0123456789xyz\n"
        let tokens = try WebSocketTokens(parsing: Array(text.utf8))
        #expect(tokens.entries.count == 2)
        #expect(tokens.match("abcdefghijklmnop0123")?.role == .control)
        #expect(tokens.match("abcdefghijklmnop0123")?.index == 0)
        #expect(tokens.match("A.b_c~d-0123456789xyz")?.role == .readOnly)
        #expect(tokens.match("A.b_c~d-0123456789xyz")?.index == 1)
        // Only the whole token: a prefix, a longer one, another case are none.
        #expect(tokens.match("abcdefghijklmnop012") == nil)
        #expect(tokens.match("abcdefghijklmnop01234") == nil)
        #expect(tokens.match("ABCDEFGHIJKLMNOP0123") == nil)
        #expect(tokens.match("") == nil)
        #expect(try WebSocketTokens(parsing: []).entries.isEmpty)
    }

    @Test(arguments: [
        ("control\n", 1, "a role and a token"),
        ("admin abcdefghijklmnop0123\n", 1, "control or read_only"),
        ("# ok\ncontrol short\n", 2, "16 to 256 characters"),
        ("control abcdefghijklmnop012/\n", 1, "16 to 256 characters"),
        ("control abcdefghijklmnop0123 extra\n", 1, "a role and a token"),
        ("control abcdefghijklmnop0123\nread_only abcdefghijklmnop0123\n", 2, "given twice"),
    ])
    func aBadLineIsRefusedWithItsNumber(text: String, line: Int, expected: String) {
        #expect {
            _ = try WebSocketTokens(parsing: Array(text.utf8))
        } throws: { error in
            guard let problem = error as? WebSocketTokens.Problem else { return false }
            return problem.line == line && problem.description.contains(expected)
        }
    }

    @Test func theFileIsBounded() {
        let long = String(repeating: "control abcdefghijklmnop0123\n", count: 3_000)
        #expect(throws: WebSocketTokens.Problem.self) { try WebSocketTokens(parsing: Array(long.utf8)) }
        let many = (0..<300).map { "read_only token-\(String(repeating: "x", count: 16))-\($0)" }.joined(separator: "\n")
        #expect { try WebSocketTokens(parsing: Array(many.utf8)) } throws: { ($0 as? WebSocketTokens.Problem)?.description.contains("more than 256") == true }
        #expect(throws: WebSocketTokens.Problem.self) { try WebSocketTokens(parsing: [0x63, 0xFF, 0x0A]) }
    }

    @Test func aMessageFramedForAWebSocketIsItsLineWithoutTheNewlineInATextFrame() {
        for bodyLength in [0, 10, 117, 118, 125, 126, 200, 65_535, 65_536, 70_000] {
            let body = #""type":"x","v":""# + String(repeating: "a", count: max(bodyLength - 17, 0)) + "\""
            let message = OutboundMessage(topic: nil, droppable: false, body: body)
            for seq: UInt64 in [1, 9, 10, 123_456_789, UInt64.max] {
                let line = ByteQueue()
                line.appendLine(message, seq: seq)
                let framed = ByteQueue()
                framed.append(message, seq: seq, framing: .webSocketText)
                let object = Array(line.bytes.dropLast())
                #expect(line.bytes.last == 0x0A)
                #expect(framed.bytes == WebSocketFrameEncoder.text(object), "body \(bodyLength), seq \(seq)")
            }
        }
    }
}
