import Testing
import TouchCore
import TouchProtocol

/// Nothing a client sends can crash, hang or bloat the daemon: every number and string of a
/// request is checked against its domain (`docs/limits.md`) and refused with a `bad_argument`
/// naming the field and what it expects, and every reply, even to the worst line, is valid JSON.
@Suite(.timeLimit(.minutes(10))) struct RequestDomainTests {
    /// The refusal of `line`, with the id its reply carries.
    static func refusal(_ line: [UInt8]) -> (id: JSONValue, error: RequestError)? {
        let (id, result) = Request.parse(line)
        guard case .failure(let error) = result else { return nil }
        return (id, error)
    }

    static func refusal(_ line: String) -> (id: JSONValue, error: RequestError)? { refusal(Array(line.utf8)) }

    /// The reply touchd sends for `line`, read back with the protocol's reader.
    static func replyRead(_ line: [UInt8]) throws -> JSONValue {
        let (id, result) = Request.parse(line)
        let reply: OutboundMessage
        switch result {
        case .success: reply = Reply.ok(id)
        case .failure(let error): reply = Reply.error(id, error)
        }
        var text = Array(reply.line(seq: 1).utf8)
        #expect(text.removeLast() == UInt8(ascii: "\n"))
        return try JSONReader.read(text)
    }

    static let point = "a finite number from -1000000 to 1000000 (points)"
    static let length = "a finite number from 0 to 1000000 (points)"
    static let identifier = "a string of 1 to 256 bytes without control characters"

    @Test(arguments: [
        (#"{"cmd":"unsubscribe","subscription":1e300}"#, #""subscription": expected a whole number from 1 to 2147483647"#),
        (#"{"cmd":"unsubscribe","subscription":-1}"#, #""subscription": expected a whole number from 1 to 2147483647"#),
        (#"{"cmd":"unsubscribe","subscription":1.5}"#, #""subscription": expected a whole number from 1 to 2147483647"#),
        (#"{"cmd":"unsubscribe","subscription":9223372036854775807}"#, #""subscription": expected a whole number from 1 to 2147483647"#),
        (#"{"cmd":"unsubscribe"}"#, #""subscription" is required: expected a whole number from 1 to 2147483647"#),
        (#"{"cmd":"hit_test","x":1e300,"y":0}"#, #""x": expected \#(point)"#),
        (#"{"cmd":"hit_test","x":0,"y":-1000000.5}"#, #""y": expected \#(point)"#),
        (#"{"cmd":"hit_test","x":"10","y":0}"#, #""x": expected \#(point)"#),
        (#"{"cmd":"hit_test","y":0}"#, #""x" is required: expected \#(point)"#),
        (#"{"cmd":"hit_test","x":0,"y":0,"window":""}"#, #""window": expected \#(identifier)"#),
        (#"{"cmd":"set","view":"v","properties":{"frame":[1.7e308,0,1,1]}}"#, #""properties.frame[0]": expected \#(point)"#),
        (#"{"cmd":"set","view":"v","properties":{"frame":[0,-1.7e308,1,1]}}"#, #""properties.frame[1]": expected \#(point)"#),
        (#"{"cmd":"set","view":"v","properties":{"frame":[0,0,1.7e308,1]}}"#, #""properties.frame[2]": expected \#(length)"#),
        (#"{"cmd":"set","view":"v","properties":{"frame":[0,0,1,-1]}}"#, #""properties.frame[3]": expected \#(length)"#),
        (#"{"cmd":"set","view":"v","properties":{"frame":[0,0,1]}}"#, #""properties.frame": expected an array of 4 numbers (x, y, width, height)"#),
        (#"{"cmd":"set","view":"v","properties":{"bounds_origin":[0,2e6]}}"#, #""properties.bounds_origin[1]": expected \#(point)"#),
        (#"{"cmd":"set","view":"v","properties":{"hit_expansion":-1}}"#, #""properties.hit_expansion": expected \#(length)"#),
        (#"{"cmd":"set","view":"v","properties":{"hit_expansion":[1,2,3,1e7]}}"#, #""properties.hit_expansion[3]": expected \#(length)"#),
        (#"{"cmd":"set","view":"v","properties":{"alpha":1.0000001}}"#, #""properties.alpha": expected a finite number from 0 to 1"#),
        (#"{"cmd":"set","view":"v","properties":{"hidden":1}}"#, #""properties.hidden": expected true or false"#),
        (#"{"cmd":"set","view":"v","properties":[]}"#, #""properties": expected an object of view properties"#),
        (#"{"cmd":"set","view":"","properties":{}}"#, #""view": expected \#(identifier)"#),
        (#"{"cmd":"add_view","view":"v","parent":7,"properties":{"frame":[0,0,1,1]}}"#, #""parent": expected \#(identifier)"#),
        (#"{"cmd":"remove_view"}"#, #""view" is required: expected \#(identifier)"#),
        (#"{"cmd":"become_first_responder","responder":null}"#, #""responder": expected \#(identifier)"#),
        (#"{"cmd":"snapshot","heatmap":"yes"}"#, #""heatmap": expected true or false"#),
        (#"{"cmd":"subscribe","views":"home"}"#, #""views": expected an array of at most 64 strings"#),
        (#"{"cmd":"subscribe","actions":["open",""]}"#, #""actions[1]": expected \#(identifier)"#),
        (#"{"cmd":"subscribe","topics":[1]}"#, #""topics[0]": expected \#(identifier)"#),
        (#"{"id":[1],"cmd":"ping"}"#, #""id": expected a JSON scalar: null, true, false, a finite number or a string of at most 256 bytes"#),
        (#"{"id":{"a":1},"cmd":"ping"}"#, #""id": expected a JSON scalar: null, true, false, a finite number or a string of at most 256 bytes"#),
    ])
    func everyFieldIsCheckedAgainstItsDomain(line: String, message: String) {
        guard let (_, error) = Self.refusal(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.code.rawValue == "bad_argument", "\(line)")
        #expect(error.message == message, "\(line)")
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        var changes = ViewChanges()
        changes.frame = Rect(x: -1_000_000, y: 1_000_000, width: 1_000_000, height: 0)
        changes.boundsOrigin = Point(x: -1_000_000, y: 1_000_000)
        changes.alpha = 0
        changes.hitExpansion = EdgeInsets(all: 1_000_000)
        let line = #"{"cmd":"set","view":"v","properties":{"frame":[-1e6,1e6,1000000,0],"bounds_origin":[-1e6,1e6],"alpha":0,"hit_expansion":1e6}}"#
        #expect(try Request.parse(line).result.get() == .tree(.set(view: "v", changes: changes)))
        #expect(try Request.parse(#"{"cmd":"unsubscribe","subscription":2147483647}"#).result.get() == .session(.unsubscribe(subscription: 2_147_483_647)))
        #expect(try Request.parse(#"{"cmd":"unsubscribe","subscription":3.0}"#).result.get() == .session(.unsubscribe(subscription: 3)))
        let longest = String(repeating: "é", count: 128)
        #expect(try Request.parse(#"{"cmd":"remove_view","view":"\#(longest)"}"#).result.get() == .tree(.removeView(view: ResponderID(longest))))
        #expect(Self.refusal(#"{"cmd":"remove_view","view":"\#(longest)x"}"#)?.error.message == #""view": expected \#(Self.identifier)"#)
        let views = (0..<64).map { "\"v\($0)\"" }.joined(separator: ",")
        #expect(throws: Never.self) { try Request.parse(#"{"cmd":"subscribe","views":[\#(views)]}"#).result.get() }
        #expect(Self.refusal(#"{"cmd":"subscribe","views":[\#(views),"one too many"]}"#)?.error.message == #""views": expected an array of at most 64 strings"#)
    }

    @Test func theRequestIDIsAnyBoundedScalar() throws {
        for (text, id) in [("1", JSONValue.int(1)), ("-3", .int(-3)), ("1.5", .double(1.5)), ("true", .bool(true)), ("null", .null), (#""abc""#, .string("abc"))] {
            #expect(Request.parse(#"{"id":\#(text),"cmd":"ping"}"#).id == id)
        }
        #expect(Request.parse(#"{"cmd":"ping"}"#).id == .null)
        let longest = String(repeating: "i", count: Limits.maximumRequestIDBytes)
        #expect(Request.parse(#"{"id":"\#(longest)","cmd":"ping"}"#).id == .string(longest))
        // Past the bound the id is refused, and the reply cannot carry it back.
        let (id, error) = try #require(Self.refusal(#"{"id":"\#(longest)i","cmd":"ping"}"#))
        #expect(id == .null)
        #expect(error.code.rawValue == "bad_argument")
        // The id still comes back when another field is wrong.
        #expect(Self.refusal(#"{"id":"x","cmd":"hit_test","x":1e300,"y":0}"#)?.id == .string("x"))
    }

    /// The hostile lines of the protocol's threat list: each gets a reply that is valid JSON.
    @Test func hostileLinesAreAnsweredWithValidJSON() throws {
        let sixtyKB = String(repeating: "z", count: 60 * 1024)
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        let cases: [(line: [UInt8], code: String?, id: JSONValue)] = [
            (Array(#"{"cmd":"unsubscribe","subscription":1e300}"#.utf8), "bad_argument", .null),
            (Array(#"{"id":1e308,"cmd":"ping"}"#.utf8), nil, .double(1e308)),
            (Array(#"{"id":-1.7976931348623157e308,"cmd":"ping"}"#.utf8), nil, .double(-.greatestFiniteMagnitude)),
            (Array(#"{"id":7,"cmd":"set","view":"v","properties":{"frame":[1.7e308,-1.7e308,1.7e308,1.7e308]}}"#.utf8), "bad_argument", .int(7)),
            (Array(#"{"id":8,"cmd":"add_view","view":"v","parent":"p","properties":{"frame":[0,0,-1.7e308,1]}}"#.utf8), "bad_argument", .int(8)),
            (deep, "malformed_json", .null),
            (Array(#"{"id":"\#(sixtyKB)","cmd":"ping"}"#.utf8), "bad_argument", .null),
            (Array(#"{"id":9,"cmd":"remove_view","view":"\#(sixtyKB)"}"#.utf8), "bad_argument", .int(9)),
            (Array(#"{"id":10,"cmd":"\#(sixtyKB)"}"#.utf8), "unknown_command", .int(10)),
            (Array(#"{"id":11,"cmd":"ping","\#(sixtyKB)":1}"#.utf8), "bad_argument", .int(11)),
            (Array(#"{"id":1,"cmd":"#.utf8) + [0xC3, 0x28] + Array(#"}"#.utf8), "malformed_json", .null),
            (Array(#"{"id":1,"cmd":"ping","x":NaN}"#.utf8), "malformed_json", .null),
            (Array(#"{"id":1,"cmd":"hit_test","x":Infinity,"y":-Infinity}"#.utf8), "malformed_json", .null),
            (Array(#"{"id":1,"cmd":"hit_test","x":1e999,"y":0}"#.utf8), "malformed_json", .null),
            (Array(#"{"id":1,"cmd":"ping","cmd":"reload"}"#.utf8), "malformed_json", .null),
            (Array(#"{"id":"\ud800","cmd":"ping"}"#.utf8), "malformed_json", .null),
            ([], "malformed_json", .null),
            (Array("[1,2]".utf8), "malformed_request", .null),
        ]
        for (line, code, id) in cases {
            let shown = String(decoding: line.prefix(80), as: UTF8.self)
            let reply = try Self.replyRead(line)
            #expect(reply["type"] == "reply", "\(shown)")
            #expect(reply["id"] == id, "\(shown)")
            if let code {
                #expect(reply["ok"] == false, "\(shown)")
                #expect(reply["error"]?["code"] == .string(code), "\(shown): \(reply)")
                // A refusal names what it refused without echoing a whole hostile line back.
                guard case .string(let message) = reply["error"]?["message"] else {
                    Issue.record("\(shown): no message")
                    continue
                }
                #expect(message.utf8.count < 1_000, "\(shown): \(message.prefix(200))")
            } else {
                #expect(reply["ok"] == true, "\(shown): \(reply)")
            }
        }
    }

    @Test func malformedJSONSaysWhatAndWhere() throws {
        let (_, invalid) = try #require(Self.refusal(Array(#"{"cmd":"#.utf8) + [0xFF] + Array("}".utf8)))
        #expect(invalid.message == "the line is not valid JSON: at byte 7: invalid UTF-8")
        #expect(Self.refusal(#"{"id":1,"id":2}"#)?.error.message == #"the line is not valid JSON: at byte 8: duplicate key "id""#)
        #expect(Self.refusal(#"{"x":NaN}"#)?.error.message == "the line is not valid JSON: at byte 5: NaN and Infinity are not JSON numbers")
    }
}
