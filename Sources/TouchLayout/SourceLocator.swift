import TouchCore

/// A 1-based line and column (in Unicode scalars) in the layout text.
struct SourcePosition: Hashable, Sendable {
    var line: Int
    var column: Int
}

/// Text the TOML parser must not be given, found before it is: where, what sort of problem, and
/// the message that says what was expected.
struct SourceRefusal: Sendable {
    var position: SourcePosition
    var kind: LayoutIssue.Kind
    var message: String
}

/// Finds where values are written in TOML text, and refuses text the TOML parser must not see.
///
/// TOMLKit does not expose source positions, so this reads the text once before it is parsed,
/// following only its structure: table headers (`[a.b]`, `[[view]]`, counting the elements of
/// arrays of tables), dotted keys, inline tables and arrays (recording each element), and skipping
/// strings and comments. Each key is recorded under its full path, e.g. `view[2].alpha` or
/// `device[0].match.kind`; a header under the path of its table.
///
/// It stops at the first place where the text breaks a budget that must hold before any parser
/// recurses over it or builds a tree of it: a value nested deeper than
/// ``Limits/maximumLayoutNesting`` (counted as the parts of its key path), a key longer than
/// ``Limits/maximumIdentifierBytes``, more values than ``Limits/maximumLayoutValues``. Its own
/// recursion (into arrays and inline tables) therefore never goes deeper than that bound, and it
/// reads the text only through bounds-checked accessors. Otherwise it never fails: on text it does
/// not understand it moves on one character at a time, so at worst a position is missing and the
/// caller falls back to an enclosing one.
struct SourceLocator: Sendable {
    private(set) var positions: [TOMLPath: SourcePosition] = [:]
    /// The first place the TOML parser must not be given, if any: a budget broken (see above), or
    /// a spot where the parser in TOMLKit 0.6.0 (toml++) would abort the process instead of
    /// reporting an error: a table header whose key does not start with a key character or a
    /// quote (`[=a]`, `[[[a]]]`), an array element that starts with `}` or a Unicode line
    /// separator (`[1, }]`), or an unquoted value that is no TOML 1.0 number, boolean, date or
    /// time (`07:3x`, `.5`, `yes`).
    private(set) var refusal: SourceRefusal?

    init(text: String) {
        var scanner = LocatorScanner(scalars: Array(text.unicodeScalars))
        scanner.run()
        positions = scanner.positions
        refusal = scanner.refusal
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

/// The reading behind ``SourceLocator``: a cursor over the text's scalars, the positions found so
/// far and the first refusal.
struct LocatorScanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1
    var positions: [TOMLPath: SourcePosition] = [:]
    /// How many elements each array of tables (by its concrete path) has so far.
    var arrayTableCounts: [TOMLPath: Int] = [:]
    var currentTable = TOMLPath.root
    var refusal: SourceRefusal?

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

    /// Records where `path` is written (the first time), refusing the text once it holds more
    /// values than ``Limits/maximumLayoutValues``.
    mutating func record(_ path: TOMLPath, _ position: SourcePosition) {
        if let seen = positions.index(forKey: path) {
            refuseOtherSpelling(of: positions[seen], as: path, at: position)
            return
        }
        guard positions.count < Limits.maximumLayoutValues else {
            refuse(
                at: position, kind: .exceedsLimit,
                "more than \(Limits.maximumLayoutValues) keys and array elements: expected at most \(Limits.maximumLayoutValues) in a layout")
            return
        }
        positions[path] = position
    }

    /// Keys that are the same Unicode text written with other characters (`é` composed, or `e` and
    /// a combining accent) are one key to the layout and two to the parser, which keeps both: one
    /// would be lost without a word. Refused where the second is written.
    private mutating func refuseOtherSpelling(of first: (key: TOMLPath, value: SourcePosition), as path: TOMLPath, at position: SourcePosition) {
        guard case .key(let earlier)? = first.key.components.last, case .key(let key)? = path.components.last,
            !earlier.unicodeScalars.elementsEqual(key.unicodeScalars)
        else { return }
        refuse(
            at: position, kind: .syntax,
            "the key \(quote(key)) is the key \(quote(earlier)) of line \(first.value.line) written with other Unicode characters "
                + "(an accent composed, or combining): expected one spelling of a key")
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
            guard withinNesting(path, at: keyPosition) else { return }
        }
        currentTable = path
    }

    // MARK: refusals

    /// Whether `path` is within the nesting budget; when it is not, refuses the text at
    /// `position` and stops the scan (so no caller recurses any deeper).
    mutating func withinNesting(_ path: TOMLPath, at position: SourcePosition) -> Bool {
        guard path.components.count > Limits.maximumLayoutNesting else { return true }
        refuse(
            at: position, kind: .exceedsLimit,
            "nested \(path.components.count) levels deep: expected at most \(Limits.maximumLayoutNesting) levels of"
                + " tables, arrays and dotted keys")
        return false
    }

    /// Records the first refusal and stops the scan: nothing after it is read.
    mutating func refuse(at position: SourcePosition, kind: LayoutIssue.Kind, _ message: String) {
        if refusal == nil { refusal = SourceRefusal(position: position, kind: kind, message: message) }
        index = scalars.count
    }

    mutating func trap(_ found: Unicode.Scalar, in context: String, expected: String) {
        trap(String(Character(found)), at: here, in: context, expected: expected)
    }

    /// Records text on which the TOML parser would abort the process, as a syntax error. The scan
    /// goes on (for positions); only the first such spot is kept.
    mutating func trap(
        _ found: String, at position: SourcePosition, in context: String, expected: String, hint: String? = nil
    ) {
        guard refusal == nil else { return }
        let message = "TOML syntax error: Error while parsing \(context): expected \(expected), saw \(quote(found))"
            + (hint.map { "; \($0)" } ?? "")
        refusal = SourceRefusal(position: position, kind: .syntax, message: message)
    }

    // MARK: keys

    /// Whether a key may start with `c`: a bare-key character (A-Z a-z 0-9 _ -) or a quote.
    static func startsKey(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
            || c == "\"" || c == "'"
    }

    /// Whether `c` ends a bare key (or whatever stands in its place in text that is not TOML).
    static func endsBareKey(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "\r", "\n", "=", ".", "[", "]", "\"", "'", "#", ",", "{", "}": true
        default: false
        }
    }

    /// Reads a possibly dotted key: its parts and where each starts. A part longer than
    /// ``Limits/maximumIdentifierBytes`` is refused (and ends the scan).
    mutating func readKey() -> [(String, SourcePosition)] {
        var keys: [(String, SourcePosition)] = []
        while keys.count <= Limits.maximumLayoutNesting {
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
                while let c = current, !Self.endsBareKey(c) {
                    key.unicodeScalars.append(c)
                    advance()
                }
            }
            if index == start { break }
            guard key.utf8.count <= Limits.maximumIdentifierBytes else {
                refuse(
                    at: position, kind: .exceedsLimit,
                    "a key of \(key.utf8.count) bytes: expected keys of at most \(Limits.maximumIdentifierBytes) bytes")
                return []
            }
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
            guard withinNesting(path, at: position) else { return }
            record(path, position)
        }
        skipSpaces()
        guard current == "=" else { return }
        advance()
        skipSpaces()
        readValue(at: path)
    }
}
