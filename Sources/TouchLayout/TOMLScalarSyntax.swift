/// The TOML 1.0 grammar of unquoted values: integers (decimal, `0x`, `0o`, `0b`, with `_`
/// between digits), floats (including `inf` and `nan`), booleans, and dates and times (with
/// range checks). Used to vet values before TOMLKit's parser sees them (see
/// ``SourceLocator/parserTrap``).
enum TOMLScalarSyntax {
    typealias Scalars = [Unicode.Scalar]

    static func isValid(_ s: Scalars) -> Bool {
        if s.isEmpty { return false }
        let text = String(String.UnicodeScalarView(s))
        if text == "true" || text == "false" { return true }
        var unsigned = text
        if unsigned.hasPrefix("+") || unsigned.hasPrefix("-") { unsigned.removeFirst() }
        if unsigned == "inf" || unsigned == "nan" { return true }
        return isInteger(s) || isFloat(s) || isDateTime(s)
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// One or more digits with single underscores between them, from `i`; moves `i` past them.
    static func digitRun(_ s: Scalars, _ i: inout Int, _ isDigit: (Unicode.Scalar) -> Bool) -> Bool {
        guard i < s.count, isDigit(s[i]) else { return false }
        i += 1
        while i < s.count {
            if isDigit(s[i]) {
                i += 1
            } else if s[i] == "_", i + 1 < s.count, isDigit(s[i + 1]) {
                i += 2
            } else {
                break
            }
        }
        return true
    }

    /// `0`, or a digit run without a leading zero.
    static func decimalInteger(_ s: Scalars, _ i: inout Int) -> Bool {
        guard i < s.count else { return false }
        if s[i] == "0" {
            i += 1
            return true
        }
        return digitRun(s, &i, isDigit)
    }

    static func isInteger(_ s: Scalars) -> Bool {
        if s.count > 2, s[0] == "0", "xob".unicodeScalars.contains(s[1]) {
            let isDigit: (Unicode.Scalar) -> Bool =
                switch s[1] {
                case "x": { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }
                case "o": { ("0"..."7").contains($0) }
                default: { $0 == "0" || $0 == "1" }
                }
            var i = 2
            return digitRun(s, &i, isDigit) && i == s.count
        }
        var i = 0
        if s[0] == "+" || s[0] == "-" { i = 1 }
        return decimalInteger(s, &i) && i == s.count
    }

    static func isFloat(_ s: Scalars) -> Bool {
        var i = 0
        if s[0] == "+" || s[0] == "-" { i = 1 }
        guard decimalInteger(s, &i) else { return false }
        var hasFraction = false
        var hasExponent = false
        if i < s.count, s[i] == "." {
            i += 1
            guard digitRun(s, &i, isDigit) else { return false }
            hasFraction = true
        }
        if i < s.count, s[i] == "e" || s[i] == "E" {
            i += 1
            if i < s.count, s[i] == "+" || s[i] == "-" { i += 1 }
            guard digitRun(s, &i, isDigit) else { return false }
            hasExponent = true
        }
        return (hasFraction || hasExponent) && i == s.count
    }

    /// `count` digits from `i` as a number.
    static func fixedDigits(_ s: Scalars, _ i: inout Int, _ count: Int) -> Int? {
        guard i + count <= s.count else { return nil }
        var value = 0
        for c in s[i..<(i + count)] {
            guard isDigit(c) else { return nil }
            value = value * 10 + Int(c.value - 48)
        }
        i += count
        return value
    }

    static func expect(_ s: Scalars, _ i: inout Int, _ c: Unicode.Scalar) -> Bool {
        guard i < s.count, s[i] == c else { return false }
        i += 1
        return true
    }

    static func date(_ s: Scalars, _ i: inout Int) -> Bool {
        guard let year = fixedDigits(s, &i, 4), expect(s, &i, "-"), let month = fixedDigits(s, &i, 2),
            expect(s, &i, "-"), let day = fixedDigits(s, &i, 2), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    static func time(_ s: Scalars, _ i: inout Int) -> Bool {
        guard let hour = fixedDigits(s, &i, 2), expect(s, &i, ":"), let minute = fixedDigits(s, &i, 2),
            expect(s, &i, ":"), let second = fixedDigits(s, &i, 2), hour < 24, minute < 60, second <= 60
        else { return false }
        if i < s.count, s[i] == "." {
            i += 1
            let start = i
            while i < s.count, isDigit(s[i]) { i += 1 }
            return i > start
        }
        return true
    }

    static func isDateTime(_ s: Scalars) -> Bool {
        var i = 0
        if s.count >= 3, s[2] == ":" { return time(s, &i) && i == s.count }
        guard date(s, &i) else { return false }
        if i == s.count { return true }
        guard "Tt ".unicodeScalars.contains(s[i]) else { return false }
        i += 1
        guard time(s, &i) else { return false }
        if i == s.count { return true }
        if s[i] == "Z" || s[i] == "z" { return i + 1 == s.count }
        guard s[i] == "+" || s[i] == "-" else { return false }
        i += 1
        guard let hours = fixedDigits(s, &i, 2), expect(s, &i, ":"), let minutes = fixedDigits(s, &i, 2),
            hours < 24, minutes < 60
        else { return false }
        return i == s.count
    }
}
