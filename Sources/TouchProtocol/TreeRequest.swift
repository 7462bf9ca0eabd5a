import TouchCore

/// The requests that read or change the running tree: hit-tests, views' properties, controls,
/// views added and removed, the tree's description and its picture.
public enum TreeRequest: Hashable, Sendable, RequestFamily {
    case hitTest(point: Point, window: ResponderID?)
    case set(view: ResponderID, changes: ViewChanges)
    /// A control's value (a toggle's `true`/`false`, a slider's number) and whether it is enabled;
    /// nil leaves either as it is.
    case setControl(view: ResponderID, value: JSONValue?, enabled: Bool?)
    /// A view added on top of `parent`'s subviews. It belongs to the connection (and leaves with
    /// it) unless `keep`: then it stays until removed or reloaded, like a layout's view.
    case addView(view: ResponderID, parent: ResponderID, changes: ViewChanges, keep: Bool = false)
    case removeView(view: ResponderID)
    case views
    /// A picture of a window with the last touches' paths (none with `touches` false).
    case snapshot(window: ResponderID?, heatmap: Bool, touches: Bool = true)

    static let commands: [(name: String, arguments: Set<String>)] = [
        ("hit_test", ["x", "y", "window"]), ("set", ["view", "properties"]), ("set_control", ["view", "value", "enabled"]),
        ("add_view", ["view", "parent", "properties", "keep"]), ("remove_view", ["view"]), ("views", []),
        ("snapshot", ["window", "heatmap", "touches"]),
    ]

    init(command: String, fields d: [String: JSONValue]) throws(RequestError) {
        switch command {
        case "hit_test":
            let point = Point(
                x: try RequestField.number(d["x"], "x", in: Limits.coordinate), y: try RequestField.number(d["y"], "y", in: Limits.coordinate))
            self = .hitTest(point: point, window: try RequestField.optionalIdentifier(d["window"], "window"))
        case "set":
            self = .set(view: try RequestField.identifier(d["view"], "view"), changes: try ViewChanges(d["properties"], field: "properties"))
        case "set_control": self = try Self.setControl(d)
        case "add_view":
            let view = try RequestField.identifier(d["view"], "view")
            let parent = try RequestField.identifier(d["parent"], "parent")
            let changes = try ViewChanges(d["properties"], field: "properties")
            guard changes.frame != nil else { throw RequestError(.badArgument, "\"properties.frame\" is required for a new view") }
            let keep = try d["keep"].map { v throws(RequestError) in try RequestField.bool(v, "keep") } ?? false
            self = .addView(view: view, parent: parent, changes: changes, keep: keep)
        case "remove_view": self = .removeView(view: try RequestField.identifier(d["view"], "view"))
        case "snapshot":
            var heatmap = false
            if let v = d["heatmap"] { heatmap = try RequestField.bool(v, "heatmap") }
            let touches = try d["touches"].map { v throws(RequestError) in try RequestField.bool(v, "touches") } ?? true
            self = .snapshot(window: try RequestField.optionalIdentifier(d["window"], "window"), heatmap: heatmap, touches: touches)
        default: self = .views
        }
    }

    public var command: String {
        switch self {
        case .hitTest: "hit_test"
        case .set: "set"
        case .setControl: "set_control"
        case .addView: "add_view"
        case .removeView: "remove_view"
        case .views: "views"
        case .snapshot: "snapshot"
        }
    }

    /// Reading the tree is for everyone; changing it needs the control role.
    public var requiredRole: ClientRole {
        switch self {
        case .hitTest, .views, .snapshot: .readOnly
        case .set, .setControl, .addView, .removeView: .control
        }
    }

    /// `set_control`: `value` a boolean or a plain number (the control's kind and range are the
    /// daemon's to check), `enabled` a boolean; at least one of them.
    private static func setControl(_ d: [String: JSONValue]) throws(RequestError) -> TreeRequest {
        let view = try RequestField.identifier(d["view"], "view")
        var value: JSONValue?
        switch d["value"] {
        case nil: value = nil
        case .bool(let on)?: value = .bool(on)
        case let number?: value = .double(try RequestField.number(number, "value", in: Limits.plainNumber))
        }
        let enabled = try d["enabled"].map { v throws(RequestError) in try RequestField.bool(v, "enabled") }
        guard value != nil || enabled != nil else {
            throw RequestError(.badArgument, "set_control needs \"value\" (true or false for a toggle, a number for a slider), \"enabled\", or both")
        }
        return .setControl(view: view, value: value, enabled: enabled)
    }
}
