import TouchCore

/// Gestures: attached to a view, ids unique among gestures and responders, references to
/// gestures, and no cycle of `requires_failure_of`.
extension LayoutValidator {
    func checkGestures(_ draft: LayoutDraft) {
        var gestureIDs: Set<ResponderID> = []
        for entry in draft.gestures where !entry.spec.id.rawValue.isEmpty {
            if declarations[entry.spec.id] != nil || !gestureIDs.insert(entry.spec.id).inserted {
                log.add(
                    .duplicateID, path("gesture", entry.index, "id"),
                    "duplicate id \(quote(entry.spec.id.rawValue)): expected ids unique across gestures and responders")
            }
        }
        for entry in draft.gestures {
            let spec = entry.spec
            checkReference(spec.view, at: path("gesture", entry.index, "view"), role: "view", allowed: [.view], expect: "the id of a [[view]]")
            for (key, ids) in [("requires_failure_of", spec.requiresFailureOf), ("simultaneous_with", spec.recognizesSimultaneouslyWith)] {
                for (i, id) in ids.enumerated() where !gestureIDs.contains(id) || id == spec.id {
                    let message =
                        id == spec.id
                        ? "a gesture cannot name itself: expected the id of another [[gesture]]"
                        : "unknown gesture \(quote(id.rawValue)): expected the id of a [[gesture]]"
                    log.add(.unknownReference, path("gesture", entry.index, key).appending(index: i), message)
                }
            }
        }
        checkFailureRequirementCycles(draft)
        checkRecognizersOnHitPaths(draft)
    }

    /// No view's hit path (the view and the views above it) may carry more than
    /// ``Limits/maximumRecognizersOnHitPath`` recognizers: a touch on the view is offered to each.
    /// Reported once, at the gesture that takes a view's path past the bound (not again for the
    /// views below it, nor for its later gestures). Each view's count is found once (a walk up
    /// stops at the first view whose count is known), so this is linear in the views.
    private func checkRecognizersOnHitPaths(_ draft: LayoutDraft) {
        var own: [ResponderID: [Int]] = [:]
        for entry in draft.gestures where viewsByID[entry.spec.view] != nil { own[entry.spec.view, default: []].append(entry.index) }
        guard !own.isEmpty else { return }
        // The recognizers on each view's hit path; walks stop after the deepest a view may be
        // (a cycle of parents was reported already).
        var onPath: [ResponderID: Int] = [:]
        func count(_ view: ResponderID) -> Int {
            var chain: [ResponderID] = []
            var current: ResponderID? = view
            var base = 0
            while let v = current, chain.count <= Limits.maximumViewDepth + 1 {
                if let known = onPath[v] {
                    base = known
                    break
                }
                chain.append(v)
                current = viewsByID[v].map(\.parent).flatMap { viewsByID[$0] != nil && $0 != v ? $0 : nil }
            }
            for member in chain.reversed() {
                base += own[member]?.count ?? 0
                onPath[member] = base
            }
            return onPath[view] ?? base
        }
        let limit = Limits.maximumRecognizersOnHitPath
        var reported: Set<ResponderID> = []
        for entry in draft.views {
            let view = entry.spec.id
            guard let gestures = own[view], count(view) > limit, reported.insert(view).inserted else { continue }
            let above = count(view) - gestures.count
            // Reported above already when the views above carry too many.
            guard above <= limit else { continue }
            log.add(
                .exceedsLimit, path("gesture", gestures[limit - above], "view"),
                "view \(quote(view.rawValue))'s hit path (the view and the views above it) carries \(count(view)) gesture recognizers "
                    + "(\(gestures.count) on the view itself): expected at most \(limit), since a touch on it is offered to each")
        }
    }

    /// `requires_failure_of` must not loop: recognizers waiting on each other would never recognize.
    /// Each cycle is reported once, at the `requires_failure_of` of its first member in file order.
    private func checkFailureRequirementCycles(_ draft: LayoutDraft) {
        var requires: [ResponderID: [ResponderID]] = [:]
        var entryOf: [ResponderID: Entry<GestureRecognizerSpec>] = [:]
        for entry in draft.gestures where !entry.spec.id.rawValue.isEmpty && entryOf[entry.spec.id] == nil {
            requires[entry.spec.id] = entry.spec.requiresFailureOf.filter { $0 != entry.spec.id }
            entryOf[entry.spec.id] = entry
        }
        var done: Set<ResponderID> = []
        var reported: Set<Set<ResponderID>> = []
        for entry in draft.gestures where entryOf[entry.spec.id]?.index == entry.index {
            // Depth-first from each gesture in file order, keeping the path to report a loop.
            var stack: [(id: ResponderID, next: Int)] = [(entry.spec.id, 0)]
            var onPath: [ResponderID: Int] = [entry.spec.id: 0]
            while let top = stack.last {
                let successors = requires[top.id] ?? []
                guard top.next < successors.count else {
                    done.insert(top.id)
                    onPath[top.id] = nil
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let successor = successors[top.next]
                if let start = onPath[successor] {
                    // Each back edge is met once; past the listed problems, a cycle is not worth its cost.
                    guard !log.isFull else { continue }
                    let members = stack[start...].map(\.id)
                    if reported.insert(Set(members)).inserted { reportCycle(members, entryOf: entryOf) }
                } else if !done.contains(successor), requires[successor] != nil {
                    onPath[successor] = stack.count
                    stack.append((successor, 0))
                }
            }
        }
    }

    /// Reports a cycle of `requires_failure_of` at its first member in the file.
    private func reportCycle(_ cycle: [ResponderID], entryOf: [ResponderID: Entry<GestureRecognizerSpec>]) {
        let index = { (id: ResponderID) in entryOf[id]?.index ?? 0 }
        let first = cycle.indices.min { index(cycle[$0]) < index(cycle[$1]) } ?? 0
        let members = Array(cycle[first...] + cycle[..<first])
        guard let firstEntry = entryOf[members[0]] else { return }
        let target = members.count > 1 ? members[1] : members[0]
        let position = firstEntry.spec.requiresFailureOf.firstIndex(of: target) ?? 0
        let names = (members + [members[0]]).map { quote($0.rawValue) }.joined(separator: " → ")
        log.add(
            .cycle, path("gesture", firstEntry.index, "requires_failure_of").appending(index: position),
            "gestures \(names) each require the next to fail, so none could ever recognize: expected requires_failure_of without a cycle")
    }
}
