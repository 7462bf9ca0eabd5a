/// Why a view answered `hitTest(_:with:)` as it did.
public enum HitTestOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Skipped: `isHidden` (itself; a hidden superview is never entered).
    case hidden
    /// Skipped: `isUserInteractionEnabled == false`.
    case notInteractive
    /// Skipped: alpha below 0.01.
    case transparent(alpha: Double)
    /// The point is outside the view's hit area (bounds plus expansion).
    case outside
    /// No subview took the point: the view itself.
    case hitSelf
    /// A subview (or one of its descendants) took the point.
    case hitSubview
    /// The pass-through policy turned a result of itself into none.
    case passedThrough
    /// The capture policy returned the view without asking its subviews.
    case captured
    /// The redirect policy returned the named descendant.
    case redirected
    /// The refuse policy returned nothing without asking anything.
    case refused

    public var description: String {
        switch self {
        case .hidden: "hidden"
        case .notInteractive: "user interaction disabled"
        case .transparent(let alpha): "alpha \(formatNumber(alpha)) < 0.01"
        case .outside: "point outside"
        case .hitSelf: "no subview took it: itself"
        case .hitSubview: "a subview took it"
        case .passedThrough: "pass-through: never itself"
        case .captured: "capture: itself"
        case .redirected: "redirect"
        case .refused: "none: never anything"
        }
    }

    /// Whether the view was skipped before its point test (hidden, not interactive, transparent).
    public var isIneligible: Bool {
        switch self {
        case .hidden, .notInteractive, .transparent: true
        case .outside, .hitSelf, .hitSubview, .passedThrough, .captured, .redirected, .refused: false
        }
    }
}

/// One line of a hit-test trace, in the order seed 001's logs print them: `enter` when a view's
/// `hitTest(_:with:)` starts, `result` when it returns.
public struct HitTestStep: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The view's hitTest started, with the point in the view's coordinates.
        case enter(point: Point)
        /// The view's hitTest returned `result`, for `outcome`.
        case result(ResponderID?, HitTestOutcome)
    }

    public var view: ResponderID
    public var kind: Kind

    public init(view: ResponderID, kind: Kind) {
        self.view = view
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .enter(let point): "\(view) - hitTest enter \(point)"
        case .result(let result, let outcome):
            "\(view) - hitTest result: \(result.map { $0.rawValue } ?? "nil") (\(outcome))"
        }
    }
}

/// The answer to a hit-test: the view that will receive the touch, and optionally how it was found.
public struct HitTestResult: Hashable, Sendable {
    /// The window whose hit-test answered (or the first asked, when none did).
    public var window: ResponderID
    /// The hit-test view, or `nil` when nothing took the point.
    public var view: ResponderID?
    /// The point in the window's coordinates.
    public var pointInWindow: Point
    /// The point in the hit view's coordinates.
    public var pointInView: Point?
    /// Every view visited and its result (empty unless a trace was asked for).
    public var trace: [HitTestStep]
    /// Where `window` and `view` are in the tree that answered, for reads of them by index that
    /// follow at once (a touch-down's); meaningless once the tree has changed.
    var windowNode: Int32
    var viewNode: Int32?
}

extension ViewTree {
    /// Hit-tests one window as `UIWindow.hitTest(_:with:)` does: a view (with its subtree) is skipped
    /// when hidden, not interactive or more transparent than alpha 0.01; otherwise, when the point is
    /// inside its hit area, its subviews are asked from last (topmost) to first with the point
    /// converted into each, the first non-nil answer wins, and else the view itself. Policies
    /// (pass-through, capture, redirect) change the answer as ``HitTestPolicy`` describes.
    ///
    /// - Parameters:
    ///   - point: in the window's coordinates.
    ///   - window: the window to ask.
    ///   - traced: whether to record every view visited (costs allocations).
    /// - Returns: `nil` when `window` is not a window of this tree.
    public func hitTest(_ point: Point, inWindow window: ResponderID, traced: Bool = false) -> HitTestResult? {
        guard let index = nodeIndex[window], isWindowNode(Int(index)) else { return nil }
        var trace: [HitTestStep] = []
        let hit = hitTest(node: index, point: point, traced: traced, trace: &trace)
        let hitID = hit.map { nodes[Int($0)].id }
        let pointInView = hit.map { convertFromWindow(point, to: $0) }
        return HitTestResult(
            window: window, view: hitID, pointInWindow: point, pointInView: pointInView, trace: trace, windowNode: index, viewNode: hit)
    }

    /// Hit-tests the windows of `window`'s display from the top level down, as UIKit asks each window
    /// in turn: the first window whose hit-test returns a view receives the touch. Hidden windows
    /// are not asked (nor traced).
    public func hitTest(_ point: Point, onDisplayOf window: ResponderID, traced: Bool = false) -> HitTestResult? {
        guard let windowIndex = nodeIndex[window], isWindowNode(Int(windowIndex)) else { return nil }
        // The only window, untraced (most touch-downs): no window list, no trace.
        if !traced && windowIDs.count == 1 {
            var none: [HitTestStep] = []
            let hit = hitTest(node: windowIndex, point: point, traced: false, trace: &none)
            return HitTestResult(
                window: window, view: hit.map { nodes[Int($0)].id }, pointInWindow: point,
                pointInView: hit.map { convertFromWindow(point, to: $0) }, trace: [], windowNode: windowIndex, viewNode: hit)
        }
        guard let props = windowProperties(of: window) else { return nil }
        var trace: [HitTestStep] = []
        // UIKit asks only the windows that are shown: a hidden window is not entered at all.
        for candidate in windowsForHitTesting(onDisplay: props.display) where windowProperties(of: candidate)?.isHidden != true {
            guard var result = hitTest(point, inWindow: candidate, traced: traced) else { continue }
            trace += result.trace
            if result.view != nil {
                result.trace = trace
                return result
            }
        }
        return HitTestResult(window: window, view: nil, pointInWindow: point, pointInView: nil, trace: trace, windowNode: windowIndex, viewNode: nil)
    }

    /// Why `node` is skipped before its point test, or `nil` when it is eligible.
    func ineligibility(_ props: ViewProperties) -> HitTestOutcome? {
        if props.isHidden { return .hidden }
        if !props.isUserInteractionEnabled { return .notInteractive }
        if props.alpha < ViewProperties.minimumHitTestAlpha { return .transparent(alpha: props.alpha) }
        return nil
    }

    // The hit-test's reads of a node, field by field in place: a copy of a node's properties (a
    // `let` of them, or a method called on them) retains and releases each of their references.

    /// ``ineligibility(_:)`` of the node at `index`.
    @inline(__always)
    private func ineligibility(of index: Int32) -> HitTestOutcome? {
        let i = Int(index)
        if nodes[i].properties.isHidden { return .hidden }
        if !nodes[i].properties.isUserInteractionEnabled { return .notInteractive }
        let alpha = nodes[i].properties.alpha
        if alpha < ViewProperties.minimumHitTestAlpha { return .transparent(alpha: alpha) }
        return nil
    }

    /// The hit area (``ViewProperties/hitArea``) of the node at `index`.
    @inline(__always)
    private func hitArea(of index: Int32) -> Rect {
        let i = Int(index)
        return Rect(origin: nodes[i].properties.boundsOrigin, size: nodes[i].properties.frame.size).outset(by: nodes[i].properties.hitExpansion)
    }

    /// A point in its superview's coordinates converted into those of the node at `index`
    /// (``ViewProperties/pointFromSuperview(_:)``).
    @inline(__always)
    private func point(_ point: Point, intoNode index: Int32) -> Point {
        let i = Int(index)
        return ViewProperties.pointFromSuperview(
            point, frame: nodes[i].properties.frame, boundsOrigin: nodes[i].properties.boundsOrigin, transform: nodes[i].properties.transform)
    }

    private func hitTest(node index: Int32, point: Point, traced: Bool, trace: inout [HitTestStep]) -> Int32? {
        // Fields are read from the array in place: copying a whole node costs a retain per field.
        let policy = nodes[Int(index)].properties.hitTestPolicy
        if traced { trace.append(HitTestStep(view: nodes[Int(index)].id, kind: .enter(point: point))) }
        func finish(_ result: Int32?, _ outcome: HitTestOutcome) -> Int32? {
            if traced {
                trace.append(
                    HitTestStep(view: nodes[Int(index)].id, kind: .result(result.map { nodes[Int($0)].id }, outcome)))
            }
            return result
        }
        switch policy {
        case .refuse: return finish(nil, .refused)
        case .redirectAnywhere(let target):
            // Seed 000's `return self.subviews[0]`: no test of anything, for any point.
            if let targetIndex = nodeIndex[target], isStrictDescendant(targetIndex, of: index) { return finish(targetIndex, .redirected) }
        case .default, .passThrough, .capture, .redirect, .redirectInsideTarget: break
        }
        if let skip = ineligibility(of: index) { return finish(nil, skip) }
        // Seed 000's `return self;`: itself for every point that reaches it, inside it or not.
        if case .capture = policy { return finish(index, .captured) }
        if case .redirectInsideTarget(let target) = policy {
            // Seed 003's topView: `super.hitTest` first, then the covered button if the point is inside it.
            let normal = defaultAnswer(node: index, point: point, traced: traced, trace: &trace)
            if let targetIndex = nodeIndex[target], isEligibleBranch(from: targetIndex, below: index),
                hitArea(of: targetIndex).contains(convert(point, from: index, down: targetIndex))
            {
                return finish(targetIndex, .redirected)
            }
            return finish(normal.0, normal.1)
        }
        guard hitArea(of: index).contains(point) else { return finish(nil, .outside) }
        switch policy {
        case .redirect(let target):
            if let targetIndex = nodeIndex[target], isEligibleBranch(from: targetIndex, below: index) {
                return finish(targetIndex, .redirected)
            }
            if let hit = hitSubviews(of: index, point: point, traced: traced, trace: &trace) { return finish(hit, .hitSubview) }
            return finish(index, .hitSelf)
        case .default, .passThrough, .refuse, .capture, .redirectAnywhere, .redirectInsideTarget:
            if let hit = hitSubviews(of: index, point: point, traced: traced, trace: &trace) {
                return finish(hit, .hitSubview)
            }
            if case .passThrough = policy { return finish(nil, .passedThrough) }
            return finish(index, .hitSelf)
        }
    }

    /// UIKit's own answer for an eligible view: outside, a subview's answer, or itself.
    private func defaultAnswer(node index: Int32, point: Point, traced: Bool, trace: inout [HitTestStep]) -> (Int32?, HitTestOutcome) {
        guard hitArea(of: index).contains(point) else { return (nil, .outside) }
        if let hit = hitSubviews(of: index, point: point, traced: traced, trace: &trace) { return (hit, .hitSubview) }
        return (index, .hitSelf)
    }

    /// A point in `ancestor`'s coordinates converted into those of `index`, a view below it.
    private func convert(_ point: Point, from ancestor: Int32, down index: Int32) -> Point {
        let parent = nodes[Int(index)].parent
        guard index != ancestor, parent >= 0 else { return point }
        return self.point(convert(point, from: ancestor, down: parent), intoNode: index)
    }

    /// Asks the subviews from the topmost down. A superview with many subviews asks only those its
    /// ``SubviewGrid`` lists at the point, which gives the same answer (a subview whose hit area does
    /// not contain the point answers `nil`); a traced hit-test scans them all so that the trace lists
    /// every subview UIKit would visit.
    private func hitSubviews(of index: Int32, point: Point, traced: Bool, trace: inout [HitTestStep]) -> Int32? {
        if !traced, usesSubviewIndex, nodes[Int(index)].grid != nil {
            var walk = nodes[Int(index)].grid!.candidates(at: point)
            var none: [HitTestStep] = []
            while let child = nodes[Int(index)].grid!.next(&walk) {
                if let hit = hitTest(node: child, point: self.point(point, intoNode: child), traced: false, trace: &none) { return hit }
            }
            return nil
        }
        let children = nodes[Int(index)].children
        for child in children.reversed() {
            let local = self.point(point, intoNode: child)
            if let hit = hitTest(node: child, point: local, traced: traced, trace: &trace) { return hit }
        }
        return nil
    }

    /// Whether `target` lies below `ancestor` (not `ancestor` itself).
    private func isStrictDescendant(_ target: Int32, of ancestor: Int32) -> Bool {
        var i = nodes[Int(target)].parent
        while i >= 0 {
            if i == ancestor { return true }
            i = nodes[Int(i)].parent
        }
        return false
    }

    /// Whether `target` and every view between it and `ancestor` (exclusive) are eligible.
    private func isEligibleBranch(from target: Int32, below ancestor: Int32) -> Bool {
        var i = target
        while i != ancestor {
            guard i >= 0, !nodes[Int(i)].isRemoved, ineligibility(of: i) == nil else {
                return false
            }
            i = nodes[Int(i)].parent
        }
        return true
    }
}
