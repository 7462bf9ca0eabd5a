import TouchCore

/// `[[window]]`, `[[controller]]` and `[[view]]`, read into the core's properties.
extension LayoutReader {
    static let firstResponderKeys = ["can_become_first_responder", "can_resign_first_responder"]
    static let windowKeys =
        [
            "id", "size", "level", "key", "points_per_mm", "display", "root_controller", "first_responder", "hidden", "interactive",
            "hit_test", "refresh_hz", "forward",
        ]
        + firstResponderKeys
    static let controllerKeys = ["id", "view", "presented_by", "next_responder"] + firstResponderKeys
    static let viewKeys = [
        "id", "parent", "frame", "bounds_origin", "hidden", "alpha", "interactive", "clips_to_bounds",
        "multiple_touch", "exclusive_touch", "hit_expansion", "hit_test", "redirect", "class", "transform", "next_responder",
        "forward",
    ] + firstResponderKeys

    /// UIKit's names of the first-responder properties, for "did you mean".
    static let firstResponderAliases = [
        "canBecomeFirstResponder": "can_become_first_responder", "canResignFirstResponder": "can_resign_first_responder",
    ]
    /// Settings spelt as keys of their own, for "did you mean": each names the `hit_test` value.
    static let hitTestAliases = [
        "pass_through": #"hit_test = "pass-through""#, "capture": #"hit_test = "capture""#,
        "captures_touches": #"hit_test = "capture""#, "refuse": #"hit_test = "none""#,
    ]
    static let windowAliases = [
        "rootViewController": "root_controller", "windowLevel": "level", "isKeyWindow": "key",
        "points_per_millimetre": "points_per_mm", "points_per_millimeter": "points_per_mm",
        "frame": "size", "firstResponder": "first_responder", "initial_first_responder": "first_responder",
        "userInteractionEnabled": "interactive", "hitTestPolicy": "hit_test",
        "refresh_rate": "refresh_hz", "maximumFramesPerSecond": "refresh_hz", "fps": "refresh_hz",
    ].merging(firstResponderAliases) { a, _ in a }.merging(hitTestAliases) { a, _ in a }
    static let controllerAliases = [
        "presentingViewController": "presented_by", "root_view": "view", "next": "next_responder", "nextResponder": "next_responder",
    ]
        .merging(firstResponderAliases) { a, _ in a }
    static let viewAliases = [
        "userInteractionEnabled": "interactive", "multipleTouchEnabled": "multiple_touch",
        "bounds": "bounds_origin", "superview": "parent", "hitTestPolicy": "hit_test", "opacity": "alpha",
        "expand": "hit_expansion", "expansion": "hit_expansion", "hit_slop": "hit_expansion", "touch_expansion": "hit_expansion",
        "hit_outset": "hit_expansion", "hitTestEdgeInsets": "hit_expansion", "touch_area": "hit_expansion", "hit_area": "hit_expansion",
        "touch_margin": "hit_expansion", "hit_margin": "hit_expansion", "hit_padding": "hit_expansion", "touch_padding": "hit_expansion",
        "next": "next_responder", "nextResponder": "next_responder", "kind": "class", "type": "class",
        "translate": "transform", "rotate": "transform", "rotation": "transform", "scale": "transform",
    ].merging(firstResponderAliases) { a, _ in a }.merging(hitTestAliases) { a, _ in a }

    /// The windows, controllers and views, each array within its budget.
    func readResponders(_ top: Fields, into draft: inout LayoutDraft) {
        draft.hasWindowKey = top.values["window"] != nil
        for (index, fields) in entries("window", in: top) {
            let (window, key) = readWindow(fields)
            draft.windows.append(Entry(index: index, spec: window))
            draft.windowKeyFlags.append(key)
        }
        for (index, fields) in entries("controller", in: top) {
            draft.controllers.append(Entry(index: index, spec: readController(fields)))
        }
        for (index, fields) in entries("view", in: top, limit: Limits.maximumViews) {
            draft.views.append(Entry(index: index, spec: readView(fields)))
        }
    }

    /// A window, and its `key` as written (the validator settles which window is key).
    private func readWindow(_ fields: Fields) -> (WindowSpec, Bool?) {
        let id = readID(fields, what: "window")
        let sides = [NumberElement("width", Limits.windowLength), NumberElement("height", Limits.windowLength)]
        let size = fields.numbers("size", sides, required: true, expect: "[width, height] in points")
        var properties = WindowProperties(size: Size(width: size?[0] ?? 1, height: size?[1] ?? 1))
        if let level = fields.number("level", in: Limits.plainNumber) { properties.level = level }
        let key = fields.bool("key")
        if let n = fields.number("points_per_mm", in: Limits.pointsPerMillimetre) { properties.pointsPerMillimetre = n }
        properties.refreshRate =
            fields.number("refresh_hz", in: Limits.refreshRate, zeroOrAtLeast: Limits.minimumRefreshRate) ?? WindowProperties.layoutRefreshRate
        if let display = fields.identifier("display", expect: "a non-empty display name") { properties.display = display }
        properties.rootController = reference(fields, "root_controller", expect: "the id of a [[controller]]")
        if let hidden = fields.bool("hidden") { properties.isHidden = hidden }
        if let interactive = fields.bool("interactive") { properties.isUserInteractionEnabled = interactive }
        if let policy = fields.choice(
            "hit_test", [("default", HitTestPolicy.default), ("pass-through", .passThrough), ("capture", .capture), ("none", .refuse)])
        {
            properties.hitTestPolicy = policy
        }
        let firstResponder = reference(
            fields, "first_responder", expect: "the id of a responder of this window with can_become_first_responder = true")
        let traits = readFirstResponderTraits(fields, of: id)
        fields.rejectUnknownKeys(Self.windowKeys, what: "a [[window]]", aliases: Self.windowAliases)
        var window = WindowSpec(id: id, properties: properties, firstResponder: firstResponder, firstResponderTraits: traits)
        window.forward = readForward(fields)
        return (window, key)
    }

    private func readController(_ fields: Fields) -> ControllerSpec {
        let id = readID(fields, what: "controller")
        let view = reference(fields, "view", required: true, expect: "the id of the controller's root [[view]]")
        let presentedBy = reference(fields, "presented_by", expect: "the id of the presenting [[controller]]")
        let next = reference(fields, "next_responder", expect: Self.nextResponderExpectation)
        let traits = readFirstResponderTraits(fields, of: id)
        fields.rejectUnknownKeys(Self.controllerKeys, what: "a [[controller]]", aliases: Self.controllerAliases)
        return ControllerSpec(
            id: id, properties: ControllerProperties(view: view ?? "", presentedBy: presentedBy, nextResponder: next),
            firstResponderTraits: traits)
    }

    /// `can_become_first_responder` and `can_resign_first_responder` of a window, view or
    /// controller: nil when the entry has neither (UIKit's defaults then apply).
    private func readFirstResponderTraits(_ fields: Fields, of id: ResponderID) -> FirstResponderTraits? {
        let canBecome = fields.bool("can_become_first_responder")
        let canResign = fields.bool("can_resign_first_responder")
        if canResign != nil && canBecome != true && (canBecome != nil || !fields.has("can_become_first_responder")) {
            log.add(
                .conflict, fields.at("can_resign_first_responder"),
                "can_resign_first_responder has no effect without can_become_first_responder = true: expected both, or neither")
        }
        guard canBecome != nil || canResign != nil else { return nil }
        return FirstResponderTraits(responder: id, canBecome: canBecome ?? false, canResign: canResign ?? true)
    }

    private func readView(_ fields: Fields) -> ViewSpec {
        let id = readID(fields, what: "view")
        let parent = reference(fields, "parent", required: true, expect: "the id of a [[window]] or of a [[view]]")
        let frame = fields.numbers("frame", NumberElement.rectangle, required: true, expect: "[x, y, width, height] in points")
        let viewClass = fields.choice("class", ViewClass.allCases.map { ($0.rawValue, $0) }) ?? .view
        var properties = viewClass.defaults(frame: frame.map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } ?? .zero)
        if let transform = readTransform(fields) { properties.transform = transform }
        properties.nextResponder = reference(fields, "next_responder", expect: Self.nextResponderExpectation)
        if let origin = fields.numbers("bounds_origin", NumberElement.point, expect: "[x, y] in points") {
            properties.boundsOrigin = Point(x: origin[0], y: origin[1])
        }
        if let hidden = fields.bool("hidden") { properties.isHidden = hidden }
        if let alpha = fields.number("alpha", in: Limits.alpha) { properties.alpha = alpha }
        if let interactive = fields.bool("interactive") { properties.isUserInteractionEnabled = interactive }
        if let clips = fields.bool("clips_to_bounds") { properties.clipsToBounds = clips }
        if let multiple = fields.bool("multiple_touch") { properties.isMultipleTouchEnabled = multiple }
        if let exclusive = fields.bool("exclusive_touch") { properties.isExclusiveTouch = exclusive }
        if let expansion = readHitExpansion(fields) { properties.hitExpansion = expansion }
        if let policy = readHitTest(fields) { properties.hitTestPolicy = policy }
        let traits = readFirstResponderTraits(fields, of: id)
        fields.rejectUnknownKeys(Self.viewKeys, what: "a [[view]]", aliases: Self.viewAliases)
        var view = ViewSpec(id: id, parent: parent ?? "", properties: properties, firstResponderTraits: traits)
        view.forward = readForward(fields)
        return view
    }

    /// `hit_expansion`: one length for every side, or four.
    private func readHitExpansion(_ fields: Fields) -> EdgeInsets? {
        guard let node = fields.values["hit_expansion"] else { return nil }
        let path = fields.at("hit_expansion")
        switch node {
        case .array:
            let sides = ["top", "left", "bottom", "right"].map { NumberElement($0, Limits.length) }
            return fields.checkedNumbers(node, at: path, sides, expect: "[top, left, bottom, right] in points")
                .map { EdgeInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) }
        default:
            return fields.checkedNumber(node, at: path, in: Limits.length).map(EdgeInsets.init(all:))
        }
    }

    private enum PolicyName { case `default`, passThrough, capture, redirect, redirectAnywhere, redirectInsideTarget, refuse }

    /// `hit_test`, with `redirect` (required by `"redirect"` and `"redirect-anywhere"`, refused
    /// otherwise).
    private func readHitTest(_ fields: Fields) -> HitTestPolicy? {
        let name = fields.choice(
            "hit_test",
            [
                ("default", PolicyName.default), ("pass-through", .passThrough), ("capture", .capture), ("redirect", .redirect),
                ("redirect-anywhere", .redirectAnywhere), ("redirect-inside-target", .redirectInsideTarget), ("none", .refuse),
            ])
        let hitTestIsBad = fields.has("hit_test") && name == nil
        let redirects = name == .redirect || name == .redirectAnywhere || name == .redirectInsideTarget
        let target = reference(fields, "redirect", expect: "the id of a strict descendant of this view")
        if !redirects && fields.has("redirect") && !hitTestIsBad {
            let current = name == nil ? "no hit_test" : "hit_test = \(quote(fields.values["hit_test"]?.stringValue ?? ""))"
            log.add(
                .conflict, fields.at("redirect"),
                "redirect has no effect with \(current): expected hit_test = \"redirect\", \"redirect-anywhere\" or \"redirect-inside-target\" alongside it, or no redirect")
        }
        if redirects && target == nil && !fields.has("redirect") {
            let value = fields.values["hit_test"]?.stringValue ?? "redirect"
            fields.missing("redirect", "the id of a strict descendant of this view, required by hit_test = \"\(value)\"")
        }
        switch name {
        case .redirect: return target.map { .redirect($0) }
        case .redirectAnywhere: return target.map { .redirectAnywhere($0) }
        case .redirectInsideTarget: return target.map { .redirectInsideTarget($0) }
        case .default: return .default
        case .passThrough: return .passThrough
        case .capture: return .capture
        case .refuse: return .refuse
        case nil: return nil
        }
    }
}
