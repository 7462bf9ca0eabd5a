/// A handler's `payload`: any TOML value, kept as a JSON-like value.
///
/// TOML dates and times become strings in their TOML spelling (`"2024-05-01"`,
/// `"07:30:00"`, `"2024-05-01T07:30:00Z"`). Doubles are always finite (the loader rejects
/// `inf` and `nan`, which JSON cannot carry). Tables render with their keys in ascending
/// `String` order, so the JSON text of a payload is deterministic.
public enum PayloadValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case array([PayloadValue])
    case table([String: PayloadValue])

    /// Compact JSON: no spaces, table keys sorted. A non-finite double (only possible in values
    /// built by hand) renders as `null`.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact JSON form of this value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .string(let text):
            PayloadValue.writeJSONString(text, to: &out)
        case .integer(let value):
            out += String(value)
        case .double(let value):
            // Swift's shortest round-tripping spelling always has a "." or an exponent, so the
            // value reads back as a double, never as an integer.
            out += value.isFinite ? String(value) : "null"
        case .bool(let value):
            out += value ? "true" : "false"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .table(let entries):
            out += "{"
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                PayloadValue.writeJSONString(key, to: &out)
                out += ":"
                entries[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    /// The entries of a table in key order; empty for other values.
    public var sortedEntries: [(key: String, value: PayloadValue)] {
        guard case .table(let entries) = self else { return [] }
        return entries.keys.sorted().compactMap { key in entries[key].map { (key, $0) } }
    }

    /// The value of `key` when this is a table.
    public subscript(key: String) -> PayloadValue? {
        guard case .table(let entries) = self else { return nil }
        return entries[key]
    }

    static func writeJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// Why a JSON text is no ``PayloadValue``.
public struct PayloadJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset (in Unicode scalars) where reading stopped.
    public var offset: Int
    public var reason: String
    public var description: String { "invalid payload JSON at character \(offset + 1): \(reason)" }
}

extension PayloadValue {
    /// Reads JSON text back into a payload value: the inverse of ``jsonText``.
    ///
    /// Numbers without a fraction or exponent that fit in 64 bits are integers, all others
    /// doubles. `null` is rejected (TOML has no null), as is nesting deeper than 512 levels.
    public init(jsonText: String) throws(PayloadJSONError) {
        var reader = JSONReader(scalars: Array(jsonText.unicodeScalars))
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.scalars.count else { throw reader.error("unexpected text after the value") }
        self = value
    }
}

private struct JSONReader {
    let scalars: [Unicode.Scalar]
    var index = 0

    func error(_ reason: String) -> PayloadJSONError { PayloadJSONError(offset: index, reason: reason) }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
    }

    mutating func expect(_ word: String) throws(PayloadJSONError) {
        for scalar in word.unicodeScalars {
            guard current == scalar else { throw error("expected \(word)") }
            index += 1
        }
    }

    mutating func readValue(depth: Int) throws(PayloadJSONError) -> PayloadValue {
        guard depth < 512 else { throw error("nested deeper than 512 levels") }
        guard let c = current else { throw error("expected a value, found the end of the text") }
        switch c {
        case "{":
            index += 1
            var entries: [String: PayloadValue] = [:]
            skipWhitespace()
            if current == "}" {
                index += 1
                return .table(entries)
            }
            while true {
                skipWhitespace()
                guard current == "\"" else { throw error("expected a string key") }
                let key = try readString()
                skipWhitespace()
                try expect(":")
                skipWhitespace()
                entries[key] = try readValue(depth: depth + 1)
                skipWhitespace()
                if current == "," {
                    index += 1
                    continue
                }
                try expect("}")
                return .table(entries)
            }
        case "[":
            index += 1
            var items: [PayloadValue] = []
            skipWhitespace()
            if current == "]" {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try readValue(depth: depth + 1))
                skipWhitespace()
                if current == "," {
                    index += 1
                    continue
                }
                try expect("]")
                return .array(items)
            }
        case "\"":
            return .string(try readString())
        case "t":
            try expect("true")
            return .bool(true)
        case "f":
            try expect("false")
            return .bool(false)
        case "n":
            throw error("null has no payload value (TOML has no null)")
        default:
            return try readNumber()
        }
    }

    mutating func readString() throws(PayloadJSONError) -> String {
        index += 1  // the opening quote
        var out = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("unterminated string") }
            index += 1
            switch c {
            case "\"":
                return String(out)
            case "\\":
                guard let e = current else { throw error("unterminated escape") }
                index += 1
                switch e {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    var code = try readHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A high surrogate must be followed by an escaped low one.
                        try expect("\\u")
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate") }
                    out.append(scalar)
                default:
                    throw error("unknown escape \\\(e)")
                }
            default:
                guard c.value >= 0x20 else { throw error("control character in a string") }
                out.append(c)
            }
        }
    }

    mutating func readHex4() throws(PayloadJSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let digit = Int(String(c), radix: 16) else {
                throw error("expected four hexadecimal digits")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func readNumber() throws(PayloadJSONError) -> PayloadValue {
        let start = index
        var isInteger = true
        if current == "-" { index += 1 }
        let digitsStart = index
        while let c = current, ("0"..."9").contains(c) { index += 1 }
        guard index > digitsStart else { throw error("expected a value") }
        if current == "." {
            isInteger = false
            index += 1
            let fractionStart = index
            while let c = current, ("0"..."9").contains(c) { index += 1 }
            guard index > fractionStart else { throw error("expected digits after the decimal point") }
        }
        if current == "e" || current == "E" {
            isInteger = false
            index += 1
            if current == "+" || current == "-" { index += 1 }
            let exponentStart = index
            while let c = current, ("0"..."9").contains(c) { index += 1 }
            guard index > exponentStart else { throw error("expected digits in the exponent") }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<index])
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range") }
        return .double(value)
    }
}
