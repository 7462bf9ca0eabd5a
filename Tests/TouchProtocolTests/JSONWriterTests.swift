import Testing
import TouchCore
import TouchProtocol

/// The byte writer must print exactly what the documented number format prints: integral values
/// below 2^53 as integers, values from 2^53 on in exponent form with Swift's shortest round-trip
/// digits, others rounded to 6 decimals in Swift's shortest form, or as an integer when that
/// rounding gives a whole number (one form: `3`, never `3.0`).
@Suite(.timeLimit(.minutes(10))) struct JSONWriterTests {
    static func reference(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded() && abs(v) < 9_007_199_254_740_992 { return String(Int64(v)) }
        if abs(v) >= 9_007_199_254_740_992 {
            // Swift's digits, in exponent form whatever Swift's own text does below 1e16.
            let text = String(v)
            if text.contains("e") { return text }
            var digits = String(text.drop { $0 == "-" }.prefix { $0 != "." })
            let exponent = digits.count - 1
            while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
            let mantissa = digits.count == 1 ? digits : "\(digits.prefix(1)).\(digits.dropFirst())"
            return (v < 0 ? "-" : "") + mantissa + "e+\(exponent)"
        }
        let rounded = (v * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded() && abs(rounded) < 9_007_199_254_740_992 { return String(Int64(rounded)) }
        return String(rounded)
    }

    static func written(_ v: Double) -> String {
        var w = JSONWriter()
        w.double(v)
        return w.text
    }

    @Test func numbersAreWrittenAsTheFormatSays() {
        var samples: [Double] = [
            0.001, -0.001, 0.0009999995, 0.0010000004, 2.9999999, -2.9999999, 0.5, 1.25, 123.456789, 123.4567894,
            123.4567895, 1_369_413_358.008095, 4_294_967_295.999999, 4_294_967_296.5, -4_294_967_295.25, 1e-7, -1e-7,
            0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 1e15 + 0.5, .infinity, -.infinity, .nan, 0, -0.0, 1e300, .leastNonzeroMagnitude,
        ]
        var state: UInt64 = 12345
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            let exponent = Double(Int(state % 23)) - 6  // 1e-6 ... 1e16
            var scale = 1.0
            for _ in 0..<Int(abs(exponent)) { scale *= 10 }
            let v = exponent < 0 ? unit / scale : unit * scale
            samples.append(state & 1 == 0 ? v : -v)
            // And values already on a micro grid, as mapped coordinates often are.
            samples.append(Double(Int64(state % 5_000_000_000)) / 1_000_000)
        }
        var mismatches: [String] = []
        for v in samples where Self.written(v) != Self.reference(v) {
            mismatches.append("\(v): \(Self.written(v)) != \(Self.reference(v))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func wholeNumbersUpTo2To53HaveNoFractionAndLargerOnesAnExponent() {
        for (v, text) in [
            (1e15, "1000000000000000"), (-1e15, "-1000000000000000"), (9_007_199_254_740_991, "9007199254740991"),
            (4_503_599_627_370_496.5, "4503599627370496"), (9_007_199_254_740_992, "9.007199254740992e+15"),
            (-9_007_199_254_740_994, "-9.007199254740994e+15"), (1e16, "1e+16"), (1e300, "1e+300"),
        ] as [(Double, String)] {
            #expect(Self.written(v) == text, "\(v)")
            #expect(JSONValue.double(v).jsonText == text, "\(v)")
        }
    }

    @Test func stringsAreEscapedAsJSONValueDoes() {
        var w = JSONWriter()
        w.object { w in
            w.member("a"); w.string("q\"b\\n\nr\rt\t\u{1}\u{1f}é✓\u{7f}")
            w.member(escaping: "k\"ey"); w.value(.array([.null, .bool(true), .int(-3), .object([])]))
        }
        #expect(w.text == #"{"a":"q\"b\\n\nr\rt\t\u0001\u001fé✓"# + "\u{7f}" + #"","k\"ey":[null,true,-3,{}]}"#)
    }

    /// Strings of every length up to 40, with the characters that need escaping (and bytes just
    /// around them) anywhere, written as the plain rule says: the word-at-a-time scan must find
    /// every one of them.
    @Test func everyCharacterThatNeedsEscapingIsFoundAnywhere() {
        func reference(_ s: String) -> String {
            var out = Array("\"".utf8)
            for b in s.utf8 {
                switch b {
                case UInt8(ascii: "\""): out += Array("\\\"".utf8)
                case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case ..<0x20: out += Array(("\\u00" + String(b >> 4, radix: 16) + String(b & 15, radix: 16)).utf8)
                default: out.append(b)
                }
            }
            return String(decoding: out + Array("\"".utf8), as: UTF8.self)
        }
        let alphabet: [String] = ["a", "Z", "\"", "\\", "\n", "\u{1}", "\u{1f}", " ", "!", "#", "[", "]", "é", "✓", "\u{7f}", "~"]
        var state: UInt64 = 7
        for length in 0...40 {
            for _ in 0..<200 {
                var s = ""
                for _ in 0..<length {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Mostly plain letters, so that long clean runs come before a special character.
                    let pick = Int(state >> 33) % 64
                    s += pick < alphabet.count ? alphabet[pick] : "x"
                }
                var w = JSONWriter()
                w.string(s)
                #expect(w.text == reference(s), "\(Array(s.utf8))")
            }
        }
    }
}
