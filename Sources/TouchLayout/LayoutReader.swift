import TouchCore
import TouchEvdev

/// One entry of an array of tables, with its index in the file (`view[3]` has index 3).
struct Entry<Spec> {
    var index: Int
    var spec: Spec
}

/// What the reader made of the file: every entry, with placeholders where a value was unusable
/// (the log says why), so the cross-reference checks can still run over all of it.
struct LayoutDraft {
    var version = 1
    var application = ApplicationSpec()
    var tap = TapSpec()
    var queue = QueueSpec()
    var windows: [Entry<WindowSpec>] = []
    /// `key` as written in each window (nil when absent), parallel to `windows`.
    var windowKeyFlags: [Bool?] = []
    var controllers: [Entry<ControllerSpec>] = []
    var views: [Entry<ViewSpec>] = []
    var handlers: [Entry<HandlerSpec>] = []
    var gestures: [Entry<GestureSpec>] = []
    var daemon = DaemonSpec()
    var controls: [Entry<ControlLayoutSpec>] = []
    var devices: [Entry<DeviceSpec>] = []
    /// Whether `window` was present at all (so a malformed one is not also reported as missing).
    var hasWindowKey = false
}

/// Reads the TOML tree into a ``LayoutDraft``: types, ranges, required and unknown keys.
/// Cross-references are checked afterwards by ``LayoutValidator``.
struct LayoutReader {
    let log: IssueLog
    /// The layout file's path as given, for resolving relative `pointercal` paths.
    let file: String

    static let topKeys = ["version", "application", "tap", "queue", "window", "controller", "view", "handler", "gesture", "control", "device", "daemon"]
    static let applicationKeys = ["id", "delegate"]
    static let tapKeys = ["interval", "distance_mm", "max_duration", "slop_mm"]
    static let queueKeys = ["capacity"]
    static let firstResponderKeys = ["can_become_first_responder", "can_resign_first_responder"]
    static let windowKeys = ["id", "size", "level", "key", "points_per_mm", "display", "root_controller", "first_responder"] + firstResponderKeys
    static let controllerKeys = ["id", "view", "presented_by"] + firstResponderKeys
    static let viewKeys = [
        "id", "parent", "frame", "bounds_origin", "hidden", "alpha", "interactive", "clips_to_bounds",
        "multiple_touch", "exclusive_touch", "hit_expansion", "hit_test", "redirect",
    ] + firstResponderKeys
    static let handlerKeys = [
        "responder", "on", "action", "payload", "pass_on", "tap_count", "selector", "key", "subtype",
        "become_first_responder", "resign_first_responder",
    ]
    static let shakeKeys = ["shake_threshold_g", "shake_duration", "shake_settle"]
    static let deviceKeys = [
        "match", "window", "region", "rotation", "swap_axes", "invert_x", "invert_y", "calibration",
        "udev_calibration", "pointercal", "grab", "palm_pressure", "palm_touch_major",
    ] + shakeKeys
    /// UIKit's names of the first-responder properties, for "did you mean".
    static let firstResponderAliases = [
        "canBecomeFirstResponder": "can_become_first_responder", "canResignFirstResponder": "can_resign_first_responder",
    ]
    static let matchKeys = ["kind", "name", "usb", "id_path", "id_serial", "devnode"]

    /// UIKit and other likely spellings of keys, for "did you mean".
    static let aliases: [String: [String: String]] = [
        "window": [
            "rootViewController": "root_controller", "windowLevel": "level", "isKeyWindow": "key",
            "points_per_millimetre": "points_per_mm", "points_per_millimeter": "points_per_mm",
            "frame": "size", "firstResponder": "first_responder", "initial_first_responder": "first_responder",
        ].merging(firstResponderAliases) { a, _ in a },
        "controller": ["presentingViewController": "presented_by", "root_view": "view"].merging(firstResponderAliases) { a, _ in a },
        "view": [
            "userInteractionEnabled": "interactive", "multipleTouchEnabled": "multiple_touch",
            "bounds": "bounds_origin", "superview": "parent", "hitTestPolicy": "hit_test",
            "opacity": "alpha",
        ].merging(firstResponderAliases) { a, _ in a },
        "handler": [
            "trigger": "on", "event": "on", "method": "on", "passOn": "pass_on", "consume": "pass_on", "keycode": "key",
            "key_code": "key", "command": "subtype", "becomeFirstResponder": "become_first_responder",
            "resignFirstResponder": "resign_first_responder",
        ],
        "device": [
            "name": "match.name", "kind": "match.kind", "usb": "match.usb", "id_path": "match.id_path",
            "id_serial": "match.id_serial", "devnode": "match.devnode", "threshold_g": "shake_threshold_g",
            "shake_threshold": "shake_threshold_g", "duration": "shake_duration", "settle": "shake_settle",
        ],
        "tap": ["max_distance_mm": "distance_mm", "duration": "max_duration"],
    ]

    func read(_ root: [String: TOMLNode]) -> LayoutDraft {
        var draft = LayoutDraft()
        let top = Fields(log: log, path: .root, values: root)
        top.rejectUnknownKeys(Self.topKeys, what: "the layout file", aliases: ["windows": "window", "views": "view"])

        if let node = root["version"] {
            switch node {
            case .integer(1): break
            case .integer(let value):
                log.add(.invalidValue, top.at("version"), "version \(value) is not supported: expected 1")
                draft.version = Int(clamping: value)
            default:
                top.wrongType(top.at("version"), node, "the integer 1")
            }
        }
        if let fields = top.table("application", expect: "an [application] table") {
            draft.application = readApplication(fields)
        }
        if let fields = top.table("tap", expect: "a [tap] table") {
            draft.tap = readTap(fields)
        }
        if let fields = top.table("daemon", expect: "a [daemon] table") {
            draft.daemon = readDaemon(fields)
        }
        if let fields = top.table("queue", expect: "a [queue] table") {
            let range = QueueSpec.capacityRange
            let capacity = fields.integer(
                "capacity", expect: "an integer from \(range.lowerBound) to \(range.upperBound)",
                valid: { $0 >= Int64(range.lowerBound) && $0 <= Int64(range.upperBound) })
            draft.queue = QueueSpec(capacity: capacity ?? QueueSpec.defaultCapacity)
            fields.rejectUnknownKeys(Self.queueKeys, what: "[queue]")
        }

        draft.hasWindowKey = root["window"] != nil
        for (index, fields) in entries("window", in: top) {
            let (window, key) = readWindow(fields)
            draft.windows.append(Entry(index: index, spec: window))
            draft.windowKeyFlags.append(key)
        }
        for (index, fields) in entries("controller", in: top) {
            draft.controllers.append(Entry(index: index, spec: readController(fields)))
        }
        for (index, fields) in entries("view", in: top) {
            draft.views.append(Entry(index: index, spec: readView(fields)))
        }
        for (index, fields) in entries("handler", in: top) {
            draft.handlers.append(Entry(index: index, spec: readHandler(fields)))
        }
        for (index, fields) in entries("control", in: top) {
            draft.controls.append(Entry(index: index, spec: readControl(fields)))
        }
        for (index, fields) in entries("gesture", in: top) {
            draft.gestures.append(Entry(index: index, spec: readGesture(fields)))
        }
        for (index, fields) in entries("device", in: top) {
            draft.devices.append(Entry(index: index, spec: readDevice(fields)))
        }
        return draft
    }

    /// The tables of the array of tables `name` (`[[name]]`), with their indices.
    private func entries(_ name: String, in top: Fields) -> [(Int, Fields)] {
        guard let node = top.values[name] else { return [] }
        let expect = "[[\(name)]] entries (an array of tables)"
        switch node {
        case .array(let items):
            var result: [(Int, Fields)] = []
            for (index, item) in items.enumerated() {
                let path = top.at(name).appending(index: index)
                if case .table(let values) = item {
                    result.append((index, Fields(log: log, path: path, values: values)))
                } else {
                    top.wrongType(path, item, "a table (one [[\(name)]] entry)")
                }
            }
            return result
        case .table:
            log.add(
                .wrongType, top.at(name),
                "expected \(expect), found a single table: write [[\(name)]], not [\(name)]")
            return []
        default:
            top.wrongType(top.at(name), node, expect)
            return []
        }
    }

    /// Reads `id` first so that every later issue of the entry can name it.
    private func readID(_ fields: Fields, what: String) -> String {
        let id = fields.string("id", required: true, expect: "a non-empty string, the \(what)'s unique id")
        if let id { log.name(fields.path, id: id) }
        return id ?? ""
    }

    private func readApplication(_ fields: Fields) -> ApplicationSpec {
        let id = fields.string("id", expect: "a non-empty string, the application's responder id")
        let delegate = fields.string("delegate", expect: "a non-empty string, the app delegate's responder id")
        fields.rejectUnknownKeys(Self.applicationKeys, what: "[application]")
        return ApplicationSpec(id: id ?? ApplicationSpec.defaultID, delegate: delegate ?? ApplicationSpec.defaultDelegateID)
    }

    private func readTap(_ fields: Fields) -> TapSpec {
        func positive(_ key: String, _ unit: String) -> Double? {
            fields.number(key, expect: "a finite number > 0 (\(unit))", valid: { $0.isFinite && $0 > 0 })
        }
        let defaults = TapSpec()
        let spec = TapSpec(
            interval: positive("interval", "seconds") ?? defaults.interval,
            distanceMillimetres: positive("distance_mm", "millimetres") ?? defaults.distanceMillimetres,
            maximumDuration: positive("max_duration", "seconds") ?? defaults.maximumDuration,
            slopMillimetres: positive("slop_mm", "millimetres") ?? defaults.slopMillimetres)
        fields.rejectUnknownKeys(Self.tapKeys, what: "[tap]", aliases: Self.aliases["tap"] ?? [:])
        return spec
    }

    private func readWindow(_ fields: Fields) -> (WindowSpec, Bool?) {
        let id = readID(fields, what: "window")
        let size = fields.numbers(
            "size", names: ["width", "height"], nonNegative: [0, 1], required: true,
            expect: "[width, height]: two finite numbers >= 0, in points")
        let level = fields.number("level", expect: "a finite number (higher windows are on top)")
        let key = fields.bool("key")
        let pointsPerMillimetre = fields.number(
            "points_per_mm", expect: "a finite number > 0 (points per millimetre)", valid: { $0.isFinite && $0 > 0 })
        let display = fields.string("display", expect: "a non-empty display name")
        let rootController = fields.string("root_controller", expect: "the id of a [[controller]]")
        let firstResponder = fields.string(
            "first_responder", expect: "the id of a responder of this window with can_become_first_responder = true")
        let traits = readFirstResponderTraits(fields)
        fields.rejectUnknownKeys(Self.windowKeys, what: "a [[window]]", aliases: Self.aliases["window"] ?? [:])
        var spec = WindowSpec(
            id: id, size: LayoutSize(width: size?[0] ?? 0, height: size?[1] ?? 0), level: level ?? 0,
            isKey: false, pointsPerMillimetre: pointsPerMillimetre ?? WindowSpec.defaultPointsPerMillimetre,
            display: display ?? WindowSpec.defaultDisplay, rootController: rootController)
        spec.firstResponder = firstResponder
        spec.firstResponderTraits = traits
        return (spec, key)
    }

    private func readController(_ fields: Fields) -> ControllerSpec {
        let id = readID(fields, what: "controller")
        let view = fields.string("view", required: true, expect: "the id of the controller's root [[view]]")
        let presentedBy = fields.string("presented_by", expect: "the id of the presenting [[controller]]")
        let traits = readFirstResponderTraits(fields)
        fields.rejectUnknownKeys(Self.controllerKeys, what: "a [[controller]]", aliases: Self.aliases["controller"] ?? [:])
        var spec = ControllerSpec(id: id, view: view ?? "", presentedBy: presentedBy)
        spec.firstResponderTraits = traits
        return spec
    }

    /// `can_become_first_responder` and `can_resign_first_responder` of a window, view or controller.
    private func readFirstResponderTraits(_ fields: Fields) -> FirstResponderTraitsSpec {
        let canBecome = fields.bool("can_become_first_responder")
        let canResign = fields.bool("can_resign_first_responder")
        if canResign != nil && canBecome != true && !fields.has("can_become_first_responder") {
            log.add(
                .conflict, fields.at("can_resign_first_responder"),
                "can_resign_first_responder has no effect without can_become_first_responder = true: expected both, or neither")
        }
        return FirstResponderTraitsSpec(canBecome: canBecome ?? false, canResign: canResign ?? true)
    }

    private func readView(_ fields: Fields) -> ViewSpec {
        let id = readID(fields, what: "view")
        let parent = fields.string("parent", required: true, expect: "the id of a [[window]] or of a [[view]]")
        let frame = fields.numbers(
            "frame", names: ["x", "y", "width", "height"], nonNegative: [2, 3], required: true,
            expect: "[x, y, width, height]: four finite numbers, width and height >= 0")
        let boundsOrigin = fields.numbers("bounds_origin", names: ["x", "y"], expect: "[x, y]: two finite numbers")
        let hidden = fields.bool("hidden")
        let alpha = fields.number("alpha", expect: "a number from 0 to 1", valid: { (0...1).contains($0) })
        let interactive = fields.bool("interactive")
        let clips = fields.bool("clips_to_bounds")
        let multipleTouch = fields.bool("multiple_touch")
        let exclusiveTouch = fields.bool("exclusive_touch")
        let expansion = readHitExpansion(fields)
        let policy = readHitTest(fields)
        let traits = readFirstResponderTraits(fields)
        fields.rejectUnknownKeys(Self.viewKeys, what: "a [[view]]", aliases: Self.aliases["view"] ?? [:])
        var spec = ViewSpec(
            id: id, parent: parent ?? "",
            frame: frame.map { LayoutRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
                ?? LayoutRect(x: 0, y: 0, width: 0, height: 0),
            boundsOrigin: boundsOrigin.map { LayoutPoint(x: $0[0], y: $0[1]) } ?? .zero,
            isHidden: hidden ?? false, alpha: alpha ?? 1, isUserInteractionEnabled: interactive ?? true,
            clipsToBounds: clips ?? false, isMultipleTouchEnabled: multipleTouch ?? false,
            isExclusiveTouch: exclusiveTouch ?? false, hitExpansion: expansion ?? .zero, hitTest: policy ?? .default)
        spec.firstResponderTraits = traits
        return spec
    }

    private func readHitExpansion(_ fields: Fields) -> LayoutInsets? {
        guard let node = fields.values["hit_expansion"] else { return nil }
        let path = fields.at("hit_expansion")
        let expect = "a finite number >= 0 (points on every side) or [top, left, bottom, right], each >= 0"
        switch node {
        case .integer, .float:
            return fields.checkedNumber(node, at: path, expect: expect, valid: { $0.isFinite && $0 >= 0 })
                .map(LayoutInsets.init(all:))
        case .array:
            return fields.checkedNumbers(
                node, at: path, names: ["top", "left", "bottom", "right"], nonNegative: [0, 1, 2, 3], expect: expect
            ).map { LayoutInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) }
        default:
            fields.wrongType(path, node, expect)
            return nil
        }
    }

    private enum PolicyName { case `default`, passThrough, capture, redirect, refuse }

    private func readHitTest(_ fields: Fields) -> HitTestPolicySpec? {
        let name = fields.choice(
            "hit_test",
            [("default", PolicyName.default), ("pass-through", .passThrough), ("capture", .capture), ("redirect", .redirect), ("none", .refuse)])
        let hitTestIsBad = fields.has("hit_test") && name == nil
        let target = fields.string("redirect", expect: "the id of a strict descendant of this view")
        switch name {
        case .redirect:
            guard let target else {
                if !fields.has("redirect") {
                    fields.missing("redirect", "the id of a strict descendant of this view, required by hit_test = \"redirect\"")
                }
                return nil
            }
            return .redirect(target)
        case .default, .passThrough, .capture, .refuse, nil:
            if fields.has("redirect") && !hitTestIsBad {
                let current = name == nil ? "no hit_test" : "hit_test = \(quote(fields.values["hit_test"]?.stringValue ?? ""))"
                log.add(
                    .conflict, fields.at("redirect"),
                    "redirect has no effect with \(current): expected hit_test = \"redirect\" alongside it, or no redirect")
            }
            switch name {
            case .passThrough: return .passThrough
            case .capture: return .capture
            case .refuse: return .refuse
            default: return name == nil ? nil : .default
            }
        }
    }

    private func readHandler(_ fields: Fields) -> HandlerSpec {
        let responder = fields.string(
            "responder", required: true,
            expect: "the id of a window, view, controller, the application or its delegate")
        let triggers = HandlerTrigger.allCases.map { ($0.rawValue, $0) }
        let trigger = fields.choice("on", triggers)
        if !fields.has("on") {
            fields.missing("on", "one of " + triggers.map { quote($0.0) }.joined(separator: ", "))
        }
        let action = fields.string("action", required: true, expect: "a non-empty action name")
        let payload = fields.values["payload"].flatMap { payloadValue($0, at: fields.at("payload")) }
        let passOn = fields.bool("pass_on")
        let tapCount = fields.integer("tap_count", expect: "an integer >= 1", valid: { $0 >= 1 })
        let selector = fields.string("selector", expect: "the name of the control action this handler takes")
        if trigger == .action && selector == nil && !fields.has("selector") {
            fields.missing("selector", "the name of the control action this handler takes (with on = \"action\")")
        } else if let trigger, trigger != .action, selector != nil {
            log.add(.conflict, fields.at("selector"), "selector only goes with on = \"action\": expected no selector for on = \(quote(trigger.rawValue))")
        }
        let key = readKeyName(fields, trigger: trigger)
        let subtypes = RemoteControlSubtype.allCases.map { ($0.rawValue, $0.rawValue) }
        let subtype = fields.choice("subtype", subtypes)
        if let trigger, trigger != .remoteControl, fields.has("subtype") {
            log.add(.conflict, fields.at("subtype"), "subtype only goes with on = \"remote_control\": expected no subtype for on = \(quote(trigger.rawValue))")
        }
        if let trigger, !trigger.isTouch, fields.has("tap_count") {
            log.add(.conflict, fields.at("tap_count"), "tap_count only goes with the touch methods: expected no tap_count for on = \(quote(trigger.rawValue))")
        }
        let become = fields.string("become_first_responder", expect: "the id of a window, view or controller with can_become_first_responder = true")
        let resign = fields.string("resign_first_responder", expect: "the id of a window, view or controller")
        if become != nil && resign != nil {
            log.add(
                .conflict, fields.at("resign_first_responder"),
                "become_first_responder and resign_first_responder are both set: expected at most one of them")
        }
        fields.rejectUnknownKeys(Self.handlerKeys, what: "a [[handler]]", aliases: Self.aliases["handler"] ?? [:])
        var spec = HandlerSpec(
            responder: responder ?? "", trigger: trigger ?? .touchesBegan, action: action ?? "", payload: payload,
            passesOn: passOn ?? true, tapCount: tapCount)
        spec.selector = selector
        spec.key = key
        spec.remoteControlSubtype = subtype
        spec.becomeFirstResponder = become
        spec.resignFirstResponder = resign
        return spec
    }

    /// `key`: a kernel key name from the event code table, only with a press trigger.
    private func readKeyName(_ fields: Fields, trigger: HandlerTrigger?) -> String? {
        let expect = "a kernel key name such as \"KEY_ENTER\""
        guard let name = fields.string("key", expect: expect) else { return nil }
        if let trigger, !trigger.isPress {
            log.add(.conflict, fields.at("key"), "key only goes with on = \"presses_began\", \"presses_ended\" or \"presses_cancelled\": expected no key for on = \(quote(trigger.rawValue))")
            return nil
        }
        guard EventCodes.code(named: name, type: TouchEvdev.EventType.key) != nil else {
            var message = "\(quote(name)) is not a key name: expected \(expect)"
            let upper = name.uppercased()
            if EventCodes.code(named: upper, type: TouchEvdev.EventType.key) != nil {
                message += "; did you mean \(quote(upper))?"
            } else if EventCodes.code(named: "KEY_" + upper, type: TouchEvdev.EventType.key) != nil {
                message += "; did you mean \(quote("KEY_" + upper))?"
            }
            log.add(.invalidValue, fields.at("key"), message)
            return nil
        }
        return name
    }

    private func readControl(_ fields: Fields) -> ControlLayoutSpec {
        let view = fields.string("view", required: true, expect: "the id of the [[view]] that is the control")
        let kinds = ControlLayoutSpec.Kind.allCases.map { ($0.rawValue, $0) }
        let kind = fields.choice("kind", kinds)
        if !fields.has("kind") { fields.missing("kind", "one of " + kinds.map { quote($0.0) }.joined(separator: ", ")) }
        var spec = ControlLayoutSpec(view: view ?? "", kind: kind ?? .button)
        if let b = fields.bool("enabled") { spec.isEnabled = b }
        if let b = fields.bool("on") { spec.isOn = b }
        if let n = fields.number("min") { spec.minimum = n }
        if let n = fields.number("max") { spec.maximum = n }
        if let n = fields.number("value") { spec.value = n }
        // The range is a slider's; on another kind its keys are refused below, once.
        if kind == .slider && spec.maximum <= spec.minimum {
            log.add(.conflict, fields.at("max"), "max \(spec.maximum) is not above min \(spec.minimum): expected min < max")
        } else if kind == .slider && fields.has("value") && !(spec.minimum...spec.maximum).contains(spec.value) {
            log.add(.invalidValue, fields.at("value"), "value \(spec.value) is outside the slider's range: expected a number from \(spec.minimum) to \(spec.maximum)")
        }
        if let kind {
            let own = ControlLayoutSpec.kindKeys(kind)
            for key in ["on", "min", "max", "value"] where fields.has(key) && !own.contains(key) {
                let accepts = own.isEmpty ? "no key of its own" : "only " + own.map(quote).joined(separator: ", ")
                log.add(.conflict, fields.at(key), "\(quote(key)) does not apply to a \(kind.rawValue): a \(kind.rawValue) takes \(accepts) besides view, kind, enabled and target")
            }
        }
        if let node = fields.values["target"] {
            if case .array(let items) = node {
                for (i, item) in items.enumerated() {
                    let path = fields.at("target").appending(index: i)
                    guard case .table(let values) = item else {
                        fields.wrongType(path, item, "a table (one [[control.target]] entry)")
                        continue
                    }
                    let t = Fields(log: log, path: path, values: values)
                    let events = ControlLayoutSpec.events.map { ($0, $0) }
                    let event = t.choice("event", events)
                    if !t.has("event") { t.missing("event", "a control event such as \"touch_up_inside\"") }
                    let action = t.string("action", required: true, expect: "the action name to send")
                    let target = t.string("target", expect: "a responder id (omit it to walk the responder chain from the control)")
                    t.rejectUnknownKeys(["event", "action", "target"], what: "a [[control.target]]")
                    if let event, let action { spec.targets.append(.init(event: event, action: action, target: target)) }
                }
            } else {
                fields.wrongType(fields.at("target"), node, "[[control.target]] entries (an array of tables)")
            }
        }
        fields.rejectUnknownKeys(["view", "kind", "enabled", "on", "min", "max", "value", "target"], what: "a [[control]]")
        return spec
    }

    private func readDaemon(_ fields: Fields) -> DaemonSpec {
        var spec = DaemonSpec()
        if let path = fields.string("socket", expect: "an absolute path for the socket") {
            if path.hasPrefix("/") { spec.socket = path } else {
                log.add(.invalidValue, fields.at("socket"), "\(quote(path)) is relative: expected an absolute path")
            }
        }
        spec.socketGroup = fields.string("socket_group", expect: "a group name or number")
        if let mode = fields.string("socket_mode", expect: "an octal mode such as \"0660\"") {
            if let value = UInt32(mode, radix: 8), value <= 0o777 { spec.socketMode = value } else {
                log.add(.invalidValue, fields.at("socket_mode"), "\(quote(mode)) is not a mode: expected an octal mode such as \"0660\"")
            }
        }
        for (key, keyPath) in [("allow_users", \DaemonSpec.allowUsers), ("allow_groups", \DaemonSpec.allowGroups)] {
            guard let node = fields.values[key] else { continue }
            guard case .array(let items) = node else {
                fields.wrongType(fields.at(key), node, "an array of numeric ids")
                continue
            }
            var ids: [UInt32] = []
            for (i, item) in items.enumerated() {
                if case .integer(let n) = item, n >= 0, n <= Int64(UInt32.max) { ids.append(UInt32(n)) } else {
                    fields.wrongType(fields.at(key).appending(index: i), item, "a numeric id >= 0")
                }
            }
            spec[keyPath: keyPath] = ids
        }
        fields.rejectUnknownKeys(DaemonSpec.keys, what: "[daemon]", aliases: ["path": "socket", "group": "socket_group", "mode": "socket_mode"])
        return spec
    }

    private func readGesture(_ fields: Fields) -> GestureSpec {
        let id = readID(fields, what: "gesture")
        let view = fields.string("view", required: true, expect: "the id of the [[view]] it is attached to")
        let kinds = GestureKindSpec.allCases.map { ($0.rawValue, $0) }
        let kind = fields.choice("kind", kinds)
        if !fields.has("kind") { fields.missing("kind", "one of " + kinds.map { quote($0.0) }.joined(separator: ", ")) }
        var spec = GestureSpec(id: id, view: view ?? "", kind: kind ?? .tap)
        let count = { (key: String, value: inout Int) in
            if let n = fields.integer(key, expect: "an integer from 1 to 10", valid: { (1...10).contains($0) }) { value = n }
        }
        count("taps", &spec.taps)
        count("touches", &spec.touches)
        count("min_touches", &spec.minimumTouches)
        count("max_touches", &spec.maximumTouches)
        let positive = { (key: String, value: inout Double) in
            if let n = fields.number(key, expect: "a finite number > 0", valid: { $0.isFinite && $0 > 0 }) { value = n }
        }
        positive("duration", &spec.duration)
        positive("movement_mm", &spec.movementMillimetres)
        positive("threshold_mm", &spec.thresholdMillimetres)
        positive("distance_mm", &spec.distanceMillimetres)
        positive("max_duration", &spec.maximumDuration)
        positive("angle_degrees", &spec.angleDegrees)
        if let n = fields.number("scale", expect: "a finite number > 1", valid: { $0.isFinite && $0 > 1 }) { spec.scale = n }
        if spec.minimumTouches > spec.maximumTouches {
            log.add(.conflict, fields.at("min_touches"), "min_touches \(spec.minimumTouches) is more than max_touches \(spec.maximumTouches): expected min_touches <= max_touches")
        }
        func stringList(_ key: String, expect: String) -> [String]? {
            guard let node = fields.values[key] else { return nil }
            guard case .array(let items) = node else {
                fields.wrongType(fields.at(key), node, expect)
                return nil
            }
            var result: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let text) = item, !text.isEmpty else {
                    fields.wrongType(fields.at(key).appending(index: i), item, "a non-empty string")
                    return nil
                }
                result.append(text)
            }
            return result
        }
        if let directions = stringList("directions", expect: "an array of directions: \"left\", \"right\", \"up\", \"down\"") {
            for (i, d) in directions.enumerated() where !GestureSpec.directionNames.contains(d) {
                log.add(.invalidValue, fields.at("directions").appending(index: i), "\(quote(d)) is not a direction: expected \"left\", \"right\", \"up\" or \"down\"")
            }
            if directions.isEmpty { log.add(.invalidValue, fields.at("directions"), "no direction: expected at least one") }
            spec.directions = directions
        }
        spec.requiresFailureOf = stringList("requires_failure_of", expect: "an array of gesture ids") ?? []
        spec.simultaneousWith = stringList("simultaneous_with", expect: "an array of gesture ids") ?? []
        if let b = fields.bool("cancels_touches_in_view") { spec.cancelsTouchesInView = b }
        if let b = fields.bool("delays_touches_began") { spec.delaysTouchesBegan = b }
        if let b = fields.bool("delays_touches_ended") { spec.delaysTouchesEnded = b }
        spec.action = fields.string("action", expect: "a non-empty action name")
        spec.payload = fields.values["payload"].flatMap { payloadValue($0, at: fields.at("payload")) }
        if let kind {
            let own = GestureSpec.kindKeys(kind)
            for key in fields.values.keys.sorted() where GestureSpec.keys.contains(key) && !GestureSpec.commonKeys.contains(key) && !own.contains(key) {
                log.add(.conflict, fields.at(key), "\(quote(key)) does not apply to a \(kind.rawValue) gesture: expected only \(own.map(quote).joined(separator: ", ")) besides the keys every gesture takes")
            }
        }
        fields.rejectUnknownKeys(GestureSpec.keys, what: "a [[gesture]]", aliases: [
            "cancelsTouchesInView": "cancels_touches_in_view", "delaysTouchesBegan": "delays_touches_began",
            "delaysTouchesEnded": "delays_touches_ended", "numberOfTapsRequired": "taps", "numberOfTouchesRequired": "touches",
            "minimumPressDuration": "duration", "type": "kind",
        ])
        return spec
    }

    /// Converts a payload, refusing `inf` and `nan` (JSON has no spelling for them).
    private func payloadValue(_ node: TOMLNode, at path: TOMLPath) -> PayloadValue? {
        switch node {
        case .string(let text): return .string(text)
        case .integer(let value): return .integer(value)
        case .float(let value):
            guard value.isFinite else {
                log.add(.invalidValue, path, "\(node.shortText) cannot be sent as JSON: expected a finite number")
                return nil
            }
            return .double(value)
        case .bool(let value): return .bool(value)
        case .dateTime(let text, _): return .string(text)
        case .array(let items):
            let values = items.enumerated().map { payloadValue($0.element, at: path.appending(index: $0.offset)) }
            let kept = values.compactMap { $0 }
            return kept.count == values.count ? .array(kept) : nil
        case .table(let entries):
            var result: [String: PayloadValue] = [:]
            var failed = false
            for key in entries.keys.sorted() {
                guard let entry = entries[key] else { continue }
                if let value = payloadValue(entry, at: path.appending(key)) { result[key] = value } else { failed = true }
            }
            return failed ? nil : .table(result)
        }
    }

    private func readDevice(_ fields: Fields) -> DeviceSpec {
        var match = DeviceMatchSpec()
        if let matchFields = fields.table("match", expect: "a table of match criteria, e.g. match.kind = \"touchscreen\"") {
            match = readMatch(matchFields)
        }
        // Key devices and accelerometers may leave the window out: their events go to the key window.
        let window = fields.string(
            "window", required: match.kind.isTouch,
            expect: match.kind.isTouch ? "the id of the [[window]] the device feeds" : "the id of the [[window]] whose first responder gets the events")
        let region = fields.numbers(
            "region", names: ["x", "y", "width", "height"], nonNegative: [2, 3],
            expect: "[x, y, width, height] in window points: four finite numbers, width and height >= 0")
        let rotation = readRotation(fields)
        let swapAxes = fields.bool("swap_axes")
        let invertX = fields.bool("invert_x")
        let invertY = fields.bool("invert_y")
        let calibration = fields.numbers(
            "calibration", names: ["a", "b", "c", "d", "e", "f"],
            expect: "6 finite numbers [a, b, c, d, e, f] (a libinput calibration matrix)")
        let udevCalibration = fields.bool("udev_calibration")
        let pointercal = fields.string("pointercal", expect: "the path of a tslib pointercal file")
        if fields.has("calibration") && fields.has("pointercal") {
            log.add(
                .conflict, fields.at("pointercal"),
                "pointercal and calibration are both set: expected at most one of them")
        }
        let grab = fields.bool("grab")
        let palmPressure = fields.integer("palm_pressure", expect: "an integer >= 0 (device units)", valid: { $0 >= 0 })
        let palmTouchMajor = fields.integer(
            "palm_touch_major", expect: "an integer >= 0 (device units)", valid: { $0 >= 0 })
        let shake = readShake(fields, kind: match.kind)
        fields.rejectUnknownKeys(Self.deviceKeys, what: "a [[device]]", aliases: Self.aliases["device"] ?? [:])
        var spec = DeviceSpec(
            match: match, window: window ?? "",
            region: region.map { LayoutRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) },
            rotation: rotation ?? .none, swapAxes: swapAxes ?? false, invertX: invertX ?? false,
            invertY: invertY ?? false, calibration: calibration, usesUdevCalibration: udevCalibration ?? true,
            pointercal: pointercal.map(resolve), grab: grab ?? true, palmPressure: palmPressure,
            palmTouchMajor: palmTouchMajor)
        spec.shake = shake
        return spec
    }

    /// The shake settings, which only an accelerometer's entry may have.
    private func readShake(_ fields: Fields, kind: DeviceKindSpec) -> ShakeSpec {
        var shake = ShakeSpec()
        let positive = { (key: String, unit: String) in
            fields.number(key, expect: "a finite number > 0 (\(unit))", valid: { $0.isFinite && $0 > 0 })
        }
        if let n = positive("shake_threshold_g", "g, beyond gravity") { shake.thresholdG = n }
        if let n = positive("shake_duration", "seconds") { shake.minimumDuration = n }
        if let n = positive("shake_settle", "seconds") { shake.settle = n }
        for key in Self.shakeKeys where fields.has(key) && kind != .accelerometer {
            log.add(.conflict, fields.at(key), "\(key) only goes with match.kind = \"accelerometer\": expected no \(key) for kind \(quote(kind.rawValue))")
        }
        return shake
    }

    private func readRotation(_ fields: Fields) -> Rotation? {
        let expect = "0, 90, 180 or 270 (degrees clockwise)"
        guard let node = fields.values["rotation"] else { return nil }
        guard let degrees = fields.checkedNumber(node, at: fields.at("rotation"), expect: expect, valid: { $0.isFinite })
        else { return nil }
        guard let whole = Int(exactly: degrees), let rotation = Rotation(rawValue: whole) else {
            log.add(.invalidValue, fields.at("rotation"), "\(node.shortText) is not a rotation: expected \(expect)")
            return nil
        }
        return rotation
    }

    private func readMatch(_ fields: Fields) -> DeviceMatchSpec {
        let kind = fields.choice("kind", DeviceKindSpec.allCases.map { ($0.rawValue, $0) })
        var name = fields.string("name", expect: "a glob over the device name (* ? [...])")
        if let pattern = name, let problem = Glob.problem(in: pattern) {
            log.add(
                .invalidValue, fields.at("name"),
                "\(quote(pattern)) is not a valid glob (\(problem)): expected a glob over the device name (* ? [...])")
            name = nil
        }
        var usb: USBID?
        let usbExpect = "\"vvvv:pppp\": the USB vendor and product ids, four hexadecimal digits each"
        if let text = fields.string("usb", expect: usbExpect) {
            usb = USBID(text)
            if usb == nil {
                log.add(.invalidValue, fields.at("usb"), "\(quote(text)) is not a USB id: expected \(usbExpect)")
            }
        }
        let idPath = fields.string("id_path", expect: "udev's ID_PATH of the device")
        let idSerial = fields.string("id_serial", expect: "udev's ID_SERIAL of the device")
        let devnode = fields.string("devnode", expect: "a device node path such as /dev/input/event5")
        fields.rejectUnknownKeys(Self.matchKeys, what: "match")
        return DeviceMatchSpec(
            kind: kind ?? .any, name: name, usb: usb, idPath: idPath, idSerial: idSerial, devnode: devnode)
    }

    /// A relative path resolved against the directory of the layout file.
    private func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}

extension TOMLNode {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
