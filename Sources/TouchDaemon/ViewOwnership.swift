import TouchCore

/// The views each client added with `add_view` and that are still in the tree: what counts
/// against its budget (``ClientLimits/maximumViewsPerClient``) and what is removed when it leaves.
///
/// A view belongs to the client that added it. It stops belonging to anyone when it leaves the
/// tree by any means: a `remove_view` (of it or a view above it, by any client), the removal of
/// another client's views when that client leaves, or a reload (which replaces the whole tree).
struct ViewOwnership {
    /// Each owned view's owner (a connection's serial).
    private var owners: [ResponderID: UInt64] = [:]
    /// Each client's views, in the order it added them (a parent before the views added under it).
    private var views: [UInt64: [ResponderID]] = [:]

    /// How many views `client` owns.
    func count(of client: UInt64) -> Int { views[client]?.count ?? 0 }

    /// How many views all clients own together.
    var totalCount: Int { owners.count }

    /// Records that `client` added `view`.
    mutating func add(_ view: ResponderID, owner client: UInt64) {
        owners[view] = client
        views[client, default: []].append(view)
    }

    /// Forgets every owned view for which `isInTree` is false (after views left the tree).
    mutating func removeAll(notIn isInTree: (ResponderID) -> Bool) {
        let gone = owners.keys.filter { !isInTree($0) }
        guard !gone.isEmpty else { return }
        var touched: Set<UInt64> = []
        for view in gone {
            if let owner = owners.removeValue(forKey: view) { touched.insert(owner) }
        }
        for owner in touched {
            let left = views[owner, default: []].filter { owners[$0] == owner }
            views[owner] = left.isEmpty ? nil : left
        }
    }

    /// Takes `client`'s views out of the table, in the order it added them.
    mutating func takeViews(of client: UInt64) -> [ResponderID] {
        let taken = (views.removeValue(forKey: client) ?? []).filter { owners[$0] == client }
        for view in taken { owners[view] = nil }
        return taken
    }

    /// Forgets every view (the tree was replaced).
    mutating func removeAll() {
        owners.removeAll()
        views.removeAll()
    }
}
