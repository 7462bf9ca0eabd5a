/// The values of ``LocatorScanner``: arrays and inline tables (whose elements and keys are
/// recorded), strings and unquoted scalars (which are skipped, and vetted for the TOML parser).
///
/// Arrays and inline tables recurse; every level adds a part to the path, which
/// ``LocatorScanner/withinNesting(_:at:)`` checks before going deeper, so the recursion is at
/// most ``Limits/maximumLayoutNesting`` deep.
extension LocatorScanner {
    mutating func readValue(at path: TOMLPath) {
        guard let c = current else { return }
        switch c {
        case "\"":
            if peek(1) == "\"" && peek(2) == "\"" {
                skipMultilineString(quote: "\"")
            } else {
                _ = readBasicString()
            }
        case "'":
            if peek(1) == "'" && peek(2) == "'" {
                skipMultilineString(quote: "'")
            } else {
                _ = readLiteralString()
            }
        case "[":
            readArray(at: path)
        case "{":
            readInlineTable(at: path)
        default:
            readScalar()
        }
    }

    /// An array: each element is recorded under its index.
    mutating func readArray(at path: TOMLPath) {
        let opened = here
        advance()
        var element = 0
        while true {
            let lineBefore = line
            skipBlank()
            guard let c = current else {
                refuse(at: opened, kind: .syntax, "TOML syntax error: this array is not closed: expected `]` before the end of the file")
                return
            }
            // A key or a table header at the start of a line cannot be an element: the array was
            // left open above it (the TOML parser would blame the line it stopped at).
            if line > lineBefore, startsKeyOrHeader() {
                refuse(at: opened, kind: .syntax, "TOML syntax error: this array is not closed: expected `]` before line \(line)")
                return
            }
            if c == "]" {
                advance()
                return
            }
            if c == "," {
                advance()
                continue
            }
            if c == "}" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" {
                trap(c, in: "array", expected: "a value")
            }
            let elementPath = path.appending(index: element)
            guard withinNesting(elementPath, at: here) else { return }
            record(elementPath, here)
            let start = index
            readValue(at: elementPath)
            if index == start { advance() }
            element += 1
        }
    }

    /// Whether the text here is a key followed by `=` (`id = `, `match.kind =`) or a table header
    /// (`[view]`, `[[view]]`, `[a.b]`): neither is an array element. A bracketed word that is a
    /// value (`[true]`, `[inf]`) is an element.
    func startsKeyOrHeader() -> Bool {
        var offset = 0
        var brackets = 0
        while brackets < 2, peek(offset) == "[" {
            brackets += 1
            offset += 1
        }
        var word = ""
        while let c = peek(offset), ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-" || c == "." {
            word.unicodeScalars.append(c)
            offset += 1
        }
        guard let first = word.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_",
            !["true", "false", "inf", "nan"].contains(word)
        else { return false }
        while let c = peek(offset), c == " " || c == "\t" { offset += 1 }
        return brackets == 0 ? peek(offset) == "=" : peek(offset) == "]"
    }

    /// An inline table: its keys are recorded under the table's path.
    mutating func readInlineTable(at path: TOMLPath) {
        advance()
        while true {
            skipBlank()
            guard let c = current else { return }
            if c == "}" {
                advance()
                return
            }
            if c == "," {
                advance()
                continue
            }
            let start = index
            readKeyValue(in: path)
            if index == start { advance() }
        }
    }

    /// Numbers, booleans, dates and times: up to the next delimiter, vetted against the TOML
    /// grammar (toml++ aborts on some malformed ones).
    mutating func readScalar() {
        let start = here
        var token: [Unicode.Scalar] = []
        while let c = current, !Self.endsScalar(c) {
            token.append(c)
            advance()
        }
        while let last = token.last, last == " " || last == "\t" { token.removeLast() }
        guard !TOMLScalarSyntax.isValid(token) else { return }
        var text = ""
        text.unicodeScalars.append(contentsOf: token.prefix(40))
        let bareWord = !token.isEmpty && token.allSatisfy { Self.startsKey($0) && $0 != "\"" && $0 != "'" }
        trap(
            text, at: start, in: "value", expected: "a string, number, boolean, date or time",
            hint: bareWord ? "text needs quotes: \(quote(text))" : nil)
    }

    /// Whether `c` ends an unquoted value.
    static func endsScalar(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case ",", "]", "}", "\n", "\r", "#": true
        default: false
        }
    }

    /// Reads a "basic string" and returns its value with escapes decoded. An escaped NUL is refused
    /// (``refuse(at:kind:_:)``): the parser would end the string there without a word.
    mutating func readBasicString() -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = current, c != "\n" {
            advance()
            if c == "\"" { break }
            guard c == "\\" else {
                out.append(c)
                continue
            }
            guard let e = current else { break }
            advance()
            switch e {
            case "b": out.append("\u{08}")
            case "t": out.append("\t")
            case "n": out.append("\n")
            case "f": out.append("\u{0C}")
            case "r": out.append("\r")
            case "e": out.append("\u{1B}")
            case "u", "U", "x":
                guard let scalar = readHexEscape(e) else { continue }
                out.append(scalar)
            default: out.append(e)
            }
        }
        return String(out)
    }

    /// The scalar of a `\u`, `\U` or `\x` escape (`escape` is its letter, the digits follow), in a
    /// string of either kind. Too few digits are refused (``refuse(at:kind:_:)``), and so is a NUL:
    /// the parser hands strings over as C strings, and a NUL would silently cut one short. Nil
    /// for those, and for digits that name no scalar (the parser refuses those itself).
    mutating func readHexEscape(_ escape: Unicode.Scalar) -> Unicode.Scalar? {
        let digits = escape == "u" ? 4 : escape == "U" ? 8 : 2
        let position = here
        var value: UInt32 = 0
        var count = 0
        while count < digits, let d = current, let digit = UInt32(String(d), radix: 16) {
            value = value &* 16 &+ digit
            count += 1
            advance()
        }
        guard count == digits else {
            refuse(
                at: position, kind: .invalidValue,
                "an escape \\\(escape) with \(count) hexadecimal digit\(count == 1 ? "" : "s"): expected \(digits) (a backslash is written \\\\)")
            return nil
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        guard scalar.value != 0 else {
            refuse(at: position, kind: .invalidValue, "a NUL character (\\u0000) in a string: expected text without control characters")
            return nil
        }
        return scalar
    }

    /// Reads a 'literal string' and returns its value.
    mutating func readLiteralString() -> String {
        advance()
        var out = String.UnicodeScalarView()
        while let c = current, c != "\n" {
            advance()
            if c == "'" { break }
            out.append(c)
        }
        return String(out)
    }

    /// Skips a """multi-line""" or '''multi-line''' string, including up to two quotes that
    /// belong to the content right before the closing delimiter; its hexadecimal escapes are
    /// checked as a basic string's are.
    mutating func skipMultilineString(quote: Unicode.Scalar) {
        advance(3)
        while let c = current {
            if c == "\\" && quote == "\"" {
                advance()
                if let e = current, e == "u" || e == "U" || e == "x" {
                    advance()
                    _ = readHexEscape(e)
                } else {
                    advance()
                }
                continue
            }
            if c == quote && peek(1) == quote && peek(2) == quote {
                advance(3)
                var extra = 0
                while current == quote && extra < 2 {
                    advance()
                    extra += 1
                }
                return
            }
            advance()
        }
    }
}
