/// The closest spelling among known words, for "did you mean" in messages about unknown keys,
/// values and ids, in the layout and in requests alike.
public enum Spelling {
    /// The candidate closest to `word`, when one is close enough to be a likely typo, or when
    /// `aliases` maps `word` (or its normalised form: lower case, no `_`, `-` or leading `is`)
    /// to a candidate. UIKit spellings such as `userInteractionEnabled` come in through `aliases`.
    public static func closest(to word: String, among candidates: [String], aliases: [String: String] = [:]) -> String? {
        if let alias = aliases[word] { return alias }
        let normalizedWord = normalize(word)
        for (alias, target) in aliases where normalize(alias) == normalizedWord { return target }
        if let same = candidates.first(where: { normalize($0) == normalizedWord }) { return same }
        let lowered = Array(word.lowercased().unicodeScalars)
        let limit = lowered.count <= 3 ? 1 : lowered.count <= 6 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            // Lengths further apart than the limit cannot be close: skip the quadratic distance.
            guard abs(other.count - lowered.count) <= limit else { continue }
            if let distance = editDistance(lowered, other, atMost: limit), distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Lower case without `_` and `-`, and without a leading `is` (`isHidden` → `hidden`).
    public static func normalize(_ word: String) -> String {
        var text = String(word.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        if text.hasPrefix("is") && text.count > 2 { text.removeFirst(2) }
        return text
    }

    /// The optimal-string-alignment distance (insertions, deletions, substitutions and
    /// transpositions of neighbours each cost 1) when it is at most `limit`, else nil. Only the
    /// cells within `limit` of the diagonal are computed, and the work stops at the first row
    /// whose every cell exceeds it: a suggestion among thousands of long ids costs little.
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let far = limit + 1
        var previousPrevious = [Int](repeating: far, count: b.count + 1)
        var previous = (0...b.count).map { min($0, far) }
        var row = [Int](repeating: far, count: b.count + 1)
        for i in 1...a.count {
            // The band: `low...high` (never empty, the lengths being at most `limit` apart), with
            // the cells on either side of it "far" for the next rows to read.
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            row[0] = min(i, far)
            row[low - 1] = low == 1 ? row[0] : far
            var rowMinimum = row[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var cell = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cell = min(cell, previousPrevious[j - 2] + 1) }
                row[j] = min(cell, far)
                rowMinimum = min(rowMinimum, row[j])
            }
            if high < b.count { row[high + 1] = far }
            if rowMinimum > limit { return nil }
            (previousPrevious, previous, row) = (previous, row, previousPrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
