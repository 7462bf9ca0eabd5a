/// One node of a composed YAML document (``YAMLComposer``): a scalar, a sequence or a mapping.
///
/// An alias has no node of its own: it is the node its anchor named. Every node carries the line
/// it starts on as the YAML reader counts lines (1-based; ``YAMLLines`` turns it into a line of
/// the text). Tags are not kept: a scalar is its text and whether it was written plain.
enum YAMLNode: Sendable, Equatable {
    case scalar(YAMLScalar)
    case sequence([YAMLNode], line: Int)
    /// The pairs in the order the text gives them; no two keys are the same (``YAMLComposer``
    /// refuses a mapping with duplicate keys).
    case mapping([YAMLPair], line: Int)

    /// The line the node starts on, as the YAML reader counts lines.
    var line: Int {
        switch self {
        case .scalar(let scalar): return scalar.line
        case .sequence(_, let line), .mapping(_, let line): return line
        }
    }

    /// A scalar's text, whatever its style; nil for a collection.
    var string: String? {
        guard case .scalar(let scalar) = self else { return nil }
        return scalar.text
    }

    /// A plain scalar's integer (``YAMLScalar/int``); nil for a quoted scalar or a collection.
    var int: Int? {
        guard case .scalar(let scalar) = self else { return nil }
        return scalar.int
    }

    /// A sequence's items; nil for any other node.
    var sequence: [YAMLNode]? {
        guard case .sequence(let items, _) = self else { return nil }
        return items
    }

    /// A mapping's pairs; nil for any other node.
    var mapping: [YAMLPair]? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs
    }
}

/// A scalar node: its text (the value after escapes and folding), whether it was written plain
/// (unquoted, not a block scalar) and its line as the YAML reader counts lines.
struct YAMLScalar: Sendable, Equatable {
    let text: String
    /// Only plain scalars are read as numbers: `"1"` and `'1'` are text.
    let isPlain: Bool
    let line: Int

    /// The scalar as a YAML 1.1 integer: decimal (`-42`, `+7`), `0x1f`, `0o17`, a leading `0` for
    /// octal (`017`), `0b101`, base 60 (`1:30` is 90), with `_` between digits ignored; nil when it
    /// is not plain, is not such an integer, or is out of `Int`'s range.
    var int: Int? {
        guard isPlain else { return nil }
        return YAMLInteger.value(of: text)
    }
}

/// A mapping's key and its value.
struct YAMLPair: Sendable, Equatable {
    let key: YAMLNode
    let value: YAMLNode
}

extension [YAMLPair] {
    /// The value whose key is the scalar `key` (plain or quoted), or nil.
    subscript(key: String) -> YAMLNode? {
        first { $0.key.string == key }?.value
    }
}

/// The integers of YAML 1.1's `int` type, read from a plain scalar's text.
enum YAMLInteger {
    /// `text` as an integer, or nil when it is not one or does not fit `Int`.
    static func value(of text: String) -> Int? {
        let digits = text.filter { $0 != "_" }
        if digits == "0" { return 0 }
        let negative = digits.hasPrefix("-")
        let body = digits.dropFirst(negative || digits.hasPrefix("+") ? 1 : 0)
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where body.hasPrefix(prefix) {
            return Int(sign + body.dropFirst(prefix.count), radix: radix)
        }
        if body.contains(":") { return sexagesimal(body, negative: negative) }
        return Int(digits, radix: 10)
    }

    /// Base 60: `1:30` is 90, `1:00:00` is 3600; each part is decimal. Nil past `Int`'s range.
    private static func sexagesimal(_ body: Substring, negative: Bool) -> Int? {
        var total = 0
        for part in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int(part, radix: 10) else { return nil }
            let (shifted, overflowShift) = total.multipliedReportingOverflow(by: 60)
            let (sum, overflowSum) = shifted.addingReportingOverflow(digit)
            guard !overflowShift, !overflowSum else { return nil }
            total = sum
        }
        return negative ? (total == Int.min ? nil : -total) : total
    }
}
