import TouchCore

/// Why a view cannot take touches, or how its hit-testing differs from the plain default.
public enum ViewCondition: String, Hashable, Sendable, CaseIterable {
    /// `isHidden` on the view itself.
    case hidden
    /// Alpha below 0.01 on the view itself.
    case transparent
    /// `isUserInteractionEnabled == false` on the view itself.
    case notInteractive = "not-interactive"
    /// An ancestor is hidden: hit-testing never enters the view.
    case insideHidden = "inside-hidden"
    /// An ancestor is transparent.
    case insideTransparent = "inside-transparent"
    /// An ancestor does not take touches.
    case insideNotInteractive = "inside-not-interactive"
    /// An ancestor captures every touch that reaches it: its subviews are never asked.
    case insideCapture = "inside-capture"
    /// An ancestor's hit-test never returns anything (`hit_test = "none"`): its subviews are never asked.
    case insideRefuse = "inside-none"
    /// The view's hit area is larger than its bounds (`hit_expansion`).
    case expanded
    /// Part of the view's hit area is outside an ancestor's hit area: hit-testing cannot reach it there.
    case clipped
    /// No part of the hit area is inside every ancestor's: no touch can reach the view.
    case clippedAway = "clipped-away"
    /// The pass-through policy: never the hit view itself, though its subviews can be.
    case passThrough = "pass-through"
    /// The capture policy: the hit view for every point that reaches it, inside it or not.
    case capture
    /// The redirect policy: touches in its hit area go to a descendant (or, redirecting anywhere,
    /// every touch that reaches it).
    case redirect
    /// The none policy: hit-testing never gets past it (neither it nor its subviews).
    case refuse = "none"

    /// Whether the condition keeps the view from ever being the hit view.
    public var preventsHits: Bool {
        switch self {
        case .hidden, .transparent, .notInteractive, .insideHidden, .insideTransparent, .insideNotInteractive,
            .insideCapture, .insideRefuse, .clippedAway, .passThrough, .refuse:
            true
        case .expanded, .clipped, .capture, .redirect: false
        }
    }
}

/// How hit-testing sees a view, with every rectangle in window coordinates: what a picture draws.
public struct ViewFigure: Hashable, Sendable {
    public var id: ResponderID
    /// The superview (the window for a top-level view).
    public var superview: ResponderID
    /// 1 for the window's own subviews, 2 for theirs, and so on.
    public var depth: Int
    /// The frame, in window coordinates.
    public var frame: Rect
    /// The view's hit area (bounds plus expansion), in window coordinates.
    public var hitArea: Rect
    /// The part of ``hitArea`` that hit-testing can reach: its intersection with every ancestor's hit
    /// area (a superview whose `point(inside:)` fails never asks its subviews). `nil` when no touch
    /// can make this view the hit view (see ``conditions``).
    public var effectiveHitArea: Rect?
    /// The view's own alpha.
    public var alpha: Double
    /// The view's own hit expansion.
    public var hitExpansion: EdgeInsets
    /// The view's hit-testing policy.
    public var hitTestPolicy: HitTestPolicy
    /// Conditions, most important first.
    public var conditions: [ViewCondition]
    /// The ancestor a condition inherited from (`inside-...`) comes from.
    public var inheritedFrom: ResponderID?
    /// When the view or an ancestor has a transform: the matrix from the view's own coordinates
    /// to the window's, with its bounds and hit area in its own coordinates (what a picture draws
    /// through the matrix). ``frame`` and ``hitArea`` are then the upright boxes around them.
    public var placement: Placement?

    /// A transformed view's own rectangles and the matrix that puts them in the window.
    public struct Placement: Hashable, Sendable {
        public var toWindow: AffineTransform
        public var bounds: Rect
        public var hitArea: Rect
    }

    /// Hidden itself or inside a hidden view: not on screen.
    public var isOffScreen: Bool { conditions.contains(.hidden) || conditions.contains(.insideHidden) }

    /// The condition that decides how the view is drawn: hidden, transparent or not interactive
    /// (itself or through an ancestor), or `nil` for an ordinary view.
    public var inactivity: ViewCondition? {
        for c in [ViewCondition.hidden, .insideHidden, .transparent, .insideTransparent, .notInteractive, .insideNotInteractive]
        where conditions.contains(c) {
            return c
        }
        return nil
    }

    /// Every figure of a window, parents before children, bottom to top (z-order).
    /// - Returns: `nil` when `window` is not a window of `tree`.
    public static func figures(of tree: ViewTree, window: ResponderID) -> [ViewFigure]? {
        guard let windowProperties = tree.windowProperties(of: window) else { return nil }
        let windowArea = tree.properties(of: window)?.hitArea ?? Rect(origin: .zero, size: windowProperties.size)
        // What each view passes down to its subviews: the reachable area and inherited conditions.
        struct Inherited {
            var area: Rect?
            var condition: ViewCondition?
            var from: ResponderID?
            var depth: Int
        }
        var inherited: [ResponderID: Inherited] = [window: Inherited(area: windowArea, condition: nil, from: nil, depth: 0)]
        // Views whose chain up to the window has a transform: their matrix into the window.
        var toWindow: [ResponderID: AffineTransform] = [:]
        var figures: [ViewFigure] = []
        for view in tree.views(in: window) {
            guard let props = tree.properties(of: view), let superview = tree.superview(of: view),
                let parent = inherited[superview]
            else { continue }
            var frame: Rect
            var hitArea: Rect
            var placement: Placement?
            if toWindow[superview] != nil || !props.transform.isIdentity {
                let parentMatrix = toWindow[superview] ?? tree.convert(.zero, toWindowFrom: superview).map {
                    AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: $0.x, ty: $0.y)
                } ?? .identity
                let matrix = props.toSuperview.concatenating(parentMatrix)
                toWindow[view] = matrix
                frame = matrix.boundingBox(of: props.bounds)
                hitArea = matrix.boundingBox(of: props.hitArea)
                placement = Placement(toWindow: matrix, bounds: props.bounds, hitArea: props.hitArea)
            } else {
                let frameOrigin = tree.convert(props.frame.origin, toWindowFrom: superview) ?? props.frame.origin
                frame = Rect(origin: frameOrigin, size: props.frame.size)
                let hitOrigin = tree.convert(props.hitArea.origin, toWindowFrom: view) ?? props.hitArea.origin
                hitArea = Rect(origin: hitOrigin, size: props.hitArea.size)
            }
            let reachable = parent.area.flatMap { hitArea.intersection($0) }

            let own = ownCondition(props)
            let conditions = conditions(own: own, inherited: parent.condition, props, hitArea: hitArea, reachable: reachable)
            let blocked = conditions.contains { $0.preventsHits }
            figures.append(
                ViewFigure(
                    id: view, superview: superview, depth: parent.depth + 1, frame: frame, hitArea: hitArea,
                    effectiveHitArea: blocked ? nil : reachable, alpha: props.alpha, hitExpansion: props.hitExpansion,
                    hitTestPolicy: props.hitTestPolicy, conditions: conditions,
                    inheritedFrom: parent.condition == nil ? nil : parent.from, placement: placement))

            // What the subviews inherit: the first reason, in hit-testing's order, that they are never asked.
            var next = Inherited(area: reachable, condition: parent.condition, from: parent.from, depth: parent.depth + 1)
            if next.condition == nil, let passed = passedDown(own: own, props.hitTestPolicy) {
                next.condition = passed
                next.from = view
            }
            inherited[view] = next
        }
        return figures
    }

    /// The view's own reason not to take touches: hidden, then not interactive, then transparent.
    static func ownCondition(_ props: ViewProperties) -> ViewCondition? {
        if props.isHidden { return .hidden }
        if !props.isUserInteractionEnabled { return .notInteractive }
        if props.alpha < ViewProperties.minimumHitTestAlpha { return .transparent }
        return nil
    }

    /// A view's conditions, most important first.
    static func conditions(
        own: ViewCondition?, inherited: ViewCondition?, _ props: ViewProperties, hitArea: Rect, reachable: Rect?
    ) -> [ViewCondition] {
        var conditions: [ViewCondition] = []
        if let own { conditions.append(own) }
        if let inherited { conditions.append(inherited) }
        if props.hitExpansion != .zero { conditions.append(.expanded) }
        switch props.hitTestPolicy {
        case .default: break
        case .passThrough: conditions.append(.passThrough)
        case .capture: conditions.append(.capture)
        case .redirect, .redirectAnywhere, .redirectInsideTarget: conditions.append(.redirect)
        case .refuse: conditions.append(.refuse)
        }
        if reachable == nil {
            conditions.append(.clippedAway)
        } else if reachable != hitArea {
            conditions.append(.clipped)
        }
        return conditions
    }

    /// What a view passes down to its subviews when none of its ancestors did: why hit-testing
    /// never asks them.
    static func passedDown(own: ViewCondition?, _ policy: HitTestPolicy) -> ViewCondition? {
        switch own {
        case .hidden: return .insideHidden
        case .notInteractive: return .insideNotInteractive
        case .transparent: return .insideTransparent
        default:
            switch policy {
            case .capture: return .insideCapture
            case .refuse: return .insideRefuse
            case .default, .passThrough, .redirect, .redirectAnywhere, .redirectInsideTarget: return nil
            }
        }
    }
}
