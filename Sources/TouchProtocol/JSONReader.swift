import TouchCore

/// Why bytes are not a JSON text: what was wrong, and where (a byte offset from 0).
public struct JSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the byte where reading stopped.
    public var offset: Int
    /// What was wrong there: `duplicate key "x"`, `invalid UTF-8`.
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "at byte \(offset): \(reason)" }
}

/// Reads a JSON text (RFC 8259) into a ``JSONValue``: the requests touchd receives, and the
/// messages `touchctl` receives.
///
/// Strict: exactly the grammar (no `NaN`, `Infinity`, comments, trailing commas or leading zeros),
/// well-formed UTF-8 throughout, no control character inside a string, every `\u` surrogate in a
/// pair, no key twice in an object, nothing but whitespace after the value, no number that
/// overflows a `Double`. Numbers written without a fraction or exponent are integers, read exactly
/// as ``JSONValue/int(_:)`` (so a request's `id` comes back digit for digit), and refused when they
/// do not fit in `Int64` rather than rounded to a double; all others are ``JSONValue/double(_:)``. Arrays and objects may nest at most
/// `maximumDepth` deep, checked before each one is entered: reading never recurses deeper.
public struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth: Int

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The value `bytes` hold.
    /// - Throws: ``JSONReadError`` naming the first thing wrong and its byte offset.
    public static func read(_ bytes: [UInt8], maximumDepth: Int = Limits.maximumJSONDepth) throws(JSONReadError) -> JSONValue {
        if let offset = UTF8Text.firstInvalidOffset(in: bytes) { throw JSONReadError(offset: offset, reason: "invalid UTF-8") }
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("\(reader.found) after the value: expected the end of the text") }
        return value
    }

    /// The value `text` holds.
    public static func read(_ text: String, maximumDepth: Int = Limits.maximumJSONDepth) throws(JSONReadError) -> JSONValue {
        try read(Array(text.utf8), maximumDepth: maximumDepth)
    }

    // MARK: - Values

    /// The value at the current byte, inside `depth` arrays and objects.
    private mutating func value(depth: Int) throws(JSONReadError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value, found the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try checkDepth(depth)
            return try object(depth: depth + 1)
        case UInt8(ascii: "["):
            try checkDepth(depth)
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            if startsWith("NaN") || startsWith("Infinity") { throw error("NaN and Infinity are not JSON numbers") }
            throw error("expected a value, found \(found)")
        }
    }

    private func checkDepth(_ depth: Int) throws(JSONReadError) {
        guard depth < maximumDepth else { throw error("arrays and objects nested deeper than \(maximumDepth) levels") }
    }

    private mutating func object(depth: Int) throws(JSONReadError) -> JSONValue {
        index += 1  // {
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if skip(UInt8(ascii: "}")) { return .object([]) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key (a string), found \(found)") }
            let keyOffset = index
            let key = try string()
            guard keys.insert(key).inserted else { throw JSONReadError(offset: keyOffset, reason: "duplicate key \(Self.quoted(key))") }
            skipWhitespace()
            guard skip(UInt8(ascii: ":")) else { throw error("expected ':' after the key, found \(found)") }
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            if skip(UInt8(ascii: "}")) { return .object(members) }
            guard skip(UInt8(ascii: ",")) else { throw error("expected ',' or '}' in an object, found \(found)") }
            skipWhitespace()
        }
    }

    private mutating func array(depth: Int) throws(JSONReadError) -> JSONValue {
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if skip(UInt8(ascii: "]")) { return .array([]) }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            if skip(UInt8(ascii: "]")) { return .array(items) }
            guard skip(UInt8(ascii: ",")) else { throw error("expected ',' or ']' in an array, found \(found)") }
            skipWhitespace()
        }
    }

    private mutating func literal(_ text: String, _ value: JSONValue) throws(JSONReadError) -> JSONValue {
        guard startsWith(text) else { throw error("expected \(text), found \(found)") }
        index += text.utf8.count
        return value
    }

    // MARK: - Numbers

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(JSONReadError) -> JSONValue {
        let start = index
        _ = skip(UInt8(ascii: "-"))
        if startsWith("Infinity") { throw error("NaN and Infinity are not JSON numbers") }
        guard isDigit else { throw error("expected a digit, found \(found)") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit { throw error("a number does not start with 0 followed by digits") }
        } else {
            skipDigits()
        }
        var whole = true
        if skip(UInt8(ascii: ".")) {
            whole = false
            guard isDigit else { throw error("expected a digit after the decimal point, found \(found)") }
            skipDigits()
        }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            whole = false
            if !skip(UInt8(ascii: "+")) { _ = skip(UInt8(ascii: "-")) }
            guard isDigit else { throw error("expected a digit in the exponent, found \(found)") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole {
            guard let exact = Int64(text) else {
                throw JSONReadError(
                    offset: start,
                    reason: "the integer \(excerpt(text)) is outside -9223372036854775808 to 9223372036854775807: integers are read exactly or not at all")
            }
            return .int(exact)
        }
        guard let value = Double(text), value.isFinite else {
            throw JSONReadError(offset: start, reason: "the number \(excerpt(text)) is too large for a double")
        }
        return .double(value)
    }

    private var isDigit: Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }

    private mutating func skipDigits() {
        while isDigit { index += 1 }
    }

    // MARK: - Strings

    /// The string whose opening quote is at the current byte. The bytes are known to be UTF-8,
    /// so runs without escapes are taken as they are.
    private mutating func string() throws(JSONReadError) -> String {
        let opening = index
        index += 1
        var utf8: [UInt8] = []
        var run = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                utf8 += bytes[run..<index]
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                utf8 += bytes[run..<index]
                try escape(into: &utf8)
                run = index
                continue
            }
            guard b >= 0x20 else { throw error("control character \(Self.hex(b)) in a string: it must be escaped") }
            index += 1
        }
        throw JSONReadError(offset: opening, reason: "unterminated string")
    }

    /// Reads the escape at the current byte (a backslash) and appends what it stands for.
    private mutating func escape(into utf8: inout [UInt8]) throws(JSONReadError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw JSONReadError(offset: start, reason: "unterminated escape") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(letter)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): utf8 += try unicodeEscape(startingAt: start).utf8
        default: throw JSONReadError(offset: start, reason: "unknown escape \\\(Self.printable(letter))")
        }
    }

    /// The character of a `\uXXXX` escape whose four digits follow; a high surrogate must be
    /// followed at once by an escaped low one, and a low one never comes alone.
    private mutating func unicodeEscape(startingAt start: Int) throws(JSONReadError) -> String {
        let code = try hex4()
        var scalarValue = code
        if (0xD800...0xDBFF).contains(code) {
            guard startsWith("\\u") else { throw JSONReadError(offset: start, reason: "lone surrogate \(Self.escaped(code)): expected a low surrogate after it") }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONReadError(offset: start, reason: "lone surrogate \(Self.escaped(code)): \(Self.escaped(low)) is no low surrogate")
            }
            scalarValue = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw JSONReadError(offset: start, reason: "lone surrogate \(Self.escaped(code)): a low surrogate without a high one")
        }
        // Every value outside the surrogates, and every pair, is a scalar.
        guard let scalar = Unicode.Scalar(scalarValue) else { throw JSONReadError(offset: start, reason: "no character \(Self.escaped(code))") }
        return String(Character(scalar))
    }

    private mutating func hex4() throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else {
                throw error("expected four hexadecimal digits after \\u, found \(found)")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: - Bytes

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Steps over `byte` when it is the current one.
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func startsWith(_ text: String) -> Bool {
        let utf8 = text.utf8
        return bytes.count - index >= utf8.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    private func error(_ reason: String) -> JSONReadError { JSONReadError(offset: index, reason: reason) }

    /// What the current byte is, for a message: `'x'`, `byte 0x0a`, `the end of the text`.
    private var found: String { index < bytes.count ? Self.printable(bytes[index]) : "the end of the text" }

    private static func printable(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte \(hex(b))"
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = String(b, radix: 16)
        return "0x" + (digits.count < 2 ? "0" : "") + digits
    }

    private static func escaped(_ code: UInt32) -> String {
        let digits = String(code, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A key for a message: quoted, and cut short when long.
    private static func quoted(_ key: String) -> String { "\"\(excerpt(key))\"" }
}
