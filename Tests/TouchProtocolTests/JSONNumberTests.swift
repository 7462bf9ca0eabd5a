import Testing
import TouchCore
import TouchProtocol

/// Every `Double` the writer meets becomes a JSON number that reads back to (nearly) itself, or
/// `null` when it is not finite: never `inf`, `nan` or anything else a client cannot read.
@Suite(.timeLimit(.minutes(10))) struct JSONNumberTests {
    static func written(_ v: Double) -> String {
        var w = JSONWriter()
        w.double(v)
        return w.text
    }

    /// The text read back with the protocol's reader, as a number.
    static func readBack(_ text: String) -> Double? {
        switch try? JSONReader.read(text) {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }

    /// Whether `back` is what the format promises for `v`: exact for whole values below 1e15 and
    /// every value from 2^53 on, else within half a millionth (plus the last bits of `v`).
    static func isFaithful(_ back: Double, to v: Double) -> Bool {
        if abs(v) >= 9_007_199_254_740_992 || (v == v.rounded() && abs(v) < 1e15) { return back == v }
        return abs(back - v) <= 5e-7 + abs(v) * 0x1p-50
    }

    static func check(_ v: Double, _ context: String) {
        let text = written(v)
        #expect(JSONValue.double(v).jsonText == text, "\(context): \(v)")
        guard v.isFinite else {
            #expect(text == "null", "\(context): \(v) written as \(text)")
            return
        }
        guard let back = readBack(text) else {
            Issue.record("\(context): \(v) written as \(text), which is no JSON number")
            return
        }
        #expect(isFaithful(back, to: v), "\(context): \(v) written as \(text) reads back as \(back)")
    }

    @Test func theEdgesOfTheDoubles() {
        var edges: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1.7e308, 1.8e302, 1.79e302, 1e303,
            1e15, 1e15 - 1, 1e15 + 0.5, 4_294_967_296, 4_294_967_295.9999995, 9_007_199_254_740_992, 9_007_199_254_740_991,
            9_007_199_254_740_991.5 - 0.5, 4_503_599_627_370_495.5, 0.5e-6, 0.49e-6, 1e-7, Double.leastNonzeroMagnitude.nextUp, Double.leastNormalMagnitude.nextDown, 123.456789,
            .infinity, .nan, .signalingNaN,
        ]
        edges += edges.map { -$0 }
        for v in edges { Self.check(v, "edge") }
        #expect(Self.written(.infinity) == "null")
        #expect(Self.written(-.infinity) == "null")
        #expect(Self.written(.nan) == "null")
        #expect(Self.written(.greatestFiniteMagnitude) == "1.7976931348623157e+308")
        #expect(Self.written(-1e303) == "-1e+303")
        #expect(Self.written(.leastNonzeroMagnitude) == "0")
    }

    /// One form: a value that rounds to a whole number at 6 decimals is written as that whole
    /// number, as a whole value is (`1080`, never `1080.0`); a location clamped inside a window's
    /// far edge is written inside it.
    @Test func aValueThatRoundsToAWholeNumberIsWrittenAsOne() {
        for (v, text) in [
            (1079.9999999999998, "1080"), (1080.0000004, "1080"), (-2.9999999, "-3"), (0.0000004, "0"), (-0.0000004, "0"),
            (1080 - Limits.writtenCoordinateStep, "1079.999999"), (1080 - 2 * Limits.writtenCoordinateStep, "1079.999998"),
            (12.5, "12.5"), (41, "41"),
        ] as [(Double, String)] {
            #expect(Self.written(v) == text, "\(v)")
            #expect(JSONValue.double(v).jsonText == text, "\(v)")
        }
    }

    /// Bit patterns drawn at random cover every exponent, subnormals and both signs.
    @Test func randomDoublesOverTheWholeRange() {
        let seed: UInt64 = 0x5EED_0003
        var random = SeededRandom(seed: seed)
        for _ in 0..<100_000 { Self.check(Double(bitPattern: random.nextUInt64()), "seed \(seed)") }
        // And magnitudes spread evenly over the decimal exponents, where the format switches.
        for _ in 0..<50_000 {
            let exponent = random.next(below: 617) - 308
            let mantissa = 1 + Double(random.nextUInt64() >> 11) / Double(1 << 53) * 9
            var v = mantissa
            for _ in 0..<abs(exponent) { v = exponent < 0 ? v / 10 : v * 10 }
            Self.check(random.next(below: 2) == 0 ? v : -v, "seed \(seed) exponent \(exponent)")
        }
    }
}
