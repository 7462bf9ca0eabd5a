import TouchCore

/// JSON descriptions of the tree and of hit-tests, for replies and the CLI.
public enum TreeDescription {
    /// Every responder: windows (with their views depth first), controllers, gesture recognizers
    /// (`recognizers`, each with its state from `states`), application and delegate. Each window
    /// says which responder is its first responder, and that responder has `is_first_responder:
    /// true`; a view that is one of `controls` has `control` (``control(_:)``). Every property a
    /// layout or a `set` request can give a window or a view is there, under the layout's key.
    public static func views(
        _ tree: ViewTree, firstResponders: [ResponderID: ResponderID] = [:], controls: [ControlSpec] = [],
        recognizers: [GestureRecognizerSpec] = [], states: [ResponderID: GestureState] = [:]
    ) -> JSONValue {
        var items: [JSONValue] = []
        let first = Set(firstResponders.values)
        var controlByView: [ResponderID: ControlSpec] = [:]
        for spec in controls { controlByView[spec.view] = spec }
        var recognizersByView: [ResponderID: [ResponderID]] = [:]
        for spec in recognizers { recognizersByView[spec.view, default: []].append(spec.id) }
        func mark(_ members: [(String, JSONValue)], _ id: ResponderID) -> JSONValue {
            var members = members
            members.append(("is_first_responder", .bool(first.contains(id))))
            if let spec = controlByView[id] { members.append(("control", control(spec))) }
            return .object(members)
        }
        for window in tree.windowIDs {
            guard let w = tree.windowProperties(of: window) else { continue }
            items.append(mark(windowMembers(window, w, tree: tree, firstResponder: firstResponders[window]), window))
            for view in tree.views(in: window) {
                guard let p = tree.properties(of: view) else { continue }
                var members = viewMembers(view, p, tree: tree)
                members.append(("gesture_recognizers", .array((recognizersByView[view] ?? []).map { .string($0.rawValue) })))
                items.append(mark(members, view))
            }
        }
        for controller in tree.controllerIDs {
            guard let c = tree.controllerProperties(of: controller) else { continue }
            items.append(mark(
                [
                    ("id", .string(controller.rawValue)), ("kind", "controller"), ("view", .string(c.view.rawValue)),
                    ("presented_by", c.presentedBy.map { .string($0.rawValue) } ?? .null),
                    ("next_responder", c.nextResponder.map { .string($0.rawValue) } ?? .null),
                ], controller))
        }
        items += recognizers.map { recognizer($0, state: states[$0.id]) }
        items.append(.object([("id", .string(tree.applicationID.rawValue)), ("kind", "application")]))
        items.append(.object([("id", .string(tree.appDelegateID.rawValue)), ("kind", "app_delegate")]))
        return .array(items)
    }

    /// A window's members in `views`: one per layout key.
    static func windowMembers(_ window: ResponderID, _ w: WindowProperties, tree: ViewTree, firstResponder: ResponderID?) -> [(String, JSONValue)] {
        [
            ("id", .string(window.rawValue)), ("kind", "window"),
            ("size", .array([.double(w.size.width), .double(w.size.height)])), ("level", .double(w.level)),
            ("key", .bool(tree.keyWindow == window)), ("points_per_mm", .double(w.pointsPerMillimetre)),
            ("refresh_hz", .double(w.refreshRate)), ("display", .string(w.display)),
            ("root_controller", w.rootController.map { .string($0.rawValue) } ?? .null),
            ("first_responder", firstResponder.map { .string($0.rawValue) } ?? .null),
            ("hidden", .bool(w.isHidden)), ("interactive", .bool(w.isUserInteractionEnabled)),
        ] + hitTestMembers(w.hitTestPolicy)
    }

    /// A view's members in `views`: one per layout key (and `set` property), `hit_expansion` as
    /// `[top, left, bottom, right]`.
    static func viewMembers(_ view: ResponderID, _ p: ViewProperties, tree: ViewTree) -> [(String, JSONValue)] {
        let e = p.hitExpansion
        return [
            ("id", .string(view.rawValue)), ("kind", "view"),
            ("parent", tree.superview(of: view).map { .string($0.rawValue) } ?? .null),
            ("frame", .array([p.frame.minX, p.frame.minY, p.frame.width, p.frame.height].map { .double($0) })),
            ("bounds_origin", .array([.double(p.boundsOrigin.x), .double(p.boundsOrigin.y)])),
            ("hidden", .bool(p.isHidden)), ("alpha", .double(p.alpha)), ("interactive", .bool(p.isUserInteractionEnabled)),
            ("clips_to_bounds", .bool(p.clipsToBounds)), ("multiple_touch", .bool(p.isMultipleTouchEnabled)),
            ("exclusive_touch", .bool(p.isExclusiveTouch)),
            ("hit_expansion", .array([e.top, e.left, e.bottom, e.right].map { .double($0) })),
            ("class", .string(p.viewClass.rawValue)), ("transform", transform(p.transform)),
            ("next_responder", p.nextResponder.map { .string($0.rawValue) } ?? .null),
        ] + hitTestMembers(p.hitTestPolicy) + [
            ("controller", tree.controller(ofRootView: view).map { .string($0.rawValue) } ?? .null),
        ]
    }

    /// `hit_test` as the layout spells it, and `redirect` (the view a redirect goes to, else null).
    static func hitTestMembers(_ policy: HitTestPolicy) -> [(String, JSONValue)] {
        let (name, redirect): (String, ResponderID?) =
            switch policy {
            case .default: ("default", nil)
            case .passThrough: ("pass-through", nil)
            case .capture: ("capture", nil)
            case .redirect(let target): ("redirect", target)
            case .redirectAnywhere(let target): ("redirect-anywhere", target)
            case .redirectInsideTarget(let target): ("redirect-inside-target", target)
            case .refuse: ("none", nil)
            }
        return [("hit_test", .string(name)), ("redirect", redirect.map { .string($0.rawValue) } ?? .null)]
    }

    /// A gesture recognizer in `views`: its view, kind and settings under the layout's keys, and
    /// its state now.
    public static func recognizer(_ spec: GestureRecognizerSpec, state: GestureState?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(spec.id.rawValue)), ("kind", "gesture_recognizer"), ("view", .string(spec.view.rawValue)),
            ("type", .string(spec.kind.name)),
        ]
        members += kindSettings(spec.kind)
        members += [
            ("cancels_touches_in_view", .bool(spec.cancelsTouchesInView)), ("delays_touches_began", .bool(spec.delaysTouchesBegan)),
            ("delays_touches_ended", .bool(spec.delaysTouchesEnded)),
            ("requires_failure_of", .array(spec.requiresFailureOf.map { .string($0.rawValue) })),
            ("simultaneous_with", .array(spec.recognizesSimultaneouslyWith.map { .string($0.rawValue) })),
            ("action", spec.action.map { .string($0) } ?? .null), ("payload", spec.payload),
            ("state", state.map { .string($0.rawValue) } ?? .null),
        ]
        return .object(members)
    }

    /// A swipe's directions as the layout names them.
    static func swipeDirectionNames(_ directions: SwipeDirections) -> [String] {
        let named: [(SwipeDirections, String)] = [(.left, "left"), (.right, "right"), (.up, "up"), (.down, "down")]
        return named.filter { directions.contains($0.0) }.map(\.1)
    }

    /// A recognizer kind's settings under the layout's keys.
    static func kindSettings(_ kind: GestureKind) -> [(String, JSONValue)] {
        func int(_ n: Int) -> JSONValue { .int(Int64(n)) }
        switch kind {
        case .tap(let taps, let touches): return [("taps", int(taps)), ("touches", int(touches))]
        case .longPress(let duration, let movement, let touches):
            return [("touches", int(touches)), ("duration", .double(duration.seconds)), ("movement_mm", .double(movement.value))]
        case .pan(let minimum, let maximum, let threshold):
            return [("min_touches", int(minimum)), ("max_touches", int(maximum)), ("threshold_mm", .double(threshold.value))]
        case .swipe(let directions, let touches, let distance, let duration):
            return [
                ("directions", .array(swipeDirectionNames(directions).map { .string($0) })), ("touches", int(touches)), ("distance_mm", .double(distance.value)),
                ("max_duration", .double(duration.seconds)),
            ]
        case .pinch(let threshold): return [("scale", .double(threshold))]
        case .rotation(let radians): return [("angle_degrees", .double(radians * 180 / Double.pi))]
        }
    }

    /// A view's transform as a `set` request writes it: `translate`, `rotate` (degrees), `scale`.
    public static func transform(_ t: ViewTransform) -> JSONValue {
        .object([
            ("translate", .array([.double(t.translation.x), .double(t.translation.y)])), ("rotate", .double(t.rotation)),
            ("scale", .array([.double(t.scaleX), .double(t.scaleY)])),
        ])
    }

    /// A control as it is now: its kind, whether it is enabled, and a toggle's or slider's state
    /// (`value`; a slider's `min`, `max`, `continuous` and `step` when it has one).
    public static func control(_ spec: ControlSpec) -> JSONValue {
        var members: [(String, JSONValue)] = [("view", .string(spec.view.rawValue)), ("kind", .string(spec.kind.name)), ("enabled", .bool(spec.isEnabled))]
        switch spec.kind {
        case .button: break
        case .toggle(let isOn): members.append(("value", .bool(isOn)))
        case .slider(let minimum, let maximum, let value, let step, let isContinuous):
            members += [("value", .double(value)), ("min", .double(minimum)), ("max", .double(maximum)), ("continuous", .bool(isContinuous))]
            if let step { members.append(("step", .double(step))) }
        }
        return .object(members)
    }

    /// A hit-test's answer with its trace and the hit view's responder chain.
    public static func hitTest(_ result: HitTestResult, tree: ViewTree) -> JSONValue {
        let trace: [JSONValue] = result.trace.map { step in
            switch step.kind {
            case .enter(let point):
                .object([("view", .string(step.view.rawValue)), ("step", "enter"), ("point", MessageEncoder.point(point))])
            case .result(let hit, let outcome):
                .object([
                    ("view", .string(step.view.rawValue)), ("step", "result"), ("result", hit.map { .string($0.rawValue) } ?? .null),
                    ("reason", .string(outcome.description)),
                ])
            }
        }
        let chain = result.view.map { tree.responderChain(from: $0) } ?? []
        return .object([
            ("window", .string(result.window.rawValue)), ("view", result.view.map { .string($0.rawValue) } ?? .null),
            ("path", .array(result.view.map { tree.path(to: $0) }?.map { .string($0.rawValue) } ?? [])),
            ("point", MessageEncoder.point(result.pointInWindow)),
            ("point_in_view", result.pointInView.map(MessageEncoder.point) ?? .null),
            ("responder_chain", .array(chain.map { .string($0.rawValue) })), ("trace", .array(trace)),
        ])
    }

    /// The hit-test trace as readable lines, in seed 001's style, indented by depth.
    public static func traceLines(_ result: HitTestResult) -> [String] {
        var lines: [String] = []
        var depth = 0
        for step in result.trace {
            switch step.kind {
            case .enter(let point):
                lines.append(String(repeating: "  ", count: depth) + "→ \(step.view) enter at \(point)")
                depth += 1
            case .result(let hit, let outcome):
                depth -= 1
                lines.append(String(repeating: "  ", count: depth) + "← \(step.view) result: \(hit?.rawValue ?? "nil") (\(outcome))")
            }
        }
        return lines
    }
}
