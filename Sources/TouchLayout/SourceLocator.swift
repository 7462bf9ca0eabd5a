/// Text the TOML parser cannot be given (see ``SourceLocator/parserTrap``).
struct ParserTrap: Sendable {
    var position: SourcePosition
    /// The offending text (one character, or a whole value).
    var found: String
    /// What the parser was reading: "table header" or "array".
    var context: String
    var expected: String
    var hint: String? = nil
}

/// A 1-based line and column (in Unicode scalars) in the layout text.
struct SourcePosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// Finds where values are written in TOML text.
///
/// TOMLKit does not expose source positions, so this reads the (already parsed, hence valid) text
/// once more, following only its structure: table headers (`[a.b]`, `[[view]]`, counting the
/// elements of arrays of tables), dotted keys, inline tables and arrays (recording each element),
/// and skipping strings and comments. Each key is recorded under its full path, e.g.
/// `view[2].alpha` or `device[0].match.kind`; a header under the path of its table.
///
/// It never fails: on text it does not understand it moves on one character at a time, so at
/// worst a position is missing and the caller falls back to an enclosing one.
struct SourceLocator: Sendable {
    private(set) var positions: [TOMLPath: SourcePosition] = [:]
    /// The first spot where the TOML parser in TOMLKit 0.6.0 (toml++) would abort the process
    /// instead of reporting an error, so the loader reports it itself before parsing: a table
    /// header whose key does not start with a key character or a quote (`[=a]`, `[[[a]]]`), an
    /// array element that starts with `}` or a Unicode line separator (`[1, }]`), or an unquoted
    /// value that is no TOML 1.0 number, boolean, date or time (`07:3x`, `.5`, `yes`).
    private(set) var parserTrap: ParserTrap?

    init(text: String) {
        var scanner = LocatorScanner(scalars: Array(text.unicodeScalars))
        scanner.run()
        positions = scanner.positions
        parserTrap = scanner.parserTrap
    }

    /// Where `path` is written, or else where the nearest enclosing table or array is.
    func position(of path: TOMLPath) -> SourcePosition? {
        var path = path
        while true {
            if let position = positions[path] { return position }
            if path.components.isEmpty { return nil }
            path.components.removeLast()
        }
    }

    /// Where `path` itself is written, without falling back.
    func exactPosition(of path: TOMLPath) -> SourcePosition? { positions[path] }
}

private struct LocatorScanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    var positions: [TOMLPath: SourcePosition] = [:]
    /// How many elements each array of tables (by its concrete path) has so far.
    var arrayTableCounts: [TOMLPath: Int] = [:]
    var currentTable = TOMLPath.root
    var parserTrap: ParserTrap?

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var here: SourcePosition { SourcePosition(line: line, column: column) }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func advance() {
        guard index < scalars.count else { return }
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    mutating func advance(_ count: Int) {
        for _ in 0..<count { advance() }
    }

    mutating func record(_ path: TOMLPath, _ position: SourcePosition) {
        if positions[path] == nil { positions[path] = position }
    }

    mutating func skipSpaces() {
        while let c = current, c == " " || c == "\t" { advance() }
    }

    mutating func skipComment() {
        guard current == "#" else { return }
        while let c = current, c != "\n" { advance() }
    }

    /// Skips spaces, tabs, newlines and comments.
    mutating func skipBlank() {
        while let c = current {
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                advance()
            } else if c == "#" {
                skipComment()
            } else {
                return
            }
        }
    }

    mutating func skipRestOfLine() {
        while let c = current, c != "\n" { advance() }
    }

    mutating func run() {
        while true {
            skipBlank()
            guard let c = current else { return }
            let start = index
            if c == "[" {
                readHeader()
            } else {
                readKeyValue(in: currentTable)
            }
            if index == start { advance() }
            skipSpaces()
            skipComment()
        }
    }

    mutating func readHeader() {
        let position = here
        let isArray = peek(1) == "["
        advance(isArray ? 2 : 1)
        skipSpaces()
        if let c = current, !Self.startsKey(c), c != "]" {
            trap(c, in: "table header", expected: "a bare or quoted key")
        }
        let keys = readKey()
        skipRestOfLine()
        guard !keys.isEmpty else { return }
        var path = TOMLPath.root
        for (offset, (key, keyPosition)) in keys.enumerated() {
            path = path.appending(key)
            let isLast = offset == keys.count - 1
            if isLast && isArray {
                let count = arrayTableCounts[path, default: 0]
                arrayTableCounts[path] = count + 1
                record(path, position)
                path = path.appending(index: count)
                record(path, position)
            } else {
                if let count = arrayTableCounts[path] { path = path.appending(index: count - 1) }
                record(path, isLast ? position : keyPosition)
            }
        }
        currentTable = path
    }

    mutating func trap(_ found: Unicode.Scalar, in context: String, expected: String) {
        trap(String(Character(found)), at: here, in: context, expected: expected)
    }

    mutating func trap(
        _ found: String, at position: SourcePosition, in context: String, expected: String, hint: String? = nil
    ) {
        if parserTrap == nil {
            parserTrap = ParserTrap(position: position, found: found, context: context, expected: expected, hint: hint)
        }
    }

    /// Whether a key may start with `c`: a bare-key character (A-Z a-z 0-9 _ -) or a quote.
    static func startsKey(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
            || c == "\"" || c == "'"
    }

    /// Reads a possibly dotted key: its parts and where each starts.
    mutating func readKey() -> [(String, SourcePosition)] {
        var keys: [(String, SourcePosition)] = []
        while true {
            skipSpaces()
            let position = here
            let start = index
            guard let c = current else { break }
            var key = ""
            if c == "\"" {
                key = readBasicString()
            } else if c == "'" {
                key = readLiteralString()
            } else {
                while let c = current, !" \t\r\n=.[]\"'#,{}".unicodeScalars.contains(c) {
                    key.unicodeScalars.append(c)
                    advance()
                }
            }
            if index == start { break }
            keys.append((key, position))
            skipSpaces()
            guard current == "." else { break }
            advance()
        }
        return keys
    }

    mutating func readKeyValue(in table: TOMLPath) {
        let keys = readKey()
        guard !keys.isEmpty else { return }
        var path = table
        for (key, position) in keys {
            path = path.appending(key)
            record(path, position)
        }
        skipSpaces()
        guard current == "=" else { return }
        advance()
        skipSpaces()
        readValue(at: path)
    }

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
            advance()
            var element = 0
            while true {
                skipBlank()
                guard let c = current else { return }
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
                record(elementPath, here)
                let start = index
                readValue(at: elementPath)
                if index == start { advance() }
                element += 1
            }
        case "{":
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
        default:
            // Numbers, booleans, dates and times: up to the next delimiter.
            let start = here
            var token: [Unicode.Scalar] = []
            while let c = current, !",]}\n\r#".unicodeScalars.contains(c) {
                token.append(c)
                advance()
            }
            while let last = token.last, last == " " || last == "\t" { token.removeLast() }
            if !TOMLScalarSyntax.isValid(token) {
                var text = ""
                text.unicodeScalars.append(contentsOf: token.prefix(40))
                let bareWord = !token.isEmpty && token.allSatisfy { Self.startsKey($0) && $0 != "\"" && $0 != "'" }
                trap(
                    text, at: start, in: "value", expected: "a string, number, boolean, date or time",
                    hint: bareWord ? "text needs quotes: \"\(text)\"" : nil)
            }
        }
    }

    /// Reads a "basic string" and returns its value with escapes decoded.
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
                let digits = e == "u" ? 4 : e == "U" ? 8 : 2
                var value: UInt32 = 0
                for _ in 0..<digits {
                    guard let d = current, let digit = UInt32(String(d), radix: 16) else { break }
                    value = value &* 16 &+ digit
                    advance()
                }
                if let scalar = Unicode.Scalar(value) { out.append(scalar) }
            default: out.append(e)
            }
        }
        return String(out)
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
    /// belong to the content right before the closing delimiter.
    mutating func skipMultilineString(quote: Unicode.Scalar) {
        advance(3)
        while let c = current {
            if c == "\\" && quote == "\"" {
                advance(2)
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
