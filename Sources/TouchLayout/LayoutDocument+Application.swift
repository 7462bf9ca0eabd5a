import TouchCore

extension LayoutDocument {
    /// The core's view tree, handlers and settings for this layout: what the application runs.
    ///
    /// Views are added so that every parent comes before its children, and siblings keep their
    /// order in the file (z-order). The document is already validated, so building cannot fail on a
    /// layout the loader accepted; a failure here is reported as a ``LayoutErrors`` all the same.
    public func makeApplication(file: String = "layout") throws(LayoutErrors) -> Application {
        do {
            return Application(
                tree: try makeTree(), handlers: makeHandlers(), gestureRecognizers: makeGestureRecognizers(), controls: makeControls(),
                settings: makeSettings(), firstResponderTraits: makeFirstResponderTraits(),
                initialFirstResponders: windows.compactMap { $0.firstResponder.map { ResponderID($0) } })
        } catch {
            throw LayoutErrors([
                LayoutIssue(kind: .invalidValue, file: file, line: nil, column: nil, keyPath: "", id: nil, message: error.description)
            ])
        }
    }

    /// The view tree alone.
    public func makeTree() throws(ViewTreeError) -> ViewTree {
        var tree = ViewTree(applicationID: ResponderID(application.id), appDelegateID: ResponderID(application.delegate))
        for window in windows {
            try tree.addWindow(
                ResponderID(window.id),
                WindowProperties(
                    size: Size(width: window.size.width, height: window.size.height), level: window.level,
                    isKey: window.isKey, pointsPerMillimetre: window.pointsPerMillimetre, display: window.display))
        }
        var children: [String: [ViewSpec]] = [:]
        for view in views { children[view.parent, default: []].append(view) }
        func addSubtree(of parent: String) throws(ViewTreeError) {
            for view in children[parent] ?? [] {
                try tree.addView(ResponderID(view.id), parent: ResponderID(parent), view.coreProperties)
                try addSubtree(of: view.id)
            }
        }
        for window in windows { try addSubtree(of: window.id) }
        for controller in controllers {
            try tree.addController(
                ResponderID(controller.id),
                ControllerProperties(view: ResponderID(controller.view), presentedBy: controller.presentedBy.map { ResponderID($0) }))
        }
        for window in windows {
            if let root = window.rootController { try tree.setRootController(ResponderID(root), of: ResponderID(window.id)) }
        }
        return tree
    }

    /// The responders that declare first-responder traits, windows, then controllers, then views.
    public func makeFirstResponderTraits() -> [FirstResponderTraits] {
        let declared: [(String, FirstResponderTraitsSpec)] =
            windows.map { ($0.id, $0.firstResponderTraits) } + controllers.map { ($0.id, $0.firstResponderTraits) }
            + views.map { ($0.id, $0.firstResponderTraits) }
        return declared.filter { $0.1 != FirstResponderTraitsSpec() }.map {
            FirstResponderTraits(responder: ResponderID($0.0), canBecome: $0.1.canBecome, canResign: $0.1.canResign)
        }
    }

    /// The handlers, in file order.
    public func makeHandlers() -> HandlerTable {
        HandlerTable(
            handlers.map { spec in
                Handler(
                    responder: ResponderID(spec.responder), trigger: spec.trigger, action: spec.action,
                    payload: spec.payload?.jsonValue ?? .object([]), passesOn: spec.passesOn, tapCount: spec.tapCount,
                    selector: spec.selector, key: spec.key, remoteControl: spec.remoteControlSubtype.flatMap(RemoteControlSubtype.init(rawValue:)),
                    firstResponderEffect: spec.becomeFirstResponder.map { .become(ResponderID($0)) }
                        ?? spec.resignFirstResponder.map { .resign(ResponderID($0)) })
            })
    }

    /// The controls, in file order.
    public func makeControls() -> [ControlSpec] {
        controls.map { c in
            let kind: ControlKind =
                switch c.kind {
                case .button: .button
                case .toggle: .toggle(isOn: c.isOn)
                case .slider: .slider(minimum: c.minimum, maximum: c.maximum, value: c.value)
                }
            return ControlSpec(
                view: ResponderID(c.view), kind: kind, isEnabled: c.isEnabled,
                targets: c.targets.compactMap { t in
                    ControlEvent(rawValue: t.event).map { ControlTarget(event: $0, action: t.action, target: t.target.map { ResponderID($0) }) }
                })
        }
    }

    /// The gesture recognizers, in file order.
    public func makeGestureRecognizers() -> [GestureRecognizerSpec] {
        gestures.map { g in
            let kind: GestureKind =
                switch g.kind {
                case .tap: .tap(taps: g.taps, touches: g.touches)
                case .longPress: .longPress(minimumDuration: g.duration, allowableMovementMillimetres: g.movementMillimetres, touches: g.touches)
                case .pan: .pan(minimumTouches: g.minimumTouches, maximumTouches: g.maximumTouches, thresholdMillimetres: g.thresholdMillimetres)
                case .swipe:
                    .swipe(
                        directions: g.directions.reduce(into: SwipeDirections()) { set, name in
                            switch name {
                            case "left": set.insert(.left)
                            case "up": set.insert(.up)
                            case "down": set.insert(.down)
                            default: set.insert(.right)
                            }
                        }, touches: g.touches, minimumDistanceMillimetres: g.distanceMillimetres, maximumDuration: g.maximumDuration)
                case .pinch: .pinch(threshold: g.scale)
                case .rotation: .rotation(thresholdRadians: g.angleDegrees * Double.pi / 180)
                }
            return GestureRecognizerSpec(
                id: ResponderID(g.id), view: ResponderID(g.view), kind: kind, cancelsTouchesInView: g.cancelsTouchesInView,
                delaysTouchesBegan: g.delaysTouchesBegan, delaysTouchesEnded: g.delaysTouchesEnded,
                requiresFailureOf: g.requiresFailureOf.map { ResponderID($0) },
                recognizesSimultaneouslyWith: g.simultaneousWith.map { ResponderID($0) }, action: g.action,
                payload: g.payload?.jsonValue ?? .object([]))
        }
    }

    /// Tap counting and queue settings.
    public func makeSettings() -> ApplicationSettings {
        ApplicationSettings(
            tap: TapSettings(
                interval: tap.interval, distanceMillimetres: tap.distanceMillimetres, maximumDuration: tap.maximumDuration,
                slopMillimetres: tap.slopMillimetres),
            queueCapacity: queue.capacity)
    }
}

extension ViewSpec {
    /// The core's properties for this view.
    public var coreProperties: ViewProperties {
        let policy: HitTestPolicy =
            switch hitTest {
            case .default: .default
            case .passThrough: .passThrough
            case .capture: .capture
            case .redirect(let target): .redirect(ResponderID(target))
            case .refuse: .refuse
            }
        return ViewProperties(
            frame: Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height),
            boundsOrigin: Point(x: boundsOrigin.x, y: boundsOrigin.y), isHidden: isHidden, alpha: alpha,
            isUserInteractionEnabled: isUserInteractionEnabled, clipsToBounds: clipsToBounds,
            isMultipleTouchEnabled: isMultipleTouchEnabled, isExclusiveTouch: isExclusiveTouch,
            hitExpansion: EdgeInsets(top: hitExpansion.top, left: hitExpansion.left, bottom: hitExpansion.bottom, right: hitExpansion.right),
            hitTestPolicy: policy)
    }
}

extension PayloadValue {
    /// The payload as the core's JSON value (table keys in ascending order).
    public var jsonValue: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .integer(let i): .int(i)
        case .double(let d): .double(d)
        case .bool(let b): .bool(b)
        case .array(let items): .array(items.map(\.jsonValue))
        case .table: .object(sortedEntries.map { ($0.key, $0.value.jsonValue) })
        }
    }
}
