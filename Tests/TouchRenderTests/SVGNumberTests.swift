import Testing
import TouchCore
@testable import TouchRender

/// Pictures write numbers without `Double.description`, exactly as `formatNumber` does.
@Suite(.timeLimit(.minutes(10))) struct SVGNumberTests {
    static let edges: [Double] = [
        0, -0.0, 1, -1, 0.5, -0.5, 0.0004, -0.0004, 0.0005, -0.0005, 0.001, 12.0004, -12.0004, 12.3456, 13.333333, 0.1 + 0.2,
        999_999.9995, 1_000_000, -1_000_000, 123_456_789.123, 999_999_999_999.999, 1e12, -1e12, 1e12 + 0.5, 1e15, 1e16, 1.5e300,
        .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 4_294_967_296.5,
    ]

    @Test func edgeCasesAreWrittenAsFormatNumberWritesThem() {
        for value in Self.edges {
            #expect(svgNumber(value) == formatNumber(value), "\(value)")
            var bytes: [UInt8] = []
            bytes.appendNumber(value)
            #expect(String(decoding: bytes, as: UTF8.self) == formatNumber(value), "\(value)")
        }
        #expect(svgNumber(-0.0004) == "0" && svgNumber(12.0004) == "12" && svgNumber(-0.0) == "0", "one form: a value that rounds to a whole number is written as one")
    }

    @Test(arguments: 0..<8)
    func randomNumbersOfEveryMagnitudeAreWrittenAsFormatNumberWritesThem(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -6...16, using: &r)
            var value = (Bool.random(using: &r) ? -1 : 1) * Double.random(in: 1...10, using: &r) * pow10(magnitude)
            // Thousandths and halves of them, where rounding decides.
            if Bool.random(using: &r) { value = (value * 2000).rounded() / 2000 }
            #expect(svgNumber(value) == formatNumber(value), "seed \(seed): \(value)")
        }
    }

    func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        let whole = Int(rounding: exponent, .down, clampedTo: -20...20)
        for _ in 0..<abs(whole) { result = whole < 0 ? result / 10 : result * 10 }
        return result
    }
}
