import TouchCore

/// JSON descriptions of the tree and of hit-tests, for replies and the CLI.
public enum TreeDescription {
    /// Every responder: windows (with their views depth first), controllers, application and delegate.
    /// Each window says which responder is its first responder, and that responder has
    /// `is_first_responder: true`; a view that is one of `controls` has `control` (``control(_:)``).
    public static func views(_ tree: ViewTree, firstResponders: [ResponderID: ResponderID] = [:], controls: [ControlSpec] = []) -> JSONValue {
        var items: [JSONValue] = []
        let first = Set(firstResponders.values)
        var controlByView: [ResponderID: ControlSpec] = [:]
        for spec in controls { controlByView[spec.view] = spec }
        func mark(_ item: JSONValue, _ id: ResponderID) -> JSONValue {
            guard case .object(var members) = item else { return item }
            members.append(("is_first_responder", .bool(first.contains(id))))
            if let spec = controlByView[id] { members.append(("control", control(spec))) }
            return .object(members)
        }
        for window in tree.windowIDs {
            let w = tree.windowProperties(of: window)!
            items.append(mark(
                .object([
                    ("id", .string(window.rawValue)), ("kind", "window"),
                    ("size", .array([.double(w.size.width), .double(w.size.height)])), ("level", .double(w.level)),
                    ("key", .bool(tree.keyWindow == window)), ("points_per_mm", .double(w.pointsPerMillimetre)),
                    ("refresh_hz", .double(w.refreshRate)), ("display", .string(w.display)), ("root_controller", w.rootController.map { .string($0.rawValue) } ?? .null),
                    ("first_responder", firstResponders[window].map { .string($0.rawValue) } ?? .null),
                ]), window))
            for view in tree.views(in: window) {
                let p = tree.properties(of: view)!
                items.append(mark(
                    .object([
                        ("id", .string(view.rawValue)), ("kind", "view"),
                        ("parent", .string(tree.superview(of: view)!.rawValue)),
                        ("frame", .array([p.frame.minX, p.frame.minY, p.frame.width, p.frame.height].map { .double($0) })),
                        ("hidden", .bool(p.isHidden)), ("alpha", .double(p.alpha)), ("interactive", .bool(p.isUserInteractionEnabled)),
                        ("class", .string(p.viewClass.rawValue)), ("transform", transform(p.transform)),
                        ("next_responder", p.nextResponder.map { .string($0.rawValue) } ?? .null),
                        ("controller", tree.controller(ofRootView: view).map { .string($0.rawValue) } ?? .null),
                    ]), view))
            }
        }
        for controller in tree.controllerIDs {
            let c = tree.controllerProperties(of: controller)!
            items.append(mark(
                .object([
                    ("id", .string(controller.rawValue)), ("kind", "controller"), ("view", .string(c.view.rawValue)),
                    ("presented_by", c.presentedBy.map { .string($0.rawValue) } ?? .null),
                    ("next_responder", c.nextResponder.map { .string($0.rawValue) } ?? .null),
                ]), controller))
        }
        items.append(.object([("id", .string(tree.applicationID.rawValue)), ("kind", "application")]))
        items.append(.object([("id", .string(tree.appDelegateID.rawValue)), ("kind", "app_delegate")]))
        return .array(items)
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
