/// The application's windows, views and view controllers: the tree that touches are dispatched into.
///
/// A value type: copying a tree is cheap until one copy changes. Views are kept in an array and
/// addressed internally by index; responders are named by ``ResponderID`` in the public API. Sibling
/// order is z-order: a later subview is on top of an earlier one, as in `UIView.subviews`.
///
/// Windows are views too (as `UIWindow` is a `UIView`): a window's frame is `(0, 0, size)`.
public struct ViewTree: Sendable {
    struct Node: Sendable {
        var id: ResponderID
        /// Index of the superview; -1 for a window.
        var parent: Int32
        var children: [Int32]
        var properties: ViewProperties
        /// Present for windows only.
        var window: WindowProperties?
        /// Index of the window this node belongs to (itself for a window).
        var windowIndex: Int32
        /// The controller whose root view this is, if any.
        var rootOf: ResponderID?
        var isRemoved: Bool
        /// The index of the subviews, once there are enough of them (see ``SubviewGrid``).
        var grid: SubviewGrid? = nil
    }

    /// Live nodes and removed ones not yet compacted away (see ``compactIfSparse()``).
    var nodes: [Node] = []
    var nodeIndex: [ResponderID: Int32] = [:]
    /// How many of ``nodes`` are removed.
    private var removedNodeCount = 0
    /// How many live windows and views are exclusive-touch: while none is, a touch-down need not
    /// look at the other views touched in its window (most layouts have none).
    private(set) var exclusiveTouchViewCount = 0
    var controllers: [ResponderID: ControllerProperties] = [:]
    /// Windows in the order they were added.
    public private(set) var windowIDs: [ResponderID] = []
    /// View controllers in the order they were added.
    public private(set) var controllerIDs: [ResponderID] = []
    /// The application (`UIApplication`): the window's next responder.
    public let applicationID: ResponderID
    /// The application delegate: the application's next responder, the end of every chain.
    public let appDelegateID: ResponderID
    /// Whether hit-testing uses the subview index of views with many subviews (the answer is the
    /// same either way; turning it off scans every subview, for benchmarks and comparisons).
    public var usesSubviewIndex = true

    /// An empty tree with the two responders every application has.
    public init(applicationID: ResponderID = .defaultApplication, appDelegateID: ResponderID = .defaultAppDelegate) {
        self.applicationID = applicationID
        self.appDelegateID = appDelegateID
    }

    // MARK: - Building

    /// Adds a window on top of the windows already added (at the same level).
    /// - Throws: ``ViewTreeError/duplicateID(_:)``.
    public mutating func addWindow(_ id: ResponderID, _ properties: WindowProperties) throws(ViewTreeError) {
        try checkFresh(id)
        try checkCapacity(for: id)
        let index = Int32(nodes.count)
        nodes.append(
            Node(
                id: id, parent: -1, children: [], properties: properties.viewProperties,
                window: properties, windowIndex: index, rootOf: nil, isRemoved: false))
        nodeIndex[id] = index
        windowIDs.append(id)
        if properties.viewProperties.isExclusiveTouch { exclusiveTouchViewCount += 1 }
    }

    /// How deep a view may be nested: a window's subviews are at depth 1, theirs at 2, and so on.
    /// Hit-testing and the responder chain walk the tree recursively, so the depth is bounded to keep
    /// their stack use small; real interfaces nest a few dozen levels at most. The layout's bound,
    /// ``Limits/maximumViewDepth``, the same for views a client adds.
    public static var maximumDepth: Int { Limits.maximumViewDepth }

    /// How many windows and views a tree may hold at once. Removed views are compacted away, so
    /// the node storage stays below twice this (node indices are `Int32`). The daemon holds run-time
    /// trees to the smaller ``Limits/maximumViews``; this bound is the tree's own.
    public static let maximumNodes = 1 << 20

    /// Adds a view as the last (topmost) subview of `parent`, a window or a view.
    /// - Throws: ``ViewTreeError/duplicateID(_:)``, ``ViewTreeError/unknownParent(view:parent:)``,
    ///   ``ViewTreeError/tooDeep(view:depth:)`` past ``maximumDepth``,
    ///   ``ViewTreeError/scaleOutOfRange(view:scale:)`` past ``Limits/maximumComposedScale``.
    public mutating func addView(_ id: ResponderID, parent: ResponderID, _ properties: ViewProperties)
        throws(ViewTreeError)
    {
        try checkFresh(id)
        guard let parentIndex = nodeIndex[parent] else {
            throw .unknownParent(view: id, parent: parent)
        }
        let depth = depth(ofNode: parentIndex) + 1
        guard depth <= Self.maximumDepth else { throw .tooDeep(view: id, depth: depth) }
        let scale = composedScale(ofNode: parentIndex).appending(properties.transform)
        guard scale.isWithinLimits else { throw .scaleOutOfRange(view: id, scale: scale) }
        try checkCapacity(for: id)
        let index = Int32(nodes.count)
        nodes.append(
            Node(
                id: id, parent: parentIndex, children: [], properties: properties, window: nil,
                windowIndex: nodes[Int(parentIndex)].windowIndex, rootOf: nil, isRemoved: false))
        nodes[Int(parentIndex)].children.append(index)
        nodeIndex[id] = index
        if properties.isExclusiveTouch { exclusiveTouchViewCount += 1 }
        indexNewSubview(index, of: parentIndex)
    }

    /// Adds a view controller whose root view is `properties.view`.
    /// - Throws: ``ViewTreeError/duplicateID(_:)``, ``ViewTreeError/unknownView(_:)`` for a missing
    ///   root view, ``ViewTreeError/viewHasController(view:controller:)`` when that view is already
    ///   another controller's root view.
    public mutating func addController(_ id: ResponderID, _ properties: ControllerProperties)
        throws(ViewTreeError)
    {
        try checkFresh(id)
        guard let viewIndex = nodeIndex[properties.view], !isWindowNode(Int(viewIndex)) else {
            throw .unknownView(properties.view)
        }
        if let owner = nodes[Int(viewIndex)].rootOf {
            throw .viewHasController(view: properties.view, controller: owner)
        }
        nodes[Int(viewIndex)].rootOf = id
        controllers[id] = properties
        controllerIDs.append(id)
    }

    /// Makes `controller` the root view controller of `window`.
    public mutating func setRootController(_ controller: ResponderID?, of window: ResponderID)
        throws(ViewTreeError)
    {
        guard let index = nodeIndex[window], isWindowNode(Int(index)) else {
            throw .unknownWindow(window)
        }
        if let controller, controllers[controller] == nil { throw .unknownController(controller) }
        nodes[Int(index)].window!.rootController = controller
    }

    /// Changes a view's properties in place.
    /// - Throws: ``ViewTreeError/unknownView(_:)`` when `id` is not a view (windows included),
    ///   ``ViewTreeError/scaleOutOfRange(view:scale:)`` when the change would take the view or one
    ///   inside it past ``Limits/maximumComposedScale``; the view is then left as it was.
    public mutating func updateView(_ id: ResponderID, _ change: (inout ViewProperties) -> Void)
        throws(ViewTreeError)
    {
        guard let index = nodeIndex[id], !isWindowNode(Int(index)) else { throw .unknownView(id) }
        var updated = nodes[Int(index)].properties
        change(&updated)
        try checkScales(of: index, with: updated.transform)
        let parent = Int(nodes[Int(index)].parent)
        let wasExclusive = nodes[Int(index)].properties.isExclusiveTouch
        defer {
            let isExclusive = nodes[Int(index)].properties.isExclusiveTouch
            if isExclusive != wasExclusive { exclusiveTouchViewCount += isExclusive ? 1 : -1 }
        }
        guard nodes[parent].grid != nil else {
            nodes[Int(index)].properties = updated
            return
        }
        // The grid is never held in a local while it changes, so its cells are not copied.
        let before = nodes[parent].grid!.placement(of: gridArea(of: index))
        nodes[Int(index)].properties = updated
        let after = nodes[parent].grid!.placement(of: gridArea(of: index))
        if after != before {
            nodes[parent].grid?.remove(index, at: before)
            nodes[parent].grid?.insert(index, at: after)
        }
    }

    /// The composed scale of a node: its transform's with those of the views above it (a
    /// window's is the identity).
    func composedScale(ofNode index: Int32) -> ComposedScale {
        var scale = ComposedScale.identity
        var current = index
        // Views nest at most `maximumDepth` deep.
        while current >= 0, !isWindowNode(Int(current)) {
            scale = scale.appending(nodes[Int(current)].properties.transform)
            current = nodes[Int(current)].parent
        }
        return scale
    }

    /// Throws when giving the view at `index` `transform` would take it or a view inside it past
    /// ``Limits/maximumComposedScale``; nothing to check when the scale factors stay as they are.
    private func checkScales(of index: Int32, with transform: ViewTransform) throws(ViewTreeError) {
        let old = nodes[Int(index)].properties.transform
        guard transform.scaleX != old.scaleX || transform.scaleY != old.scaleY else { return }
        var stack = [(index, composedScale(ofNode: nodes[Int(index)].parent).appending(transform))]
        while let (next, scale) = stack.popLast() {
            guard scale.isWithinLimits else { throw .scaleOutOfRange(view: nodes[Int(next)].id, scale: scale) }
            for child in nodes[Int(next)].children {
                stack.append((child, scale.appending(nodes[Int(child)].properties.transform)))
            }
        }
    }

    /// Removes a view and its whole subtree, with the controllers whose root views go with it. A
    /// controller those presented stays, presented by none (as UIKit's is once its presenter is
    /// gone): its next responder becomes its root view's superview.
    /// - Returns: the removed responders (views and controllers), parents before children.
    /// - Throws: ``ViewTreeError/unknownView(_:)`` when `id` is not a view.
    @discardableResult
    public mutating func removeView(_ id: ResponderID) throws(ViewTreeError) -> [ResponderID] {
        guard let index = nodeIndex[id], !isWindowNode(Int(index)) else { throw .unknownView(id) }
        let parent = Int(nodes[Int(index)].parent)
        nodes[parent].children.removeAll { $0 == index }
        if let placement = nodes[parent].grid?.placement(of: gridArea(of: index)) {
            nodes[parent].grid?.remove(index, at: placement)
        }
        var removed: [ResponderID] = []
        var stack = [index]
        while let next = stack.popLast() {
            let node = nodes[Int(next)]
            removed.append(node.id)
            nodeIndex[node.id] = nil
            nodes[Int(next)].isRemoved = true
            if node.properties.isExclusiveTouch { exclusiveTouchViewCount -= 1 }
            if let controller = node.rootOf {
                controllers[controller] = nil
                controllerIDs.removeAll { $0 == controller }
                removed.append(controller)
                for presented in controllerIDs where controllers[presented]?.presentedBy == controller {
                    controllers[presented]?.presentedBy = nil
                }
                for w in windowIDs {
                    let wi = Int(nodeIndex[w]!)
                    if nodes[wi].window?.rootController == controller { nodes[wi].window?.rootController = nil }
                }
            }
            stack.append(contentsOf: node.children.reversed())
            nodes[Int(next)].children = []
            nodes[Int(next)].grid = nil
            removedNodeCount += 1
        }
        compactIfSparse()
        return removed
    }

    /// Drops removed nodes once they are at least half of the storage (and more than a few), so a
    /// tree whose views come and go holds memory for its live views only. Nodes keep their order,
    /// and so their z-order (see ``SubviewGrid``); indices change, which nothing outside the tree
    /// keeps. Each compaction costs the live nodes' number, paid for by as many removals before it.
    private mutating func compactIfSparse() {
        guard removedNodeCount > 64, removedNodeCount * 2 >= nodes.count else { return }
        var newIndex = [Int32](repeating: -1, count: nodes.count)
        var kept: [Node] = []
        kept.reserveCapacity(nodes.count - removedNodeCount)
        for (old, node) in nodes.enumerated() where !node.isRemoved {
            newIndex[old] = Int32(kept.count)
            kept.append(node)
        }
        nodeIndex.removeAll(keepingCapacity: true)
        for i in kept.indices {
            let parent = kept[i].parent
            kept[i].parent = parent < 0 ? -1 : newIndex[Int(parent)]
            kept[i].windowIndex = newIndex[Int(kept[i].windowIndex)]
            kept[i].children = kept[i].children.map { newIndex[Int($0)] }
            kept[i].grid = nil
            nodeIndex[kept[i].id] = Int32(i)
        }
        nodes = kept
        removedNodeCount = 0
        for i in nodes.indices where nodes[i].children.count >= SubviewGrid.threshold {
            nodes[i].grid = SubviewGrid(children: nodes[i].children) { gridArea(of: $0) }
        }
    }

    /// The depth of a node: 0 for a window, 1 for its subviews, and so on.
    private func depth(ofNode index: Int32) -> Int {
        var depth = 0
        var current = index
        while !isWindowNode(Int(current)) {
            depth += 1
            current = nodes[Int(current)].parent
        }
        return depth
    }

    /// Keeps `parent`'s subview index up to date after `child` was added on top: builds it when
    /// the subviews reach ``SubviewGrid/threshold``, rebuilds it when they have doubled since.
    private mutating func indexNewSubview(_ child: Int32, of parent: Int32) {
        let p = Int(parent)
        let count = nodes[p].children.count
        if let builtFor = nodes[p].grid?.builtFor, count <= 2 * builtFor {
            let placement = nodes[p].grid!.placement(of: gridArea(of: child))
            nodes[p].grid?.insert(child, at: placement)
        } else if count >= SubviewGrid.threshold {
            let grid = SubviewGrid(children: nodes[p].children) { gridArea(of: $0) }
            nodes[p].grid = grid
        }
    }

    /// Where a subview can answer a point, in its superview's coordinates: the upright box holding
    /// its hit area (`bounds` grown by `hitExpansion`) as its transform places it, nowhere when
    /// hit-testing always skips it (hidden, not interactive, transparent), or everywhere when it
    /// answers points outside itself (capture, redirect anywhere, redirect inside a target that
    /// may stick out of it).
    func gridArea(of index: Int32) -> SubviewGrid.Area {
        let props = nodes[Int(index)].properties
        if case .redirectAnywhere = props.hitTestPolicy { return .everywhere }
        guard ineligibility(props) == nil else { return .never }
        switch props.hitTestPolicy {
        case .capture, .redirectInsideTarget: return .everywhere
        case .default, .passThrough, .redirect, .redirectAnywhere, .refuse:
            return .rect(props.boxInSuperview(props.hitArea))
        }
    }

    private func checkCapacity(for id: ResponderID) throws(ViewTreeError) {
        guard nodeIndex.count < Self.maximumNodes else { throw .full(view: id) }
    }

    private func checkFresh(_ id: ResponderID) throws(ViewTreeError) {
        if nodeIndex[id] != nil || controllers[id] != nil || id == applicationID || id == appDelegateID {
            throw .duplicateID(id)
        }
    }

    // MARK: - Reading

    /// What kind of responder `id` names, or `nil` when the tree has no such responder.
    public func kind(of id: ResponderID) -> ResponderKind? {
        if let index = nodeIndex[id] { return isWindowNode(Int(index)) ? .window : .view }
        if controllers[id] != nil { return .controller }
        if id == applicationID { return .application }
        if id == appDelegateID { return .appDelegate }
        return nil
    }

    /// A view's (or window's) properties.
    public func properties(of id: ResponderID) -> ViewProperties? {
        nodeIndex[id].map { nodes[Int($0)].properties }
    }

    /// A view's `isMultipleTouchEnabled` and `isExclusiveTouch`, read in place (without copying its
    /// properties), or `nil` when `id` is not a view: what a touch-down asks of the views it lands on.
    func touchFlags(of id: ResponderID) -> (multipleTouch: Bool, exclusiveTouch: Bool)? {
        guard let index = nodeIndex[id] else { return nil }
        return touchFlags(ofNode: index)
    }

    /// ``touchFlags(of:)`` of the view at node `index` (a hit-test's ``HitTestResult/viewNode``).
    func touchFlags(ofNode index: Int32) -> (multipleTouch: Bool, exclusiveTouch: Bool) {
        let i = Int(index)
        return (nodes[i].properties.isMultipleTouchEnabled, nodes[i].properties.isExclusiveTouch)
    }

    /// A window's properties, or `nil` when `id` is not a window.
    public func windowProperties(of id: ResponderID) -> WindowProperties? {
        nodeIndex[id].flatMap { nodes[Int($0)].window }
    }

    /// Whether the node at `index` is a window: windows alone have no superview. The one way the
    /// tree tells a window: read in place, where `nodes[i].window != nil` would copy the window's
    /// properties out to compare them.
    @inline(__always)
    func isWindowNode(_ index: Int) -> Bool { nodes[index].parent < 0 }

    /// A window's points per millimetre (the default when `id` is no window), read in place: a
    /// touch-down and a lift ask for it, and copying the window's properties out would retain
    /// their strings.
    public func pointsPerMillimetre(of id: ResponderID) -> Double {
        guard let index = nodeIndex[id] else { return WindowProperties.defaultPointsPerMillimetre }
        return pointsPerMillimetre(ofNode: index)
    }

    /// ``pointsPerMillimetre(of:)`` of the window at node `index` (a hit-test's ``HitTestResult/windowNode``).
    func pointsPerMillimetre(ofNode index: Int32) -> Double {
        nodes[Int(index)].window?.pointsPerMillimetre ?? WindowProperties.defaultPointsPerMillimetre
    }

    /// A window's refresh rate (0 when `id` is no window), read in place: it is asked for every
    /// input frame, and copying the window's properties out would retain their strings.
    public func refreshRate(of id: ResponderID) -> Double {
        guard let index = nodeIndex[id] else { return 0 }
        return nodes[Int(index)].window?.refreshRate ?? 0
    }

    /// A view controller's properties.
    public func controllerProperties(of id: ResponderID) -> ControllerProperties? { controllers[id] }

    /// The superview (`superview`): a view or a window; `nil` for a window.
    public func superview(of id: ResponderID) -> ResponderID? {
        guard let index = nodeIndex[id] else { return nil }
        let parent = nodes[Int(index)].parent
        return parent < 0 ? nil : nodes[Int(parent)].id
    }

    /// The subviews (`subviews`), bottom to top.
    public func subviews(of id: ResponderID) -> [ResponderID] {
        guard let index = nodeIndex[id] else { return [] }
        return nodes[Int(index)].children.map { nodes[Int($0)].id }
    }

    /// The window a view belongs to (`window`); a window's is itself.
    public func window(of id: ResponderID) -> ResponderID? {
        guard let index = nodeIndex[id] else { return nil }
        return nodes[Int(nodes[Int(index)].windowIndex)].id
    }

    /// The controller whose root view `view` is.
    public func controller(ofRootView view: ResponderID) -> ResponderID? {
        nodeIndex[view].flatMap { nodes[Int($0)].rootOf }
    }

    /// The path from the window down to `id`, both included.
    public func path(to id: ResponderID) -> [ResponderID] {
        guard let last = nodeIndex[id] else { return [] }
        var length = 0
        var index = last
        while index >= 0 {
            length += 1
            index = nodes[Int(index)].parent
        }
        // One array, filled from its end.
        return Array(unsafeUninitializedCapacity: length) { buffer, count in
            var i = length
            var index = last
            while index >= 0 {
                i -= 1
                (buffer.baseAddress! + i).initialize(to: nodes[Int(index)].id)
                index = nodes[Int(index)].parent
            }
            count = length
        }
    }

    /// Whether `id` is `ancestor` or lies below it.
    public func isDescendant(_ id: ResponderID, of ancestor: ResponderID) -> Bool {
        guard var index = nodeIndex[id], let target = nodeIndex[ancestor] else { return false }
        while index >= 0 {
            if index == target { return true }
            index = nodes[Int(index)].parent
        }
        return false
    }

    /// Every view of a window (the window excluded), depth first, bottom to top.
    public func views(in window: ResponderID) -> [ResponderID] {
        guard let root = nodeIndex[window] else { return [] }
        var result: [ResponderID] = []
        var stack = nodes[Int(root)].children.reversed() as [Int32]
        while let next = stack.popLast() {
            result.append(nodes[Int(next)].id)
            stack.append(contentsOf: nodes[Int(next)].children.reversed())
        }
        return result
    }

    /// The number of live views, windows excluded.
    public var viewCount: Int { nodeIndex.count - windowIDs.count }

    /// The windows of `display`, in hit-testing order: highest level first, and among equal levels
    /// the one added last first.
    public func windowsForHitTesting(onDisplay display: String) -> [ResponderID] {
        var candidates: [(level: Double, order: Int, id: ResponderID)] = []
        for (order, id) in windowIDs.enumerated() {
            if let props = windowProperties(of: id), props.display == display { candidates.append((props.level, order, id)) }
        }
        if candidates.count > 1 {
            candidates.sort { a, b in a.level != b.level ? a.level > b.level : a.order > b.order }
        }
        return candidates.map(\.id)
    }

    /// The key window: the one marked key, else the first window.
    public var keyWindow: ResponderID? {
        windowIDs.first { windowProperties(of: $0)?.isKey == true } ?? windowIDs.first
    }

    // MARK: - Coordinates

    /// Converts a point in window coordinates into `view`'s coordinates (`convert(_:from: nil)`).
    /// Each step down subtracts the subview's frame origin and adds its bounds origin, through the
    /// inverse of its transform when it has one (``ViewProperties/pointFromSuperview(_:)``).
    public func convert(_ point: Point, fromWindowTo view: ResponderID) -> Point? {
        guard let index = nodeIndex[view] else { return nil }
        return convertFromWindow(point, to: index)
    }

    /// Gives each of `samples` its place in the view at `index` as the view is now
    /// (``TouchSample/locationInView``).
    func place(_ samples: inout [TouchSample], inView index: Int32) {
        for k in samples.indices { samples[k].locationInView = convertFromWindow(samples[k].locationInWindow, to: index) }
    }

    /// The index of `view` in the tree, with `hint` (an index it had) tried first: a live touch
    /// keeps its view's, and checking that the node there is still that view costs less than
    /// hashing its name. `nil` when `view` is not in the tree.
    func nodeIndex(of view: ResponderID, hint: Int32) -> Int32? {
        if hint >= 0 && Int(hint) < nodes.count && !nodes[Int(hint)].isRemoved && nodes[Int(hint)].id == view { return hint }
        return nodeIndex[view]
    }

    /// Converts two points in window coordinates into `view`'s coordinates with one look-up of the
    /// view (a touch's location and previous location); `nil` when `view` is not in the tree.
    public func convert(_ a: Point, _ b: Point, fromWindowTo view: ResponderID) -> (Point, Point)? {
        guard let index = nodeIndex[view] else { return nil }
        return (convertFromWindow(a, to: index), convertFromWindow(b, to: index))
    }

    /// Converts a point in `view`'s coordinates into its window's coordinates (`convert(_:to: nil)`).
    public func convert(_ point: Point, toWindowFrom view: ResponderID) -> Point? {
        guard var index = nodeIndex[view] else { return nil }
        var p = point
        while nodes[Int(index)].parent >= 0 {
            p = nodes[Int(index)].properties.pointToSuperview(p)
            index = nodes[Int(index)].parent
        }
        return p
    }

    /// Converts a point between two views of one display (`convert(_:from:)`); `nil` means window
    /// coordinates. Windows of one display share their origin.
    public func convert(_ point: Point, from source: ResponderID?, to destination: ResponderID?) -> Point? {
        var inWindow = point
        if let source {
            guard let p = convert(point, toWindowFrom: source) else { return nil }
            inWindow = p
        }
        guard let destination else { return inWindow }
        return convert(inWindow, fromWindowTo: destination)
    }

    func convertFromWindow(_ point: Point, to index: Int32) -> Point {
        // From the window down, in the order hit-testing converts (the same rounding): the parent's
        // conversion first (views nest at most `maximumDepth` deep).
        let parent = nodes[Int(index)].parent
        guard parent >= 0 else { return point }
        let inParent = convertFromWindow(point, to: parent)
        // The three properties read in place: calling a method on the view's properties copied
        // them whole (a retain and a release of each of their parts) at every level.
        return ViewProperties.pointFromSuperview(
            inParent, frame: nodes[Int(index)].properties.frame, boundsOrigin: nodes[Int(index)].properties.boundsOrigin,
            transform: nodes[Int(index)].properties.transform)
    }
}

/// A structural error in building or changing a ``ViewTree``.
public enum ViewTreeError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicateID(ResponderID)
    case unknownParent(view: ResponderID, parent: ResponderID)
    case unknownView(ResponderID)
    case unknownWindow(ResponderID)
    case unknownController(ResponderID)
    case viewHasController(view: ResponderID, controller: ResponderID)
    /// The view would be nested deeper than ``ViewTree/maximumDepth``.
    case tooDeep(view: ResponderID, depth: Int)
    /// The tree already holds ``ViewTree/maximumNodes`` windows and views.
    case full(view: ResponderID)
    /// The view would be enlarged or shrunk past ``Limits/maximumComposedScale`` by its
    /// transform with its superviews'.
    case scaleOutOfRange(view: ResponderID, scale: ComposedScale)

    public var description: String {
        switch self {
        case .duplicateID(let id): "the id \"\(id)\" is already used by another responder or gesture recognizer"
        case .unknownParent(let view, let parent):
            "view \"\(view)\": parent \"\(parent)\" is neither a window nor a view"
        case .tooDeep(let view, let depth):
            "view \"\(view)\" would be nested \(depth) levels deep: expected at most \(ViewTree.maximumDepth)"
        case .scaleOutOfRange(let view, let scale):
            "view \"\(view)\": its transform with its superviews' \(scale.excess ?? "stays within the bound"): \(ComposedScale.expectation)"
        case .full(let view): "view \"\(view)\" cannot be added: the tree already holds \(ViewTree.maximumNodes) windows and views"
        case .unknownView(let id): "\"\(id)\" is not a view"
        case .unknownWindow(let id): "\"\(id)\" is not a window"
        case .unknownController(let id): "\"\(id)\" is not a view controller"
        case .viewHasController(let view, let controller):
            "view \"\(view)\" is already the root view of controller \"\(controller)\""
        }
    }
}
