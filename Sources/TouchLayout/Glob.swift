/// Shell-style globs for `match.name`: `*` (any run), `?` (any one character), `[abc]`, `[a-z]`,
/// `[!a-z]` or `[^a-z]` (a class, `]` first is literal), and `\x` (a literal x).
/// Whole-string matching, case-sensitive, on Unicode scalars.
enum Glob {
    typealias Scalars = [Unicode.Scalar]

    /// Why `pattern` is not a valid glob, or nil when it is.
    static func problem(in pattern: String) -> String? {
        let p = Array(pattern.unicodeScalars)
        var i = 0
        while i < p.count {
            switch p[i] {
            case "\\":
                if i + 1 >= p.count { return "it ends in a lone backslash" }
                i += 2
            case "[":
                guard let end = classEnd(p, from: i) else {
                    return "the [ at character \(i + 1) is never closed by ]"
                }
                i = end
            default:
                i += 1
            }
        }
        return nil
    }

    static func matches(pattern p: Scalars, _ s: Scalars) -> Bool {
        var pi = 0
        var si = 0
        var starPattern = -1
        var starText = 0
        while si < s.count {
            if pi < p.count, p[pi] == "*" {
                starPattern = pi
                starText = si
                pi += 1
                continue
            }
            if pi < p.count, let next = matchOne(p, at: pi, s[si]) {
                pi = next
                si += 1
                continue
            }
            guard starPattern >= 0 else { return false }
            // Let the last star swallow one more character and retry from there.
            pi = starPattern + 1
            starText += 1
            si = starText
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// If the single-character token at `pi` matches `c`, the index after the token.
    private static func matchOne(_ p: Scalars, at pi: Int, _ c: Unicode.Scalar) -> Int? {
        switch p[pi] {
        case "?":
            return pi + 1
        case "\\" where pi + 1 < p.count:
            return p[pi + 1] == c ? pi + 2 : nil
        case "[":
            if let end = classEnd(p, from: pi) {
                return classMatches(p, from: pi, to: end, c) ? end : nil
            }
            return c == "[" ? pi + 1 : nil
        default:
            return p[pi] == c ? pi + 1 : nil
        }
    }

    /// The index after the `]` closing the class that opens at `start`, or nil when it is unclosed.
    private static func classEnd(_ p: Scalars, from start: Int) -> Int? {
        var i = start + 1
        if i < p.count, p[i] == "!" || p[i] == "^" { i += 1 }
        var first = true
        while i < p.count {
            if p[i] == "]" && !first { return i + 1 }
            if p[i] == "\\" { i += 1 }
            i += 1
            first = false
        }
        return nil
    }

    private static func classMatches(_ p: Scalars, from start: Int, to end: Int, _ c: Unicode.Scalar) -> Bool {
        var i = start + 1
        var negated = false
        if p[i] == "!" || p[i] == "^" {
            negated = true
            i += 1
        }
        var matched = false
        // The closing ] is at end - 1; a ] right after [ or [! is a member.
        while i < end - 1 {
            var low = p[i]
            if low == "\\", i + 1 < end - 1 {
                i += 1
                low = p[i]
            }
            i += 1
            if i + 1 < end - 1, p[i] == "-" {
                var high = p[i + 1]
                i += 2
                if high == "\\", i < end - 1 {
                    high = p[i]
                    i += 1
                }
                if low.value <= c.value && c.value <= high.value { matched = true }
            } else if low == c {
                matched = true
            }
        }
        return matched != negated
    }
}
