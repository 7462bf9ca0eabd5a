import TouchCore

/// The requests `touchctl`'s commands make, each from plain values (`docs/protocol.md` has every
/// request and its members).
extension ClientRequest {
    /// `ping`.
    public static let ping = ClientRequest("ping")
    /// `stats`: the daemon's counters.
    public static let stats = ClientRequest("stats")
    /// `devices`: the input devices and what became of each.
    public static let devices = ClientRequest("devices")
    /// `views`: every responder of the running layout.
    public static let views = ClientRequest("views")
    /// `reload`: read the layout file again.
    public static let reload = ClientRequest("reload")
    /// `finish_calibration`: fit, apply and keep the calibration.
    public static let finishCalibration = ClientRequest("finish_calibration")

    /// `subscribe` to `topics`, with the view and action filters when given.
    public static func subscribe(topics: [String], views: [String]? = nil, actions: [String]? = nil) -> ClientRequest {
        var members: [(String, JSONValue)] = [("topics", strings(topics))]
        if let views { members.append(("views", strings(views))) }
        if let actions { members.append(("actions", strings(actions))) }
        return ClientRequest("subscribe", members)
    }

    /// `hit_test` at (`x`, `y`) in window points, in `window` (nil: the key window).
    public static func hitTest(x: Double, y: Double, window: String?) -> ClientRequest {
        var members: [(String, JSONValue)] = [("x", .double(x)), ("y", .double(y))]
        if let window { members.append(("window", .string(window))) }
        return ClientRequest("hit_test", members)
    }

    /// `set`: change `view`'s properties (see ``viewProperties(_:)``).
    public static func set(view: String, properties: [(String, Value)]) -> ClientRequest {
        ClientRequest("set", [("view", .string(view)), ("properties", viewProperties(properties))])
    }

    /// `add_view`: a view `view` on top of `parent`'s subviews, with `properties` (see
    /// ``viewProperties(_:)``); with `keep`, it stays when the connection ends.
    public static func addView(_ view: String, parent: String, properties: [(String, Value)], keep: Bool) -> ClientRequest {
        ClientRequest("add_view", [("view", .string(view)), ("parent", .string(parent)), ("properties", viewProperties(properties)), ("keep", .bool(keep))])
    }

    /// `remove_view`.
    public static func removeView(_ view: String) -> ClientRequest { ClientRequest("remove_view", [("view", .string(view))]) }

    /// `set_control`: a control's value and whether it is enabled, each when given.
    public static func setControl(view: String, value: Value?, enabled: Bool?) -> ClientRequest {
        var members: [(String, JSONValue)] = [("view", .string(view))]
        if let value { members.append(("value", value.json)) }
        if let enabled { members.append(("enabled", .bool(enabled))) }
        return ClientRequest("set_control", members)
    }

    /// `become_first_responder`, or with `resign`, `resign_first_responder`.
    public static func firstResponder(_ responder: String, resign: Bool) -> ClientRequest {
        ClientRequest(resign ? "resign_first_responder" : "become_first_responder", [("responder", .string(responder))])
    }

    /// `snapshot` of `window` (nil: the key window), with touch-down density (`heatmap`) and the
    /// recent touches (`touches`), each when given.
    public static func snapshot(window: String?, heatmap: Bool? = nil, touches: Bool? = nil) -> ClientRequest {
        var members: [(String, JSONValue)] = []
        if let heatmap { members.append(("heatmap", .bool(heatmap))) }
        if let window { members.append(("window", .string(window))) }
        if let touches { members.append(("touches", .bool(touches))) }
        return ClientRequest("snapshot", members)
    }

    /// `record` `device` (nil: every touch device).
    public static func record(device: String?) -> ClientRequest {
        ClientRequest("record", device.map { [("device", .string($0))] } ?? [])
    }

    /// `calibrate` `device` (nil: the only touch device) with `targets` in window points (none:
    /// touchd's).
    public static func calibrate(device: String?, targets: [Point]) -> ClientRequest {
        var members: [(String, JSONValue)] = []
        if let device { members.append(("device", .string(device))) }
        if !targets.isEmpty { members.append(("targets", .array(targets.map { .array([.double($0.x), .double($0.y)]) }))) }
        return ClientRequest("calibrate", members)
    }

    /// `calibration_point`: the touch touchd numbered `sample` (as its `calibration_sample` message
    /// gave it) was aimed at target number `target`.
    public static func calibrationPoint(sample: JSONValue, target: Int) -> ClientRequest {
        ClientRequest("calibration_point", [("sample", sample), ("target", .int(Int64(target)))])
    }

    /// A view's properties as `key=value` pairs gave them, in order, except `translate`, `rotate`
    /// and `scale`, which together are its `transform`, last.
    static func viewProperties(_ assignments: [(String, Value)]) -> JSONValue {
        let transformKeys: Set<String> = ["translate", "rotate", "scale"]
        var members = assignments.filter { !transformKeys.contains($0.0) }.map { ($0.0, $0.1.json) }
        let transform = assignments.filter { transformKeys.contains($0.0) }.map { ($0.0, $0.1.json) }
        if !transform.isEmpty { members.append(("transform", .object(transform))) }
        return .object(members)
    }

    private static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
