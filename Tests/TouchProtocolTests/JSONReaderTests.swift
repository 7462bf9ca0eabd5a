import Testing
import TouchCore
import TouchProtocol

/// The one JSON reader: RFC 8259 exactly, every refusal named with its byte offset.
@Suite(.timeLimit(.minutes(10))) struct JSONReaderTests {
    static func read(_ text: String) throws(JSONReadError) -> JSONValue { try JSONReader.read(text) }

    @Test func documentsReadAsTheirValues() throws {
        #expect(
            try Self.read(#" {"a" : [1, -2.5, 3e2, true, false, null, "x"], "b": {}, "c": [] } "#)
                == .object([
                    ("a", .array([.int(1), .double(-2.5), .double(300), .bool(true), .bool(false), .null, .string("x")])),
                    ("b", .object([])), ("c", .array([])),
                ]))
        #expect(try Self.read("\t\r\n 7 \n") == .int(7))
        #expect(try Self.read(#""q\"b\\s\/\b\f\n\r\t\u00e9\u20AC\ud83c\udf89""#) == .string("q\"b\\s/\u{8}\u{c}\n\r\té€🎉"))
        #expect(try Self.read(#""é€🎉 raw""#) == .string("é€🎉 raw"))
        #expect(try Self.read(#""\u0000""#) == .string("\u{0}"))
        // Members keep their order.
        #expect(try Self.read(#"{"z":1,"a":2}"#) == .object([("z", .int(1)), ("a", .int(2))]))
    }

    @Test func integersAreReadExactlyOrNotAtAll() throws {
        #expect(try Self.read("9223372036854775807") == .int(.max))
        #expect(try Self.read("-9223372036854775808") == .int(.min))
        #expect(try Self.read("9007199254740993") == .int(9_007_199_254_740_993), "2^53 + 1, which a double cannot hold")
        for outside in ["9223372036854775808", "-9223372036854775809", "18446744073709551616", String(repeating: "9", count: 400)] {
            #expect(throws: JSONReadError.self, "\(outside.prefix(30))") { try Self.read(outside) }
        }
        #expect(try Self.read("9223372036854775808.0") == .double(9_223_372_036_854_775_808), "a fraction makes it a double")
        #expect(try Self.read("-0") == .int(0))
        #expect(try Self.read("1.0") == .double(1))
        #expect(try Self.read("1e2") == .double(100))
        #expect(try Self.read("1E-2") == .double(0.01))
        #expect(try Self.read("1e-400") == .double(0))
        #expect(try Self.read("1.7976931348623157e308") == .double(.greatestFiniteMagnitude))
    }

    @Test(arguments: [
        // Grammar.
        ("", 0, "expected a value, found the end of the text"),
        ("   ", 3, "expected a value, found the end of the text"),
        ("NaN", 0, "NaN and Infinity are not JSON numbers"),
        ("Infinity", 0, "NaN and Infinity are not JSON numbers"),
        ("-Infinity", 1, "NaN and Infinity are not JSON numbers"),
        ("[1,NaN]", 3, "NaN and Infinity are not JSON numbers"),
        ("nan", 0, "expected null, found 'n'"),
        ("01", 1, "a number does not start with 0 followed by digits"),
        ("1.", 2, "expected a digit after the decimal point, found the end of the text"),
        (".5", 0, "expected a value, found '.'"),
        ("+1", 0, "expected a value, found '+'"),
        ("1e", 2, "expected a digit in the exponent, found the end of the text"),
        ("-", 1, "expected a digit, found the end of the text"),
        ("[1,]", 3, "expected a value, found ']'"),
        (#"{"a":1,}"#, 7, "expected a key (a string), found '}'"),
        ("{'a':1}", 1, "expected a key (a string), found '''"),
        (#"{"a" 1}"#, 5, "expected ':' after the key, found '1'"),
        ("[1 2]", 3, "expected ',' or ']' in an array, found '2'"),
        (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' in an object, found '\"'"),
        ("[1] // comment", 4, "'/' after the value: expected the end of the text"),
        ("{} {}", 3, "'{' after the value: expected the end of the text"),
        ("truex", 4, "'x' after the value: expected the end of the text"),
        ("tru", 0, "expected true, found 't'"),
        // Numbers that overflow.
        ("1e400", 0, "the number 1e400 is too large for a double"),
        ("[-1e400]", 1, "the number -1e400 is too large for a double"),
        ("[18446744073709551616]", 1, "the integer 18446744073709551616 is outside -9223372036854775808 to 9223372036854775807: integers are read exactly or not at all"),
        // Strings.
        (#""abc"#, 0, "unterminated string"),
        ("\"a\u{1}b\"", 2, "control character 0x01 in a string: it must be escaped"),
        ("\"a\nb\"", 2, "control character 0x0a in a string: it must be escaped"),
        (#""\x""#, 1, #"unknown escape \'x'"#),
        (#""\u12""#, 5, "expected four hexadecimal digits after \\u, found '\"'"),
        (#""\ud83c""#, 1, #"lone surrogate \ud83c: expected a low surrogate after it"#),
        (#""\ud83cx""#, 1, #"lone surrogate \ud83c: expected a low surrogate after it"#),
        (#""\ud83c\u0041""#, 1, #"lone surrogate \ud83c: \u0041 is no low surrogate"#),
        (#""\udf89""#, 1, #"lone surrogate \udf89: a low surrogate without a high one"#),
        // Keys.
        (#"{"a":1,"b":2,"a":3}"#, 13, #"duplicate key "a""#),
        (#"{"k":{"x":1,"x":1}}"#, 12, #"duplicate key "x""#),
    ])
    func refusalsNameWhatAndWhere(text: String, offset: Int, reason: String) {
        do {
            let value = try Self.read(text)
            Issue.record("\(text.debugDescription) read as \(value)")
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
            #expect(error.reason == reason, "\(text.debugDescription): \(error)")
        }
    }

    @Test(arguments: [
        ([0x22, 0x80, 0x22], 1),  // a continuation byte alone
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // an overlong '/'
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // an overlong three-byte form
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // a surrogate encoded directly
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
        ([0x22, 0x61, 0xC3, 0x22], 2),  // a truncated sequence
        ([0x22, 0x61, 0xE2, 0x82], 2),  // truncated by the end of the text
        ([0x5B, 0x31, 0x5D, 0xFF], 3),  // outside any string
        ([0xEF, 0xBB, 0xBF, 0x31], 0),  // a byte order mark is no JSON
    ] as [([UInt8], Int)])
    func invalidUTF8IsRefusedWhereItStarts(bytes: [UInt8], offset: Int) {
        do {
            let value = try JSONReader.read(bytes)
            Issue.record("\(bytes) read as \(value)")
        } catch {
            #expect(error.offset == offset, "\(bytes): \(error)")
            if offset > 0 || bytes[0] != 0xEF { #expect(error.reason == "invalid UTF-8", "\(bytes): \(error)") }
        }
    }

    @Test func nestingIsBoundedBeforeItIsEntered() throws {
        let depth = Limits.maximumJSONDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try Self.read(deepest)
        for _ in 1..<depth {
            guard case .array(let items) = value, items.count == 1 else { Issue.record("not nested"); return }
            value = items[0]
        }
        #expect(value == .array([]))
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: Never.self) { try Self.read(objects) }

        for tooDeep in [String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1),
            String(repeating: #"{"a":"#, count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)]
        {
            #expect(throws: JSONReadError(offset: tooDeep.hasPrefix("[") ? depth : depth * 5, reason: "arrays and objects nested deeper than \(depth) levels")) {
                try Self.read(tooDeep)
            }
        }
        // A hundred thousand levels are refused at the first level too many, not recursed into.
        let hostile = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        #expect(throws: JSONReadError(offset: depth, reason: "arrays and objects nested deeper than \(depth) levels")) {
            try JSONReader.read(hostile)
        }
        #expect(throws: JSONReadError.self) { try JSONReader.read(deepest, maximumDepth: depth - 1) }
    }

    /// Strings of random bytes (UTF-8 sequences whole and broken) read exactly when the standard
    /// library finds them well-formed, and then to those very bytes.
    @Test func stringsAreReadExactlyWhenTheyAreUTF8() {
        let seed: UInt64 = 0x5EED_0001
        var random = SeededRandom(seed: seed)
        let pieces: [[UInt8]] = [
            [0x61], [0x7A], [0x20], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x8E, 0x89], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBF],
            [0x80], [0xBF], [0xC0], [0xC1, 0x81], [0xC2], [0xE0, 0x9F, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x8E],
        ]
        var accepted = 0
        for round in 0..<20_000 {
            var body: [UInt8] = []
            for _ in 0..<random.next(below: 8) { body += pieces[random.next(below: pieces.count)] }
            if random.next(below: 4) == 0 { body += (0..<random.next(below: 6)).map { _ in UInt8(0x20 + random.next(below: 0xE0)) }.filter { $0 != 0x22 && $0 != 0x5C } }
            let valid = String(validating: body, as: UTF8.self)
            let read = try? JSONReader.read([0x22] + body + [0x22])
            #expect((read != nil) == (valid != nil), "seed \(seed) round \(round): \(body)")
            if let read, let valid {
                #expect(read == .string(valid), "seed \(seed) round \(round): \(body)")
                accepted += 1
            }
        }
        #expect(accepted > 1_000 && accepted < 19_000, "seed \(seed): both kinds were tried")
    }

    /// Random values written by the writer read back as the same values.
    @Test func whatTheWriterWritesReadsBackTheSame() throws {
        let seed: UInt64 = 0x5EED_0002
        var random = SeededRandom(seed: seed)
        func value(_ depth: Int) -> JSONValue {
            switch random.next(below: depth > 4 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(random.next(below: 2) == 0)
            case 2: return .int(Int64(bitPattern: random.nextUInt64()) >> random.next(below: 64))
            case 3:
                // Not whole (a whole double is written as an integer), on a grid the format keeps.
                let thousandths = Int64(random.next(below: 2_000_000_000)) - 1_000_000_000
                return .double(Double(thousandths * 10 + 1) / 10_000)
            case 4: return .string(String(decoding: (0..<random.next(below: 12)).map { _ in UInt8(random.next(below: 128)) }, as: UTF8.self) + "é🎉")
            case 5: return .array((0..<random.next(below: 5)).map { _ in value(depth + 1) })
            default:
                return .object((0..<random.next(below: 5)).map { i in ("k\(i)\u{1}\"", value(depth + 1)) })
            }
        }
        for round in 0..<3_000 {
            let original = value(0)
            let text = original.jsonText
            #expect(try JSONReader.read(text) == original, "seed \(seed) round \(round): \(text)")
        }
    }
}

/// A small seeded generator (SplitMix64): the tests' random inputs are the same on every run.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextUInt64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(below bound: Int) -> Int { Int(truncatingIfNeeded: nextUInt64() % UInt64(bound)) }
}
