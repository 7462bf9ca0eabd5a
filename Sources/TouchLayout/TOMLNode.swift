import TouchCore

/// The path of a value inside a TOML document: keys and array indices, e.g. `view[2].frame[3]`.
struct TOMLPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component] = []

    static let root = TOMLPath()

    func appending(_ key: String) -> TOMLPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    func appending(index: Int) -> TOMLPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += TOMLPath.spell(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// A key as TOML would spell it: bare when it can be, else quoted.
    static func spell(_ key: String) -> String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
        }
        return bare ? key : quote(key)
    }
}

/// A parsed TOML value, detached from TOMLKit so the rest of the loader is plain Swift. (Not
/// `indirect`: tables and arrays hold their values in collections, so a scalar costs no box.)
enum TOMLNode: Sendable {
    case table([String: TOMLNode])
    case array([TOMLNode])
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)
    /// A date, time or date-time, in its TOML spelling.
    case dateTime(String, DateKind)

    enum DateKind: Sendable { case date, time, dateTime }

    /// Parses TOML text (see ``TOMLDocumentReader``).
    ///
    /// The text must have passed ``SourceLocator`` (which refuses nesting deeper than
    /// ``Limits/maximumLayoutNesting`` before toml++ recurses over it); the conversion stops
    /// at that depth all the same, leaving deeper values empty.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLNode] {
        try TOMLDocumentReader.parse(text)
    }

    /// The TOML type's name with an article, for messages: "a string", "an integer".
    var typeName: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a floating-point number"
        case .bool: "a boolean"
        case .dateTime(_, let type):
            switch type {
            case .date: "a date"
            case .time: "a time"
            default: "a date-time"
            }
        }
    }

    /// A short TOML rendering of the value for messages (long values are cut).
    var shortText: String {
        var text = ""
        render(into: &text, budget: 48)
        return text
    }

    /// What was found, for messages: `string "yes"`, `integer 3`, `a table`.
    var foundText: String {
        switch self {
        case .table: return "a table"
        case .array: return "an array " + shortText
        default: return typeName + " " + shortText
        }
    }

    private func render(into out: inout String, budget: Int) {
        guard out.count < budget else {
            if !out.hasSuffix("…") { out += "…" }
            return
        }
        switch self {
        case .string(let text):
            let quoted = quote(text)
            out += quoted.count > budget ? String(quoted.prefix(budget)) + "…\"" : quoted
        case .integer(let value):
            out += String(value)
        case .float(let value):
            out += value.isNaN ? "nan" : value.isInfinite ? (value < 0 ? "-inf" : "inf") : String(value)
        case .bool(let value):
            out += String(value)
        case .dateTime(let text, _):
            out += text
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.render(into: &out, budget: budget)
                if out.count >= budget { break }
            }
            out += "]"
        case .table(let entries):
            out += "{"
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { out += ", " }
                out += TOMLPath.spell(key) + " = "
                entries[key]?.render(into: &out, budget: budget)
                if out.count >= budget { break }
            }
            out += "}"
        }
    }
}
