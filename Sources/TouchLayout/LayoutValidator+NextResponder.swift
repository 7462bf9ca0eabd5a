import TouchCore

/// `next_responder` overrides: each names a responder, and no responder chain goes round in a
/// circle through one.
extension LayoutValidator {
    func checkNextResponders(_ draft: LayoutDraft) {
        var overrides: [(id: ResponderID, next: ResponderID, table: String, index: Int)] = []
        for entry in draft.views {
            if let next = entry.spec.properties.nextResponder { overrides.append((entry.spec.id, next, "view", entry.index)) }
        }
        for entry in draft.controllers {
            if let next = entry.spec.properties.nextResponder { overrides.append((entry.spec.id, next, "controller", entry.index)) }
        }
        guard !overrides.isEmpty else { return }
        var valid: [ResponderID: (next: ResponderID, table: String, index: Int)] = [:]
        for o in overrides {
            let at = path(o.table, o.index, "next_responder")
            guard
                checkReference(
                    o.next, at: at, role: "next responder", allowed: [.window, .view, .controller, .application, .appDelegate],
                    expect: LayoutReader.nextResponderExpectation)
            else { continue }
            if o.next == o.id {
                log.add(.cycle, at, "next_responder names \(quote(o.id.rawValue)) itself: expected another responder, up to the app delegate")
                continue
            }
            if valid[o.id] == nil { valid[o.id] = (o.next, o.table, o.index) }
        }
        reportChainCycles(draft, overrides: valid)
    }

    /// Every responder's next one with the overrides in place; a cycle through an override is
    /// reported once, at the first override on it.
    private func reportChainCycles(
        _ draft: LayoutDraft, overrides: [ResponderID: (next: ResponderID, table: String, index: Int)]
    ) {
        var next: [ResponderID: ResponderID] = [:]
        var rootControllerOf: [ResponderID: ResponderID] = [:]
        for entry in draft.controllers where rootControllerOf[entry.spec.properties.view] == nil {
            rootControllerOf[entry.spec.properties.view] = entry.spec.id
        }
        var windowOfRoot: [ResponderID: ResponderID] = [:]
        for entry in draft.windows {
            if let root = entry.spec.properties.rootController, windowOfRoot[root] == nil { windowOfRoot[root] = entry.spec.id }
        }
        var parentOf: [ResponderID: ResponderID] = [:]
        for entry in draft.views where parentOf[entry.spec.id] == nil {
            parentOf[entry.spec.id] = entry.spec.parent
            next[entry.spec.id] = overrides[entry.spec.id]?.next ?? rootControllerOf[entry.spec.id] ?? entry.spec.parent
        }
        for entry in draft.controllers where next[entry.spec.id] == nil {
            let c = entry.spec.properties
            next[entry.spec.id] =
                overrides[entry.spec.id]?.next ?? windowOfRoot[entry.spec.id] ?? c.presentedBy ?? parentOf[c.view]
        }
        // Windows lead to the application and the delegate, which end every chain: not in `next`.
        let order = (draft.views.map { $0.spec.id } + draft.controllers.map { $0.spec.id }).enumerated().map { (id: $1, index: $0) }
        for cycle in findCycles(order: order, next: next) {
            guard let first = cycle.members.first(where: { overrides[$0] != nil }), let place = overrides[first] else { continue }
            let start = cycle.members.firstIndex(of: first) ?? 0
            let members = Array(cycle.members[start...] + cycle.members[..<start])
            let names = (members + [first]).map { quote($0.rawValue) }.joined(separator: " → ")
            log.add(
                .cycle, path(place.table, place.index, "next_responder"),
                "the responder chain goes round in a circle: \(names): expected every chain to end at the app delegate")
        }
    }
}
