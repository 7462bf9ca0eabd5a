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
            case "gesture_recognizer":
                lines.append("gesture \(id): \(MonitorFormat.text(item["type"])) on \(MonitorFormat.text(item["view"]))"
                    + (item["action"]?.shownValue.map { " → \($0)" } ?? "") + " (\(MonitorFormat.text(item["state"])))")
            default:
                lines.append("\(MonitorFormat.text(item["kind"])) \(id)")
            }
        }
        return lines
    }

    /// A `hit_test` reply as `touchd hit-test` prints its own: the trace indented by depth, the hit
    /// view with the point in its coordinates, its path and its responder chain.
    static func hitTest(_ result: JSONValue) -> [String] {
        func point(_ value: JSONValue?) -> String {
            Point(x: value?["x"]?.numberValue ?? 0, y: value?["y"]?.numberValue ?? 0).description
        }
        func names(_ value: JSONValue?) -> [String] { (value?.arrayValue ?? []).map(\.plainText) }
        var lines: [String] = []
        var depth = 0
        for step in result["trace"]?.arrayValue ?? [] {
            let view = MonitorFormat.text(step["view"])
            if step["step"] == "enter" {
                lines.append(String(repeating: "  ", count: depth) + "→ \(view) enter at \(point(step["point"]))")
                depth += 1
            } else {
                depth = max(depth - 1, 0)
                lines.append(
                    String(repeating: "  ", count: depth)
                        + "← \(view) result: \(step["result"]?.shownValue ?? "nil") (\(MonitorFormat.text(step["reason"])))")
            }
        }
        let window = MonitorFormat.text(result["window"])
        if let view = result["view"]?.shownValue, case .object = result["point_in_view"] {
            lines.append("hit: \(view) in window \(window) at \(point(result["point_in_view"])) (view coordinates)")
            lines.append("path: \(names(result["path"]).joined(separator: " > "))")
            lines.append("responder chain: \(names(result["responder_chain"]).joined(separator: " → "))")
        } else {
            lines.append("hit: nothing takes the point \(point(result["point"]))")
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
        if let origin = item["bounds_origin"]?.arrayValue?.compactMap(\.numberValue), origin.contains(where: { $0 != 0 }) {
            notes.append("bounds origin (\(origin.map(formatNumber).joined(separator: ", ")))")
        }
        if item["clips_to_bounds"] == true { notes.append("clips to bounds") }
        if item["multiple_touch"] == true { notes.append("multiple touch") }
        if item["exclusive_touch"] == true { notes.append("exclusive touch") }
        if let expansion = item["hit_expansion"]?.arrayValue?.compactMap(\.numberValue), expansion.contains(where: { $0 != 0 }) {
            let same = Set(expansion).count == 1
            notes.append("hit expansion " + (same ? formatNumber(expansion[0]) : "[" + expansion.map(formatNumber).joined(separator: ", ") + "]"))
        }
        if let policy = item["hit_test"]?.shownValue, policy != "default" {
            notes.append("hit_test \(policy)" + (item["redirect"]?.shownValue.map { " → \($0)" } ?? ""))
        }
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
