import Foundation
import TouchCore
import TouchProtocol

extension JSONValue {
    /// A string as it is; any other value as JSON text.
    var plainText: String {
        if case .string(let text) = self { return text }
        return jsonText
    }

    var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    var numberValue: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        case .null, .bool, .string, .array, .object: nil
        }
    }

    var arrayValue: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }
}

/// Readable one-line renderings of touchd's messages.
enum MonitorFormat {
    static func point(_ value: JSONValue?) -> String {
        guard let x = value?["x"]?.numberValue, let y = value?["y"]?.numberValue else { return "-" }
        return "(\(num(x)), \(num(y)))"
    }

    /// A number compactly: whole ones without a fraction, others with 2 decimals.
    static func num(_ v: Double) -> String {
        if v == v.rounded(), let whole = Int64(exactly: v) { return String(whole) }
        return v.isFinite ? String(format: "%.2f", v) : String(v)
    }

    /// A member as text: a string as it is, another value as JSON, nothing when absent.
    static func text(_ value: JSONValue?) -> String { value?.plainText ?? "" }

    static func line(_ m: JSONValue) -> String {
        let time = m["time"]?.numberValue.map { String(format: "%10.3f", $0) } ?? String(repeating: " ", count: 10)
        switch m["type"]?.stringValue ?? "" {
        case "hit":
            let path = (m["path"]?.arrayValue ?? []).map(\.plainText).joined(separator: " > ")
            let delivered = m["delivered"] == true ? "" : " (not delivered: \(text(m["reason"])))"
            return "\(time) hit     touch \(text(m["touch"])) → \(m["view"]?.stringValue ?? "nothing") at \(point(m["point"])) tap \(text(m["tap_count"])) [\(path)]\(delivered)"
        case "action":
            return "\(time) action  \(text(m["name"])) from \(text(m["responder"])) on \(text(m["event"])) touches \((m["touches"] ?? .array([])).jsonText) payload \((m["payload"] ?? .object([])).jsonText)"
        case "touch":
            return "\(time) touch   \(text(m["touch"])) \(text(m["phase"])) at \(point(m["location"])) in \(m["view"]?.stringValue ?? "-") \(point(m["location_in_view"])) force \(m["force"].map(\.plainText) ?? "0")"
        case "device":
            return "\(time) device  \(text(m["event"])) \(text(m["device"]))"
        case "dropped":
            return "           dropped \(text(m["count"])) messages (seq \(text(m["first_seq"]))...\(text(m["last_seq"])))"
        case "goodbye":
            return "           goodbye: \(text(m["reason"]))"
        default:
            return m.jsonText
        }
    }
}
