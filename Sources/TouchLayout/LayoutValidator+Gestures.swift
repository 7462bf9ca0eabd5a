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
