import TouchCore

extension Request {
    /// Parses one request line (without its newline). The request's `id` comes back even when
    /// the rest is wrong, so that the error reply can carry it (`null` when the line is not a JSON
    /// object or the `id` itself is refused).
    public static func parse(_ line: [UInt8]) -> (id: JSONValue, result: Result<Request, RequestError>) {
        let value: JSONValue
        do {
            value = try JSONReader.read(line)
        } catch {
            return (.null, .failure(RequestError(.malformedJSON, "the line is not valid JSON: \(error)")))
        }
        return parse(value)
    }

    /// Parses one request line given as text.
    public static func parse(_ line: String) -> (id: JSONValue, result: Result<Request, RequestError>) {
        parse(Array(line.utf8))
    }

    /// Parses a request already read as JSON: every field is checked against its domain
    /// (`docs/limits.md`), as for a line. `touchctl` checks what it is about to send with it.
    public static func parse(_ value: JSONValue) -> (id: JSONValue, result: Result<Request, RequestError>) {
        guard case .object(let members) = value else {
            return (.null, .failure(RequestError(.malformedRequest, "a request is a JSON object")))
        }
        var fields: [String: JSONValue] = [:]
        for (key, value) in members { fields[key] = fields[key] ?? value }
        let id: JSONValue
        do {
            id = try RequestField.requestID(fields["id"])
        } catch {
            return (.null, .failure(error))
        }
        do {
            return (id, .success(try command(fields)))
        } catch {
            return (id, .failure(error))
        }
    }

    /// Every command, in the order docs/protocol.md lists them, with the arguments it takes besides
    /// `id` and `cmd`. A key outside its command's list is refused (it is usually a typo, and
    /// ignoring it would do something other than what was asked).
    static let commands: [(name: String, arguments: Set<String>)] = [
        ("ping", []), ("subscribe", ["topics", "views", "actions", "touch_samples"]), ("unsubscribe", ["subscription"]),
        ("hit_test", ["x", "y", "window"]), ("set", ["view", "properties"]), ("set_control", ["view", "value", "enabled"]),
        ("add_view", ["view", "parent", "properties", "keep"]), ("remove_view", ["view"]), ("reload", []), ("devices", []),
        ("views", []), ("stats", []), ("snapshot", ["window", "heatmap", "touches"]), ("become_first_responder", ["responder"]),
        ("resign_first_responder", ["responder"]), ("begin_receiving_remote_control", []), ("end_receiving_remote_control", []),
        ("record", ["device"]), ("stop_recording", ["device"]), ("calibrate", ["device", "targets"]),
        ("calibration_point", ["sample", "target"]), ("finish_calibration", []), ("cancel_calibration", []),
    ]

    /// ``commands`` by name.
    static let arguments: [String: Set<String>] = Dictionary(commands.map { ($0.name, $0.arguments) }, uniquingKeysWith: { first, _ in first })

    /// The commands' names as the `unknown_command` error lists them: "a, b or c".
    static let commandList: String = {
        let names = commands.map(\.name)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }()

    static func command(_ d: [String: JSONValue]) throws(RequestError) -> Request {
        guard case .string(let cmd) = d["cmd"] else { throw RequestError(.malformedRequest, "missing \"cmd\" (a string)") }
        guard let allowed = arguments[cmd] else { throw unknownCommand(cmd) }
        for key in d.keys.sorted() where key != "id" && key != "cmd" && !allowed.contains(key) {
            let expected = allowed.isEmpty ? "no arguments" : allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw RequestError(.badArgument, "unknown argument \"\(excerpt(key))\" for \(cmd): expected \(expected)")
        }
        switch cmd {
        case "ping": return .session(.ping)
        case "subscribe": return .session(try subscribe(d))
        case "unsubscribe":
            return .session(.unsubscribe(subscription: try RequestField.integer(d["subscription"], "subscription", in: Limits.subscriptionNumber)))
        case "hit_test":
            let point = Point(
                x: try RequestField.number(d["x"], "x", in: Limits.coordinate), y: try RequestField.number(d["y"], "y", in: Limits.coordinate))
            return .tree(.hitTest(point: point, window: try RequestField.optionalIdentifier(d["window"], "window")))
        case "set":
            return .tree(.set(view: try RequestField.identifier(d["view"], "view"), changes: try ViewChanges(d["properties"], field: "properties")))
        case "set_control": return .tree(try setControl(d))
        case "add_view":
            let view = try RequestField.identifier(d["view"], "view")
            let parent = try RequestField.identifier(d["parent"], "parent")
            let changes = try ViewChanges(d["properties"], field: "properties")
            guard changes.frame != nil else { throw RequestError(.badArgument, "\"properties.frame\" is required for a new view") }
            let keep = try d["keep"].map { v throws(RequestError) in try RequestField.bool(v, "keep") } ?? false
            return .tree(.addView(view: view, parent: parent, changes: changes, keep: keep))
        case "remove_view": return .tree(.removeView(view: try RequestField.identifier(d["view"], "view")))
        case "reload": return .daemon(.reload)
        case "devices": return .daemon(.devices)
        case "views": return .tree(.views)
        case "stats": return .daemon(.stats)
        case "snapshot":
            var heatmap = false
            if let v = d["heatmap"] { heatmap = try RequestField.bool(v, "heatmap") }
            let touches = try d["touches"].map { v throws(RequestError) in try RequestField.bool(v, "touches") } ?? true
            return .tree(.snapshot(window: try RequestField.optionalIdentifier(d["window"], "window"), heatmap: heatmap, touches: touches))
        case "become_first_responder":
            return .responders(.becomeFirstResponder(responder: try RequestField.identifier(d["responder"], "responder")))
        case "resign_first_responder":
            return .responders(.resignFirstResponder(responder: try RequestField.identifier(d["responder"], "responder")))
        case "begin_receiving_remote_control": return .responders(.beginReceivingRemoteControl)
        case "end_receiving_remote_control": return .responders(.endReceivingRemoteControl)
        case "record", "stop_recording", "calibrate", "calibration_point", "finish_calibration", "cancel_calibration":
            return .deviceSession(try installerCommand(cmd, d))
        default: throw unknownCommand(cmd)
        }
    }

    static func unknownCommand(_ cmd: String) -> RequestError {
        RequestError(
            .unknownCommand,
            "unknown command \"\(excerpt(cmd))\": expected \(commandList)"
        )
    }

    /// The installer's commands: recording a device's raw events and calibrating a device.
    static func installerCommand(_ cmd: String, _ d: [String: JSONValue]) throws(RequestError) -> DeviceSessionRequest {
        let device = try d["device"].map { v throws(RequestError) in try RequestField.string(v, "device", maximumBytes: Limits.maximumDeviceIdentityBytes) }
        switch cmd {
        case "record": return .record(device: device)
        case "stop_recording": return .stopRecording(device: device)
        case "calibrate": return .calibrate(device: device, targets: try d["targets"].map { v throws(RequestError) in try targets(v) })
        case "calibration_point":
            return .calibrationPoint(
                sample: try RequestField.integer(d["sample"], "sample", in: Limits.calibrationSampleNumber),
                target: try RequestField.integer(d["target"], "target", in: Limits.calibrationTargetNumber))
        case "finish_calibration": return .finishCalibration
        default: return .cancelCalibration
        }
    }

    /// `calibrate`'s `targets`: 3 to ``Limits/maximumCalibrationPoints`` points `[x, y]` in window
    /// coordinates.
    static func targets(_ value: JSONValue) throws(RequestError) -> [Point] {
        let expected = "an array of 3 to \(Limits.maximumCalibrationPoints) points [x, y] (window points)"
        guard case .array(let items) = value, (3...Limits.maximumCalibrationPoints).contains(items.count) else {
            throw .badArgument("targets", expected: expected)
        }
        var points: [Point] = []
        for (i, item) in items.enumerated() {
            let n = try RequestField.numbers(item, "targets[\(i)]", in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
            points.append(Point(x: n[0], y: n[1]))
        }
        return points
    }

    /// `set_control`: `value` a boolean or a plain number (the control's kind and range are the
    /// daemon's to check), `enabled` a boolean; at least one of them.
    static func setControl(_ d: [String: JSONValue]) throws(RequestError) -> TreeRequest {
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

    static func subscribe(_ d: [String: JSONValue]) throws(RequestError) -> SessionRequest {
        var topics: Set<Topic> = []
        for name in try RequestField.optionalStrings(d["topics"], "topics") ?? Topic.defaultTopics.map(\.rawValue) {
            guard let topic = Topic(rawValue: name) else {
                throw RequestError(
                    .badArgument, "unknown topic \"\(excerpt(name))\": expected one of \(Topic.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            topics.insert(topic)
        }
        let views = try RequestField.optionalStrings(d["views"], "views")
        let actions = try RequestField.optionalStrings(d["actions"], "actions").map { Set($0) }
        var form = TouchSampleForm.default
        if let value = d["touch_samples"] {
            guard case .string(let name) = value, let named = TouchSampleForm(rawValue: name) else {
                throw .badArgument("touch_samples", expected: #""latest", "coalesced", "input" or "frames""#)
            }
            form = named
        }
        return .subscribe(topics: topics, views: views, actions: actions, touchSamples: form)
    }
}

extension ViewChanges {
    /// The changes a `set` or `add_view` request's `properties` object gives, each property checked
    /// against its domain.
    init(_ value: JSONValue?, field: String) throws(RequestError) {
        guard case .object(let properties) = value else { throw .badArgument(field, expected: "an object of view properties") }
        self.init()
        for (key, v) in properties { try set(key, v, path: "\(field).\(key)") }
    }

    private mutating func set(_ key: String, _ v: JSONValue, path: String) throws(RequestError) {
        switch key {
        case "frame":
            let n = try RequestField.numbers(
                v, path, in: [Limits.coordinate, Limits.coordinate, Limits.length, Limits.length], meaning: "x, y, width, height")
            frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        case "bounds_origin":
            let n = try RequestField.numbers(v, path, in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
            boundsOrigin = Point(x: n[0], y: n[1])
        case "hidden": isHidden = try RequestField.bool(v, path)
        case "alpha": alpha = try RequestField.number(v, path, in: Limits.alpha)
        case "interactive": isUserInteractionEnabled = try RequestField.bool(v, path)
        case "clips_to_bounds": clipsToBounds = try RequestField.bool(v, path)
        case "multiple_touch": isMultipleTouchEnabled = try RequestField.bool(v, path)
        case "exclusive_touch": isExclusiveTouch = try RequestField.bool(v, path)
        case "hit_expansion":
            if case .array = v {
                let n = try RequestField.numbers(v, path, in: Array(repeating: Limits.length, count: 4), meaning: "top, left, bottom, right")
                hitExpansion = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
            } else {
                hitExpansion = EdgeInsets(all: try RequestField.number(v, path, in: Limits.length))
            }
        case "transform": transform = try Self.transform(v, path: path)
        default:
            let names = Self.settableProperties
            let suggestion = Spelling.closest(to: key, among: names).map { "did you mean \"\($0)\"? " } ?? ""
            throw RequestError(
                .badArgument,
                "unknown view property \"\(excerpt(path))\": \(suggestion)expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
    }

    /// The properties a `set` or `add_view` request may give, in the order messages list them.
    static let settableProperties = [
        "frame", "bounds_origin", "hidden", "alpha", "interactive", "clips_to_bounds", "multiple_touch", "exclusive_touch", "hit_expansion",
        "transform",
    ]

    /// `{"translate": [x, y], "rotate": degrees, "scale": s or [sx, sy]}`, each part optional (an
    /// empty object is the identity); the scale is never zero, so the transform has an inverse.
    static func transform(_ v: JSONValue, path: String) throws(RequestError) -> ViewTransform {
        guard case .object(let parts) = v else {
            throw .badArgument(path, expected: #"an object {"translate": [x, y], "rotate": degrees, "scale": s or [sx, sy]}"#)
        }
        var translation = Point.zero
        var rotation = 0.0
        var scale = (1.0, 1.0)
        for (key, value) in parts {
            let at = "\(path).\(key)"
            switch key {
            case "translate":
                let n = try RequestField.numbers(value, at, in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
                translation = Point(x: n[0], y: n[1])
            case "rotate": rotation = try RequestField.number(value, at, in: Limits.degrees)
            case "scale":
                if case .array = value {
                    let n = try RequestField.numbers(value, at, in: [Limits.transformScale, Limits.transformScale], meaning: "sx, sy")
                    scale = (n[0], n[1])
                } else {
                    let s = try RequestField.number(value, at, in: Limits.transformScale)
                    scale = (s, s)
                }
            default:
                throw RequestError(.badArgument, "unknown transform part \"\(excerpt(at))\": expected translate, rotate or scale")
            }
        }
        return ViewTransform(translation: translation, rotation: rotation, scaleX: scale.0, scaleY: scale.1)
    }
}
