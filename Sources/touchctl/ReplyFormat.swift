import TouchCore

/// Readable renderings of touchd's replies: what `touchctl views`, `devices` and `reload` print
/// unless `--json` asks for the JSON.
enum ReplyFormat {
    /// The `views` reply as a tree: each window with its views indented under their parents, then
    /// the controllers, the application and its delegate.
    static func views(_ items: [JSONValue]) -> [String] {
        var depth: [String: Int] = [:]
        var lines: [String] = []
        for item in items {
            let id = MonitorFormat.text(item["id"])
            let first = item["is_first_responder"] == true ? ", first responder" : ""
            switch item["kind"]?.stringValue ?? "" {
            case "window":
                depth[id] = 0
                let size = (item["size"]?.arrayValue ?? []).compactMap(\.numberValue).map(formatNumber).joined(separator: "×")
                let key = item["key"] == true ? ", key" : ""
                lines.append("window \(id) \(size)\(key)" + (item["root_controller"]?.shownValue.map { ", root controller \($0)" } ?? ""))
            case "view":
                let level = (depth[MonitorFormat.text(item["parent"])] ?? 0) + 1
                depth[id] = level
                lines.append(String(repeating: "  ", count: level) + id + " " + viewDetails(item) + first)
            case "controller":
                lines.append("controller \(id) → \(MonitorFormat.text(item["view"]))"
                    + (item["presented_by"]?.shownValue.map { ", presented by \($0)" } ?? "") + first)
            default:
                lines.append("\(MonitorFormat.text(item["kind"])) \(id)")
            }
        }
        return lines
    }

    /// A view's frame and what sets it apart: hidden, alpha, no interaction, controller, control.
    static func viewDetails(_ item: JSONValue) -> String {
        let frame = (item["frame"]?.arrayValue ?? []).compactMap(\.numberValue).map(formatNumber).joined(separator: ", ")
        var notes: [String] = []
        if item["hidden"] == true { notes.append("hidden") }
        if let alpha = item["alpha"]?.numberValue, alpha < 1 { notes.append("alpha \(formatNumber(alpha))") }
        if item["interactive"] == false { notes.append("no interaction") }
        if let controller = item["controller"]?.shownValue { notes.append("root of \(controller)") }
        if let control = item["control"] { notes.append(Self.control(control)) }
        return "[\(frame)]" + (notes.isEmpty ? "" : " " + notes.joined(separator: ", "))
    }

    /// A control's state: `slider 0.5 (disabled)`.
    static func control(_ control: JSONValue) -> String {
        var text = MonitorFormat.text(control["kind"])
        if let value = control["value"] { text += " \(value.plainText)" }
        if control["enabled"] == false { text += " (disabled)" }
        return text
    }

    /// The `devices` reply, one line a device: in use (its node, kind, name, the entry it matched
    /// and whether it is grabbed), replayed, or ignored with the reason.
    static func devices(_ reply: JSONValue) -> [String] {
        let items = reply.arrayValue ?? []
        guard !items.isEmpty else { return ["no input device"] }
        return items.map { d in
            let name = "\"\(MonitorFormat.text(d["name"]))\""
            if let reason = d["ignored"]?.shownValue {
                return "\(MonitorFormat.text(d["devnode"])) \(MonitorFormat.text(d["kind"])) \(name): ignored: \(reason)"
            }
            if d["source"] == "recording" { return "\(MonitorFormat.text(d["device"])) \(name): replayed recording" }
            let grabbed = d["grabbed"] == true ? ", grabbed" : ""
            return "\(MonitorFormat.text(d["devnode"])) \(MonitorFormat.text(d["kind"])) \(name): \(MonitorFormat.text(d["matched"]))\(grabbed); "
                + "identity \(MonitorFormat.text(d["device"]))"
        }
    }

    /// The `reload` reply and the `reload` message that came before it: the new layout's size,
    /// what it changed, and the run-time changes it dropped.
    static func reload(_ reply: JSONValue, message: JSONValue?) -> [String] {
        var lines = ["reloaded: \(MonitorFormat.text(reply["views"])) views"]
        guard let message else { return lines }
        func list(_ value: JSONValue?) -> String? {
            let ids = (value?.arrayValue ?? []).map(\.plainText)
            return ids.isEmpty ? nil : ids.joined(separator: ", ")
        }
        for (label, key) in [("added", "added"), ("removed", "removed"), ("changed", "changed")] {
            if let ids = list(message[key]) { lines.append("\(label) by the new layout: \(ids)") }
        }
        let dropped = message["dropped"]
        let kinds = [
            ("views set", "set"), ("views added", "added"), ("views removed", "removed"), ("first responders of", "first_responders"),
            ("controls", "controls"),
        ]
        for (label, key) in kinds {
            if let ids = list(dropped?[key]) { lines.append("run-time change dropped: \(label) \(ids)") }
        }
        if let omitted = message["omitted"] { lines.append("(\(omitted.plainText) more ids not listed)") }
        return lines
    }
}
