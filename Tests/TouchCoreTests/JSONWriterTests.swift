import Testing
import TouchCore

/// The byte writer must print exactly what the documented number format prints: integral values
/// below 1e15 as integers, others rounded to 6 decimals in Swift's shortest round-trip form.
@Suite struct JSONWriterTests {
    static func reference(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return String((v * 1_000_000).rounded() / 1_000_000)
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
            0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 1e15 + 0.5, .infinity, -.infinity, .nan, 0, -0.0, 1e300, 5e-324,
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

    @Test func stringsAreEscapedAsJSONValueDoes() {
        var w = JSONWriter()
        w.object { w in
            w.member("a"); w.string("q\"b\\n\nr\rt\t\u{1}\u{1f}é✓\u{7f}")
            w.member(escaping: "k\"ey"); w.value(.array([.null, .bool(true), .int(-3), .object([])]))
        }
        #expect(w.text == #"{"a":"q\"b\\n\nr\rt\t\u0001\u001fé✓"# + "\u{7f}" + #"","k\"ey":[null,true,-3,{}]}"#)
    }
}
