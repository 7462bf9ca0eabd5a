import Testing
import TouchCore
@testable import TouchProtocol

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

    /// Whether `back` is what the format promises for `v`: exact for whole values below 2^53 and
    /// every value from 2^53 on, else within half a millionth (plus the last bits of `v`).
    static func isFaithful(_ back: Double, to v: Double) -> Bool {
        if abs(v) >= 9_007_199_254_740_992 || v == v.rounded() { return back == v }
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

/// The writer's digits against the standard library's text, where touchd's numbers are: whole
/// numbers of every length, and coordinates, radii and timestamps with up to six decimals; and a
/// repeated number's kept text against the number written again.
@Suite struct JSONNumberWritingTests {
    static func writtenInt(_ v: Int64) -> String {
        var w = JSONWriter()
        w.int(v)
        return w.text
    }

    @Test func wholeNumbersOfEveryLength() {
        var values: [Int64] = [0, 1, 9, 10, 99, 100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, power * 9 / 10, power / 2 + 7]
        }
        values += (0..<20_000).map { Int64($0) }
        var random = SeededRandom(seed: 0x5EED_0041)
        for digits in 1...19 {
            for _ in 0..<2_000 {
                let bound = digits == 19 ? UInt64(Int64.max) : (1...digits).reduce(UInt64(1)) { r, _ in r * 10 }
                values.append(Int64(random.nextUInt64() % bound))
            }
        }
        values += values.map { $0 == .min ? $0 : -$0 }
        for v in values {
            #expect(Self.writtenInt(v) == String(v), "\(v)")
        }
    }

    /// Values below 2^32 with one to six decimals, written as ``JSONValue``'s format (Swift's own
    /// shortest text of the rounded value) writes them, each in a longer text too.
    @Test func decimalsBelowTwoToTheThirtyTwo() {
        var random = SeededRandom(seed: 0x5EED_0042)
        for _ in 0..<100_000 {
            let whole = Double(random.nextUInt64() % (1 << UInt64(random.next(below: 33))))
            let places = 1 + random.next(below: 6)
            let scale = [10.0, 100, 1_000, 10_000, 100_000, 1_000_000][places - 1]
            let fraction = Double(random.nextUInt64() % UInt64(scale)) / scale
            let v = random.next(below: 2) == 0 ? whole + fraction : -(whole + fraction)
            var w = JSONWriter()
            w.literal("[")
            w.double(v)
            w.literal(",")
            w.double(v / 3)
            w.literal("]")
            let expected = "[\(JSONValue.double(v).jsonText),\(JSONValue.double(v / 3).jsonText)]"
            #expect(w.text == expected, "\(v)")
        }
    }
}

extension JSONNumberWritingTests {
    /// Lists of numbers, most repeating the one before (as a touch's force and radius do from
    /// sample to sample), written keeping the last one's text, are the lists written number by
    /// number: texts of every length (longer than the 16 bytes kept too), `null`, -0 and 0.
    @Test func aRepeatedNumberIsWrittenAsItWasFirst() {
        let values: [Double] = [
            1.51634, 3.6, 0, -0.0, 2.2, 6.666667, 1.7976931348623157e308, .nan, -.infinity, 1e-7, -4_294_967_296.5,
            123_456_789.123456, 0.25, 1_079.999999,
        ]
        var random = SeededRandom(seed: 0x5EED_0043)
        for _ in 0..<2_000 {
            var list: [Double] = []
            var value = values[random.next(below: values.count)]
            for _ in 0..<(1 + random.next(below: 20)) {
                if random.next(below: 4) == 0 { value = values[random.next(below: values.count)] }
                list.append(value)
            }
            var kept = JSONWriter()
            var plain = JSONWriter()
            var last = JSONWriter.WrittenNumber()
            for (i, v) in list.enumerated() {
                if i > 0 {
                    kept.literal(",")
                    plain.literal(",")
                }
                kept.double(v, reusing: &last)
                plain.double(v)
            }
            #expect(kept.text == plain.text, "\(list)")
        }
    }
}

extension JSONNumberWritingTests {
    /// A merged sample written at once (five numbers in one reservation, force and radius kept) is
    /// the array of the five written one by one, whatever the numbers: touchd's own, and ones not
    /// written from integers (not finite, from 2^32 on, below a thousandth), in any place.
    @Test func aSampleIsItsFiveNumbersInAnArray() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 4_294_967_296.5, 1e300, 1e-7, -0.0, 123_456_789_012.25]
        var random = SeededRandom(seed: 0x5EED_0044)
        func ordinary() -> Double { Double(random.nextUInt64() % 40_000_000) / 10_000 }
        for _ in 0..<3_000 {
            var whole = JSONWriter()
            var oneByOne = JSONWriter()
            var kept = (force: JSONWriter.WrittenNumber(), radius: JSONWriter.WrittenNumber())
            var force = ordinary()
            var radius = ordinary()
            for k in 0..<(1 + random.next(below: 17)) {
                var numbers = [ordinary(), ordinary(), ordinary()]
                if random.next(below: 4) == 0 { force = random.next(below: 3) == 0 ? odd[random.next(below: odd.count)] : ordinary() }
                if random.next(below: 6) == 0 { radius = random.next(below: 3) == 0 ? odd[random.next(below: odd.count)] : ordinary() }
                if random.next(below: 8) == 0 { numbers[random.next(below: 3)] = odd[random.next(below: odd.count)] }
                numbers += [force, radius]
                if k > 0 {
                    whole.literal(",")
                    oneByOne.literal(",")
                }
                whole.sample(time: numbers[0], x: numbers[1], y: numbers[2], force: force, radius: radius, kept: &kept)
                oneByOne.array { w in
                    for n in numbers {
                        w.element()
                        w.double(n)
                    }
                }
            }
            #expect(whole.text == oneByOne.text)
        }
    }
}

extension JSONNumberWritingTests {
    /// A point written at once is `{"x":..,"y":..}` with its two numbers written one by one,
    /// whatever they are (numbers not written from integers in either place).
    @Test func aPointIsItsTwoNumbersInAnObject() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 4_294_967_296.5, 1e300, 1e-7, -0.0, -1_079.999999]
        var random = SeededRandom(seed: 0x5EED_0045)
        for _ in 0..<20_000 {
            func number() -> Double {
                random.next(below: 6) == 0
                    ? odd[random.next(below: odd.count)] : (Double(random.nextUInt64() % 200_000_000) - 100_000_000) / 10_000
            }
            let (x, y) = (number(), number())
            var whole = JSONWriter()
            whole.point(x: x, y: y)
            var oneByOne = JSONWriter()
            oneByOne.object { w in
                w.member("x")
                w.double(x)
                w.member("y")
                w.double(y)
            }
            #expect(whole.text == oneByOne.text, "\(x), \(y)")
        }
    }
}

extension JSONNumberWritingTests {
    /// A point written with the kept text of the last (a touch's place before, most often the place
    /// its last message wrote) is the point written anew, whether its numbers repeat or not.
    @Test func aPointReusingKeptTextIsThePointWrittenAnew() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 4_294_967_296.5, 1e300, 1e-7, -0.0, -1_079.999999]
        var random = SeededRandom(seed: 0x5EED_0046)
        func number() -> Double {
            random.next(below: 6) == 0 ? odd[random.next(below: odd.count)] : (Double(random.nextUInt64() % 200_000_000) - 100_000_000) / 10_000
        }
        for _ in 0..<2_000 {
            var kept: (x: JSONWriter.WrittenNumber, y: JSONWriter.WrittenNumber) = (.init(), .init())
            var reusing = JSONWriter()
            var anew = JSONWriter()
            var (x, y) = (number(), number())
            for k in 0..<(1 + random.next(below: 12)) {
                // Each coordinate repeats or changes, as a finger's do from frame to frame.
                if random.next(below: 3) == 0 { x = number() }
                if random.next(below: 3) == 0 { y = number() }
                if k > 0 {
                    reusing.literal(",")
                    anew.literal(",")
                }
                reusing.point(x: x, y: y, reusing: &kept)
                anew.point(x: x, y: y)
            }
            #expect(reusing.text == anew.text)
        }
    }
}
