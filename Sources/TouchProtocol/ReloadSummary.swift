import TouchCore

/// The state of a tree that a reload compares: its windows and views, its controls' state and its
/// first responders. Taken from a layout as loaded (the baseline of what clients change at run
/// time) and from the running application.
public struct TreeState: Sendable {
    public var tree: ViewTree
    public var controls: [ControlSpec]
    /// Each window's first responder.
    public var firstResponders: [ResponderID: ResponderID]

    public init(tree: ViewTree, controls: [ControlSpec], firstResponders: [ResponderID: ResponderID]) {
        self.tree = tree
        self.controls = controls
        self.firstResponders = firstResponders
    }

    /// The state of `app` now.
    public init(_ app: Application) {
        self.init(tree: app.tree, controls: app.controlSpecs, firstResponders: app.firstRespondersByWindow)
    }

    /// What a window or view is, for comparison: its parent and its properties (windows: their
    /// own).
    fileprivate enum Entry: Hashable {
        case window(WindowProperties)
        case view(parent: ResponderID?, ViewProperties)
    }

    /// Every window and view, in tree order, with what it is.
    fileprivate var entries: [(ResponderID, Entry)] { entries(withRootControllers: true) }

    /// ``entries``, the windows' root controllers left out with `false`: no request sets one, and a
    /// window loses its own when a client removes the controller's view (a removal, not a `set`).
    fileprivate func entries(withRootControllers: Bool) -> [(ResponderID, Entry)] {
        var list: [(ResponderID, Entry)] = []
        for window in tree.windowIDs {
            if var w = tree.windowProperties(of: window) {
                if !withRootControllers { w.rootController = nil }
                list.append((window, .window(w)))
            }
            for view in tree.views(in: window) {
                guard let p = tree.properties(of: view) else { continue }
                list.append((view, .view(parent: tree.superview(of: view), p)))
            }
        }
        return list
    }
}

/// What clients are told when the layout is reloaded (the `reload` message): what the new layout
/// changed from the old one, and the changes made at run time (by requests and handlers) that the
/// reload dropped, so that an app can apply its state again. Each list holds at most
/// ``Limits/maximumReloadListEntries`` ids, in tree order; ``omitted`` counts those left out.
public struct ReloadSummary: Hashable, Sendable {
    /// The new layout's view count.
    public var views: Int
    /// Windows and views of the new layout that the old one did not have.
    public var added: [ResponderID] = []
    /// Windows and views of the old layout that the new one does not have.
    public var removed: [ResponderID] = []
    /// Windows and views in both whose properties or parent differ.
    public var changed: [ResponderID] = []
    /// Views whose properties were changed at run time (`set`), from the old layout's.
    public var droppedSet: [ResponderID] = []
    /// Views added at run time (`add_view`).
    public var droppedAdded: [ResponderID] = []
    /// Views of the old layout removed at run time (`remove_view`).
    public var droppedRemoved: [ResponderID] = []
    /// Windows whose first responder had changed at run time.
    public var droppedFirstResponders: [ResponderID] = []
    /// Controls whose value or `enabled` had changed at run time.
    public var droppedControls: [ResponderID] = []
    /// Ids left out of the lists past their bound.
    public var omitted = 0

    /// Compares the old layout as loaded (`old`), the running tree (`running`, the old layout with
    /// the run-time changes) and the new layout as loaded (`new`).
    public init(old: TreeState, running: TreeState, new: TreeState) {
        views = new.tree.viewCount
        let oldEntries = old.entries
        let runningEntries = running.entries
        let newEntries = new.entries
        let oldByID = Dictionary(oldEntries, uniquingKeysWith: { a, _ in a })
        let runningByID = Dictionary(runningEntries, uniquingKeysWith: { a, _ in a })
        let newByID = Dictionary(newEntries, uniquingKeysWith: { a, _ in a })
        added = bounded(newEntries.filter { oldByID[$0.0] == nil }.map(\.0))
        removed = bounded(oldEntries.filter { newByID[$0.0] == nil }.map(\.0))
        changed = bounded(newEntries.filter { id, entry in oldByID[id].map { $0 != entry } ?? false }.map(\.0))
        let oldSettable = Dictionary(old.entries(withRootControllers: false), uniquingKeysWith: { a, _ in a })
        droppedSet = bounded(running.entries(withRootControllers: false).filter { id, entry in oldSettable[id].map { $0 != entry } ?? false }.map(\.0))
        droppedAdded = bounded(runningEntries.filter { oldByID[$0.0] == nil }.map(\.0))
        droppedRemoved = bounded(oldEntries.filter { runningByID[$0.0] == nil }.map(\.0))
        droppedFirstResponders = bounded(
            running.tree.windowIDs.filter { old.tree.kind(of: $0) == .window && running.firstResponders[$0] != old.firstResponders[$0] })
        let oldControls = Dictionary(old.controls.map { ($0.view, $0) }, uniquingKeysWith: { a, _ in a })
        droppedControls = bounded(running.controls.filter { spec in oldControls[spec.view].map { $0 != spec } ?? false }.map(\.view))
    }

    /// `ids` cut to the bound, counting what is left out.
    private mutating func bounded(_ ids: [ResponderID]) -> [ResponderID] {
        guard ids.count > Limits.maximumReloadListEntries else { return ids }
        omitted += ids.count - Limits.maximumReloadListEntries
        return Array(ids.prefix(Limits.maximumReloadListEntries))
    }
}
