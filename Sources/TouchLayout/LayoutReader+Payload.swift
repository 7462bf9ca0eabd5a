import TouchCore

/// `payload` of handlers and gestures: any TOML value, made the core's ``TouchCore/JSONValue``
/// once, here.
///
/// Tables become objects with their keys in ascending order (so the JSON text of a payload is
/// deterministic); dates and times become strings in their TOML spelling (`"2024-05-01"`,
/// `"07:30:00"`, `"2024-05-01T07:30:00Z"`); integers stay integers. A float must be within
/// ``Limits/payloadNumber`` (`inf` and `nan` have no JSON spelling). The recursion follows
/// the TOML nesting, which ``SourceLocator`` bounds before parsing.
extension LayoutReader {
    func payloadValue(_ node: TOMLNode, at path: TOMLPath) -> JSONValue? {
        switch node {
        case .string(let text): return .string(text)
        case .integer(let value): return .int(value)
        case .float:
            let fields = Fields(log: log, path: path, values: [:])
            return fields.checkedNumber(node, at: path, in: Limits.payloadNumber).map { .double($0) }
        case .bool(let value): return .bool(value)
        case .dateTime(let text, _): return .string(text)
        case .array(let items):
            let values = items.enumerated().map { payloadValue($0.element, at: path.appending(index: $0.offset)) }
            let kept = values.compactMap { $0 }
            return kept.count == values.count ? .array(kept) : nil
        case .table(let entries):
            var members: [(String, JSONValue)] = []
            var failed = false
            for key in entries.keys.sorted() {
                guard let entry = entries[key] else { continue }
                if let value = payloadValue(entry, at: path.appending(key)) { members.append((key, value)) } else { failed = true }
            }
            return failed ? nil : .object(members)
        }
    }
}
