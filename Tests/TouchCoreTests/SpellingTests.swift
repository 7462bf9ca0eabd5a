import Testing
import TouchCore

/// The suggestion's edit distance, computed in a band around the diagonal, against the whole table.
@Suite(.timeLimit(.minutes(10))) struct SpellingTests {
    /// The whole optimal-string-alignment table: the reference the band must agree with.
    static func fullDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        guard !a.isEmpty, !b.isEmpty else { return d[a.count][b.count] }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    @Test func theBandAgreesWithTheWholeTable() {
        // Words of a three-letter alphabet make many near neighbours; a fixed generator keeps the
        // cases the same from run to run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let letters: [Unicode.Scalar] = ["a", "b", "c"]
        func word() -> [Unicode.Scalar] { (0..<next(9)).map { _ in letters[next(3)] } }
        for _ in 0..<4000 {
            let (a, b) = (word(), word())
            let full = Self.fullDistance(a, b)
            for limit in 0...4 {
                #expect(Spelling.editDistance(a, b, atMost: limit) == (full <= limit ? full : nil), "\(a) \(b) limit \(limit)")
            }
        }
    }

    @Test func transpositionsAndEdgesCountOne() {
        func d(_ a: String, _ b: String, _ limit: Int) -> Int? { Spelling.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: limit) }
        #expect(d("ab", "ba", 1) == 1)
        #expect(d("", "abc", 3) == 3)
        #expect(d("", "abc", 2) == nil)
        #expect(d("hidden", "hiden", 2) == 1)
        #expect(Spelling.closest(to: "hiden", among: ["hidden", "alpha"]) == "hidden")
    }
}
