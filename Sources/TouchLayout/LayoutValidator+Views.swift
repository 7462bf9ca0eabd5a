import TouchCore

/// The views: parents that exist, no cycles of parents, the depth below the window, redirect
/// targets inside their view.
extension LayoutValidator {
    func checkViews(_ draft: LayoutDraft) {
        let parentOf = viewParents(draft)
        let order = draft.views.map { (id: $0.spec.id, index: $0.index) }
        reportCycles(order: order, next: parentOf, at: ("view", "parent")) { single, chain in
            single.map { "view \($0) is its own parent: expected every chain of parents to end at a window" }
                ?? "views \(chain) form a cycle of parents: expected every chain of parents to end at a window"
        }
        checkDepths(draft, parentOf: parentOf)
        checkComposedScales(draft, parentOf: parentOf)
        checkRedirects(draft, parentOf: parentOf)
    }

    /// Each view's parent when that is a view (checking that every parent exists), the first
    /// declaration of an id winning. A view that is its own parent is kept, as a cycle.
    private func viewParents(_ draft: LayoutDraft) -> [ResponderID: ResponderID] {
        var parentOf: [ResponderID: ResponderID] = [:]
        for entry in draft.views {
            let view = entry.spec
            guard !view.parent.rawValue.isEmpty, !view.id.rawValue.isEmpty else { continue }
            if view.parent == view.id {
                if parentOf[view.id] == nil { parentOf[view.id] = view.id }
                continue
            }
            if checkReference(
                view.parent, at: path("view", entry.index, "parent"), role: "parent", allowed: [.window, .view],
                expect: "the id of a [[window]] or of a [[view]]"),
                declarations[view.parent]?.kind == .view, parentOf[view.id] == nil
            {
                parentOf[view.id] = view.parent
            }
        }
        return parentOf
    }

    /// Chains of parents (cycles were reported already) must stay within
    /// ``Limits/maximumViewDepth``. Only the first view past the bound is reported, not each of
    /// its descendants. Each view's depth is found once (a walk up stops at the first view whose
    /// depth is known), so this is linear in the number of views.
    private func checkDepths(_ draft: LayoutDraft, parentOf: [ResponderID: ResponderID]) {
        // A view's levels below its window; -1 on a cycle of parents or above one.
        var depths: [ResponderID: Int] = [:]
        for entry in draft.views where !entry.spec.id.rawValue.isEmpty {
            var chain: [ResponderID] = []
            var onChain: Set<ResponderID> = []
            var current = entry.spec.id
            var base = 0
            while true {
                if let known = depths[current] {
                    base = known
                    break
                }
                guard onChain.insert(current).inserted else {
                    base = -1
                    break
                }
                chain.append(current)
                guard let parent = parentOf[current] else { break }
                current = parent
            }
            for (offset, member) in chain.reversed().enumerated() { depths[member] = base < 0 ? -1 : base + offset + 1 }
            guard depths[entry.spec.id] == Limits.maximumViewDepth + 1 else { continue }
            log.add(
                .exceedsLimit, path("view", entry.index, "parent"),
                "view \(quote(entry.spec.id.rawValue)) is nested \(Limits.maximumViewDepth + 1) levels below its window: "
                    + "expected at most \(Limits.maximumViewDepth) (its subviews are deeper still)")
        }
    }

    /// Each view's composed scale (its transform's with its superviews') must stay within
    /// ``Limits/maximumComposedScale``. Only the first view past the bound on a path is reported,
    /// at its `transform` (its subviews are past it too).
    private func checkComposedScales(_ draft: LayoutDraft, parentOf: [ResponderID: ResponderID]) {
        let scales = composedScales(draft, parentOf: parentOf)
        var seen: Set<ResponderID> = []
        for entry in draft.views where seen.insert(entry.spec.id).inserted {
            guard let scale = scales[entry.spec.id], let excess = scale.excess else { continue }
            let above = parentOf[entry.spec.id].flatMap { scales[$0] } ?? .identity
            guard above.isWithinLimits else { continue }
            log.add(
                .exceedsLimit, path("view", entry.index, "transform"),
                "view \(quote(entry.spec.id.rawValue)): its transform with its superviews' \(excess): \(ComposedScale.expectation)")
        }
    }

    /// Each view's composed scale, by the first declaration of its id; the identity for a view
    /// whose chain of parents ends in a cycle (cycles were reported already). Each view's scale is found once (a
    /// walk up stops at the first view whose scale is known), so this is linear in the views.
    private func composedScales(_ draft: LayoutDraft, parentOf: [ResponderID: ResponderID]) -> [ResponderID: ComposedScale] {
        var scales: [ResponderID: ComposedScale] = [:]
        for entry in draft.views where !entry.spec.id.rawValue.isEmpty && scales[entry.spec.id] == nil {
            var chain: [ResponderID] = []
            var onChain: Set<ResponderID> = []
            var current: ResponderID? = entry.spec.id
            var base = ComposedScale.identity
            var isCycle = false
            while let id = current {
                if let known = scales[id] {
                    base = known
                    break
                }
                guard onChain.insert(id).inserted else {
                    isCycle = true
                    break
                }
                chain.append(id)
                current = parentOf[id]
            }
            for member in chain.reversed() {
                if !isCycle, let transform = viewsByID[member]?.transform { base = base.appending(transform) }
                scales[member] = base
            }
        }
        return scales
    }

    /// A redirecting view's target must be a strict descendant of it.
    private func checkRedirects(_ draft: LayoutDraft, parentOf: [ResponderID: ResponderID]) {
        let expect = "the id of a strict descendant of this view (a subview, or a subview of one)"
        for entry in draft.views {
            let target: ResponderID
            switch entry.spec.hitTestPolicy {
            case .redirect(let named), .redirectAnywhere(let named), .redirectInsideTarget(let named): target = named
            case .default, .passThrough, .capture, .refuse: continue
            }
            let at = path("view", entry.index, "redirect")
            guard checkReference(target, at: at, role: "redirect target", allowed: [.view], expect: expect) else { continue }
            if target == entry.spec.id {
                log.add(.invalidValue, at, "redirect names the view itself: expected \(expect)")
                continue
            }
            var ancestor = parentOf[target]
            var steps = 0
            while let current = ancestor, current != entry.spec.id, steps <= Limits.maximumViewDepth {
                ancestor = parentOf[current]
                steps += 1
            }
            if ancestor != entry.spec.id {
                let parent = viewsByID[target]?.parent.rawValue ?? ""
                log.add(
                    .invalidValue, at,
                    "\(quote(target.rawValue)) is not inside view \(quote(entry.spec.id.rawValue)) (its parent is \(quote(parent))): expected \(expect)")
            }
        }
    }

    /// Reports each cycle among `order`'s entries through `next` (``findCycles(order:next:)``) at
    /// the `key` of the entry's `table`, with the message `message` makes: from the one entry's
    /// quoted id when it points at itself, else from the quoted ids of the chain, joined by `→`
    /// and back to the first.
    func reportCycles(
        order: [(id: ResponderID, index: Int)], next: [ResponderID: ResponderID], at place: (table: String, key: String),
        message: (_ single: String?, _ chain: String) -> String
    ) {
        for cycle in findCycles(order: order, next: next) {
            let names = (cycle.members + [cycle.members[0]]).map { quote($0.rawValue) }
            let single = cycle.members.count == 1 ? names[0] : nil
            log.add(.cycle, path(place.table, cycle.index, place.key), message(single, names.joined(separator: " → ")))
        }
    }

    /// The cycles of the graph `next` (each node has at most one successor), each once, as its
    /// members starting from the one that comes first in `order`, with that one's index.
    func findCycles(
        order: [(id: ResponderID, index: Int)], next: [ResponderID: ResponderID]
    ) -> [(members: [ResponderID], index: Int)] {
        var position: [ResponderID: Int] = [:]
        for (offset, item) in order.enumerated() where position[item.id] == nil { position[item.id] = offset }
        var done: Set<ResponderID> = []
        var cycles: [(members: [ResponderID], index: Int)] = []
        for item in order where !done.contains(item.id) && !item.id.rawValue.isEmpty {
            var chain: [ResponderID] = []
            var onChain: [ResponderID: Int] = [:]
            var current: ResponderID? = item.id
            while let node = current, !done.contains(node), next[node] != nil || onChain[node] != nil {
                if let start = onChain[node] {
                    var members = Array(chain[start...])
                    let firstOffset = members.indices.min { (position[members[$0]] ?? 0) < (position[members[$1]] ?? 0) } ?? 0
                    members = Array(members[firstOffset...] + members[..<firstOffset])
                    cycles.append((members, order[position[members[0]] ?? 0].index))
                    break
                }
                onChain[node] = chain.count
                chain.append(node)
                current = next[node]
            }
            done.formUnion(chain)
        }
        return cycles
    }
}
