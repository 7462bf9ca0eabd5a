import Foundation
import Testing
import TouchCore

struct DecimalTextTests {
    @Test func fixedDecimalsAsPeopleReadThem() {
        #expect(DecimalText.fixed(1.5, decimals: 2) == "1.50")
        #expect(DecimalText.fixed(1080, decimals: 2) == "1080.00")
        #expect(DecimalText.fixed(0.004, decimals: 2) == "0.00")
        #expect(DecimalText.fixed(-0.004, decimals: 2) == "-0.00")
        #expect(DecimalText.fixed(-12.345678, decimals: 3) == "-12.346")
        #expect(DecimalText.fixed(0.999, decimals: 2) == "1.00")
        #expect(DecimalText.fixed(7.25, decimals: 0) == "7")
        #expect(DecimalText.fixed(1.0625, decimals: 3) == "1.063")  // a tie: away from zero
        #expect(DecimalText.fixed(3.5, decimals: 3, width: 10) == "     3.500")
        #expect(DecimalText.fixed(123_456_789.5, decimals: 3, width: 10) == "123456789.500")
        #expect(DecimalText.fixed(.infinity, decimals: 2) == "inf")
        #expect(DecimalText.fixed(.nan, decimals: 2) == "nan")
        #expect(DecimalText.fixed(1e20, decimals: 2) == "1e+20")
        #expect(DecimalText.fixed(2.5, decimals: -1) == "3")
        #expect(DecimalText.fixed(2.5, decimals: 30) == "2.500000000")
    }

    /// Against C's `%.Nf` on random values, but for the rare values whose scaled form lies within
    /// a hair of a tie, which C rounds by their exact binary value and the documented rule away
    /// from zero.
    @Test func fixedDecimalsAgreeWithPrintf() {
        var generator = SystemRandomNumberGenerator()
        var compared = 0
        for _ in 0..<20_000 {
            let decimals = Int.random(in: 0...4, using: &generator)
            let magnitude = [1.0, 100.0, 10_000.0, 1e9][Int.random(in: 0...3, using: &generator)]
            let value = Double.random(in: -magnitude...magnitude, using: &generator)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let scaled = abs(value) * scale
            if abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6 { continue }
            #expect(DecimalText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value) with \(decimals)")
            compared += 1
        }
        #expect(compared > 19_000)
    }

    @Test func spacesAndTabsTrimmed() {
        #expect("  a b\t".trimmingSpaces() == "a b")
        #expect("\tx\n".trimmingSpaces() == "x\n")  // line breaks are kept
        #expect(" \t ".trimmingSpaces() == "")
        #expect("".trimmingSpaces() == "")
        #expect("é ".dropFirst(0).trimmingSpaces() == "é")
    }
}
