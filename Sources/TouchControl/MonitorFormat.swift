import TouchCore
import TouchProtocol

extension JSONValue {
    /// A string as touchctl shows it (non-printable characters escaped: ``TerminalText``); any
    /// other value as JSON text.
    var plainText: String {
        if case .string(let text) = self { return TerminalText.escaped(text) }
        return jsonText
    }

    var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The string as touchctl shows it: its non-printable characters escaped (``TerminalText``).
    var shownValue: String? {
        guard case .string(let text) = self else { return nil }
        return TerminalText.escaped(text)
    }

    var numberValue: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        case .null, .bool, .string, .array, .object: nil
        }
    }

    /// A whole number as it is (a JSON number without a fraction).
    var intValue: Int64? {
        guard case .int(let v) = self else { return nil }
        return v
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
        return DecimalText.fixed(v, decimals: 2)
    }

    /// A member as text: a string as it is, another value as JSON, nothing when absent.
    static func text(_ value: JSONValue?) -> String { value?.plainText ?? "" }

    /// One readable line for a message (its JSON for a type this version does not know).
    static func line(_ m: JSONValue) -> String {
        let time = m["time"]?.numberValue.map { DecimalText.fixed($0, decimals: 3, width: 10) } ?? String(repeating: " ", count: 10)
        let type = m["type"]?.stringValue ?? ""
        if let body = inputLine(type, m) ?? stateLine(type, m) { return "\(time) \(body)" }
        return m.jsonText
    }

    /// Hits, touches, actions and gestures.
    static func inputLine(_ type: String, _ m: JSONValue) -> String? {
        switch type {
        case "hit":
            let path = (m["path"]?.arrayValue ?? []).map(\.plainText).joined(separator: " > ")
            let delivered = m["delivered"] == true ? "" : " (not delivered: \(text(m["reason"])))"
            return "hit     touch \(text(m["touch"])) → \(m["view"]?.shownValue ?? "nothing") at \(point(m["point"])) tap \(text(m["tap_count"])) [\(path)]\(delivered)"
        case "action":
            var line = "action  \(text(m["name"])) from \(m["responder"]?.shownValue ?? "no responder") on \(text(m["event"]))"
            if let control = m["control"]?.shownValue {
                line += " of control \(control) (\(text(m["control_event"])) → \(text(m["control_action"]))"
                line += (m["value"].map { ", value \($0.plainText)" } ?? "") + ")"
            }
            return line + " touches \((m["touches"] ?? .array([])).jsonText) payload \(m["payload"]?.jsonText ?? "{}")"
        case "touch":
            return "touch   \(text(m["touch"])) \(text(m["phase"])) at \(point(m["location"])) in \(m["view"]?.shownValue ?? "-") \(point(m["location_in_view"])) force \(m["force"].map(\.plainText) ?? "0")"
        case "gesture":
            var values: [String] = []
            for key in ["taps", "direction", "scale", "rotation"] { if let v = m[key] { values.append("\(key) \(v.plainText)") } }
            if let t = m["translation"] { values.append("translation \(point(t))") }
            if let v = m["velocity"] { values.append("velocity \(v["x"] != nil ? point(v) : v.plainText)") }
            return "gesture \(text(m["recognizer"])) (\(text(m["kind"])) on \(text(m["view"]))) \(text(m["state"])) at \(point(m["location"])) touches \((m["touches"] ?? .array([])).jsonText)"
                + (values.isEmpty ? "" : " " + values.joined(separator: " "))
        default:
            return nil
        }
    }

    /// Presses, remote control, motion, first responders, devices, reloads and the connection's notices.
    static func stateLine(_ type: String, _ m: JSONValue) -> String? {
        switch type {
        case "press": "press   \(text(m["press"])) \(text(m["key"])) \(text(m["phase"])) → \(m["responder"]?.shownValue ?? "-")"
        case "remote_control": "remote  \(text(m["subtype"])) (\(text(m["key"]))) → \(m["responder"]?.shownValue ?? "-")"
        case "motion": "motion  \(text(m["subtype"])) \(text(m["phase"])) → \(m["responder"]?.shownValue ?? "-")"
        case "first_responder":
            "first   \(text(m["window"])): \(m["previous"]?.shownValue ?? "none") → \(m["first_responder"]?.shownValue ?? "none") (\(text(m["cause"])))"
        case "device":
            "device  \(text(m["event"])) \(text(m["device"]))" + (m["already_present"] == true ? " (already present)" : "")
        case "reload":
            "reload  the layout was reloaded: \(text(m["views"])) views"
                + ((m["dropped"].map { d in ["set", "added", "removed", "first_responders", "controls"].contains { (d[$0]?.arrayValue ?? []).isEmpty == false } } ?? false)
                    ? "; run-time changes were dropped" : "")
        case "dropped": "dropped \(text(m["count"])) messages (seq \(text(m["first_seq"]))...\(text(m["last_seq"])))"
        case "goodbye": "goodbye: \(text(m["reason"]))"
        default: nil
        }
    }
}
