import TOMLKit
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

    /// Parses TOML text. Throws TOMLKit's `TOMLParseError`.
    ///
    /// The text must have passed ``SourceLocator`` (which refuses nesting deeper than
    /// ``Limits/maximumLayoutNesting`` before TOMLKit recurses over it); the conversion stops
    /// at that depth all the same, leaving deeper values empty.
    static func parse(_ text: String) throws -> [String: TOMLNode] {
        let table = try TOMLTable(string: text)
        return convertTable(table, depth: 1)
    }

    private static func convertTable(_ table: TOMLTable, depth: Int) -> [String: TOMLNode] {
        var result: [String: TOMLNode] = [:]
        guard depth <= Limits.maximumLayoutNesting else { return result }
        for key in table.keys {
            if let value = table[key] { result[key] = convert(value, depth: depth) }
        }
        return result
    }

    private static func convert(_ value: TOMLValueConvertible, depth: Int) -> TOMLNode {
        switch value.type {
        case .table:
            return .table(value.table.map { convertTable($0, depth: depth + 1) } ?? [:])
        case .array:
            guard let array = value.array, depth < Limits.maximumLayoutNesting else { return .array([]) }
            return .array((0..<array.count).map { convert(array[$0], depth: depth + 1) })
        case .string:
            return .string(value.string ?? "")
        case .int:
            return .integer(Int64(value.int ?? 0))
        case .double:
            return .float(value.double ?? 0)
        case .bool:
            return .bool(value.bool ?? false)
        case .date:
            return .dateTime(value.date.map(spell) ?? "", .date)
        case .time:
            return .dateTime(value.time.map(spell) ?? "", .time)
        case .dateTime:
            guard let dateTime = value.dateTime else { return .dateTime("", .dateTime) }
            var text = spell(dateTime.date) + "T" + spell(dateTime.time)
            if let offset = dateTime.offset?.offset {
                if offset == 0 {
                    text += "Z"
                } else {
                    text += (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
                }
            }
            return .dateTime(text, .dateTime)
        }
    }

    private static func spell(_ date: TOMLDate) -> String {
        pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }

    private static func spell(_ time: TOMLTime) -> String {
        var text = pad(time.hour, 2) + ":" + pad(time.minute, 2) + ":" + pad(time.second, 2)
        if time.nanoSecond > 0 {
            var fraction = pad(time.nanoSecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
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
