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
            let distance = editDistance(lowered, other)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Lower case without `_` and `-`, and without a leading `is` (`isHidden` → `hidden`).
    public static func normalize(_ word: String) -> String {
        var text = String(word.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        if text.hasPrefix("is") && text.count > 2 { text.removeFirst(2) }
        return text
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours each cost 1.
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], previousPrevious[j - 2] + 1)
                }
            }
            previousPrevious = previous
            previous = row
        }
        return previous[b.count]
    }
}
