import TouchCore

/// Checks what no single entry can check alone: unique ids, references between entries,
/// cycles, and the rules that tie windows, controllers and views together. Also settles which
/// window is key.
struct LayoutValidator {
    let log: IssueLog

    enum ResponderKind {
        case window, view, controller, application, delegate

        var noun: String {
            switch self {
            case .window: "a window"
            case .view: "a view"
            case .controller: "a controller"
            case .application: "the application"
            case .delegate: "the app delegate"
            }
        }
    }

    /// The first declaration of each id.
    private struct Declaration {
        var kind: ResponderKind
        var path: TOMLPath
    }

    private var declarations: [String: Declaration] = [:]
    private var viewsByID: [String: ViewSpec] = [:]
    private var controllersByID: [String: ControllerSpec] = [:]

    init(log: IssueLog) {
        self.log = log
    }

    mutating func validate(_ draft: inout LayoutDraft) {
        declareIDs(draft)
        if draft.windows.isEmpty && !draft.hasWindowKey {
            log.add(.missingKey, TOMLPath.root.appending("window"),
                    "the layout has no [[window]]: expected at least one window")
        }
        checkViews(draft)
        checkControllers(draft)
        checkWindows(&draft)
        for entry in draft.handlers {
            checkReference(
                entry.spec.responder, at: path("handler", entry.index, "responder"), role: "responder",
                allowed: [.window, .view, .controller, .application, .delegate],
                expect: "the id of a window, view, controller, the application or its delegate")
            if let id = entry.spec.becomeFirstResponder {
                let at = path("handler", entry.index, "become_first_responder")
                if checkReference(id, at: at, role: "responder", allowed: [.window, .view, .controller], expect: "the id of a window, view or controller") {
                    requireCanBecome(id, at: at, draft)
                }
            }
            if let id = entry.spec.resignFirstResponder {
                checkReference(
                    id, at: path("handler", entry.index, "resign_first_responder"), role: "responder",
                    allowed: [.window, .view, .controller], expect: "the id of a window, view or controller")
            }
        }
        checkInitialFirstResponders(draft)
        checkGestures(draft)
        var controlled: Set<String> = []
        for entry in draft.controls {
            checkReference(entry.spec.view, at: path("control", entry.index, "view"), role: "view", allowed: [.view], expect: "the id of a [[view]]")
            if !controlled.insert(entry.spec.view).inserted {
                log.add(.conflict, path("control", entry.index, "view"), "view \(quote(entry.spec.view)) is already a control: expected one [[control]] per view")
            }
            for (i, target) in entry.spec.targets.enumerated() {
                if let t = target.target {
                    checkReference(
                        t, at: path("control", entry.index, "target").appending(index: i).appending("target"), role: "target",
                        allowed: [.window, .view, .controller, .application, .delegate], expect: "the id of a responder")
                }
            }
        }
        for entry in draft.devices {
            checkReference(
                entry.spec.window, at: path("device", entry.index, "window"), role: "window", allowed: [.window],
                expect: "the id of a [[window]]")
        }
    }

    /// Gestures: attached to a view, ids unique among gestures and responders, references to gestures.
    private func checkGestures(_ draft: LayoutDraft) {
        var gestureIDs: [String: Int] = [:]
        for entry in draft.gestures where !entry.spec.id.isEmpty {
            if declarations[entry.spec.id] != nil || gestureIDs[entry.spec.id] != nil {
                log.add(.duplicateID, path("gesture", entry.index, "id"),
                        "duplicate id \(quote(entry.spec.id)): expected ids unique across gestures and responders")
            } else {
                gestureIDs[entry.spec.id] = entry.index
            }
        }
        for entry in draft.gestures {
            checkReference(entry.spec.view, at: path("gesture", entry.index, "view"), role: "view", allowed: [.view], expect: "the id of a [[view]]")
            for (key, ids) in [("requires_failure_of", entry.spec.requiresFailureOf), ("simultaneous_with", entry.spec.simultaneousWith)] {
                for (i, id) in ids.enumerated() where gestureIDs[id] == nil || id == entry.spec.id {
                    let message = id == entry.spec.id
                        ? "a gesture cannot name itself: expected the id of another [[gesture]]"
                        : "unknown gesture \(quote(id)): expected the id of a [[gesture]]"
                    log.add(.unknownReference, path("gesture", entry.index, key).appending(index: i), message)
                }
            }
        }
        checkFailureRequirementCycles(draft)
    }

    /// `requires_failure_of` must not loop: recognizers waiting on each other would never recognize.
    /// Each cycle is reported once, at the `requires_failure_of` of its first member in file order.
    private func checkFailureRequirementCycles(_ draft: LayoutDraft) {
        var requires: [String: [String]] = [:]
        var indexOf: [String: Int] = [:]
        for entry in draft.gestures where !entry.spec.id.isEmpty && indexOf[entry.spec.id] == nil {
            requires[entry.spec.id] = entry.spec.requiresFailureOf.filter { $0 != entry.spec.id }
            indexOf[entry.spec.id] = entry.index
        }
        var done: Set<String> = []
        var reported: Set<Set<String>> = []
        for entry in draft.gestures where indexOf[entry.spec.id] == entry.index {
            // Depth-first from each gesture in file order, keeping the path to report a loop.
            var stack: [(id: String, next: Int)] = [(entry.spec.id, 0)]
            var onPath: [String: Int] = [entry.spec.id: 0]
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
                    var members = stack[start...].map(\.id)
                    guard reported.insert(Set(members)).inserted else { continue }
                    let first = members.indices.min { (indexOf[members[$0]] ?? 0) < (indexOf[members[$1]] ?? 0) } ?? 0
                    members = Array(members[first...] + members[..<first])
                    let firstEntry = draft.gestures.first { $0.spec.id == members[0] }!
                    let target = members.count > 1 ? members[1] : members[0]
                    let position = firstEntry.spec.requiresFailureOf.firstIndex(of: target) ?? 0
                    log.add(.cycle, path("gesture", firstEntry.index, "requires_failure_of").appending(index: position),
                            "gestures \((members + [members[0]]).map(quote).joined(separator: " → ")) each require the next to fail, so none could ever recognize: expected requires_failure_of without a cycle")
                } else if !done.contains(successor), requires[successor] != nil {
                    onPath[successor] = stack.count
                    stack.append((successor, 0))
                }
            }
        }
    }

    private func path(_ section: String, _ index: Int, _ key: String) -> TOMLPath {
        TOMLPath.root.appending(section).appending(index: index).appending(key)
    }

    // MARK: ids

    private mutating func declareIDs(_ draft: LayoutDraft) {
        var all: [(id: String, kind: ResponderKind, path: TOMLPath)] = [
            (draft.application.id, .application, TOMLPath.root.appending("application").appending("id")),
            (draft.application.delegate, .delegate, TOMLPath.root.appending("application").appending("delegate")),
        ]
        all += draft.windows.map { ($0.spec.id, .window, path("window", $0.index, "id")) }
        all += draft.controllers.map { ($0.spec.id, .controller, path("controller", $0.index, "id")) }
        all += draft.views.map { ($0.spec.id, .view, path("view", $0.index, "id")) }
        // The first in the file keeps the id; defaults (no line) come first.
        let ordered = all.enumerated().sorted { a, b in
            let lineA = log.locator.exactPosition(of: a.element.path)?.line ?? 0
            let lineB = log.locator.exactPosition(of: b.element.path)?.line ?? 0
            return lineA != lineB ? lineA < lineB : a.offset < b.offset
        }.map(\.element)
        for (id, kind, path) in ordered where !id.isEmpty {
            if let first = declarations[id] {
                var owner = describe(first)
                if let line = log.locator.exactPosition(of: first.path)?.line { owner += " on line \(line)" }
                log.add(
                    .duplicateID, path,
                    "duplicate id \(quote(id)), already used by \(owner): expected ids unique across windows, views, controllers, the application and its delegate"
                )
            } else {
                declarations[id] = Declaration(kind: kind, path: path)
            }
        }
        for entry in draft.views where viewsByID[entry.spec.id] == nil { viewsByID[entry.spec.id] = entry.spec }
        for entry in draft.controllers where controllersByID[entry.spec.id] == nil {
            controllersByID[entry.spec.id] = entry.spec
        }
    }

    private func describe(_ declaration: Declaration) -> String {
        switch declaration.kind {
        case .application:
            return log.locator.exactPosition(of: declaration.path) == nil
                ? "the application (its default id)" : "the application"
        case .delegate:
            return log.locator.exactPosition(of: declaration.path) == nil
                ? "the app delegate (its default id)" : "the app delegate"
        default:
            var entry = declaration.path
            entry.components.removeLast()
            return log.entryName(entry)
        }
    }

    /// Whether `id` names a responder of an allowed kind; reports it when not.
    @discardableResult
    private func checkReference(
        _ id: String, at path: TOMLPath, role: String, allowed: Set<ResponderKind>, expect: String
    ) -> Bool {
        guard !id.isEmpty else { return false }
        if let declaration = declarations[id] {
            if allowed.contains(declaration.kind) { return true }
            log.add(
                .unknownReference, path,
                "\(role) \(quote(id)) is \(declaration.kind.noun): expected \(expect)")
            return false
        }
        var message = "unknown \(role) \(quote(id)): nothing has this id: expected \(expect)"
        let candidates = declarations.filter { allowed.contains($0.value.kind) }.keys.sorted()
        if let hint = Suggestions.didYouMean(id, among: candidates) { message += "; \(hint)" }
        log.add(.unknownReference, path, message)
        return false
    }

    // MARK: views

    private func checkViews(_ draft: LayoutDraft) {
        var parentOf: [String: String] = [:]
        for entry in draft.views {
            let view = entry.spec
            guard !view.parent.isEmpty else { continue }
            if view.parent == view.id {
                continue  // reported as a cycle below
            }
            if checkReference(
                view.parent, at: path("view", entry.index, "parent"), role: "parent", allowed: [.window, .view],
                expect: "the id of a [[window]] or of a [[view]]"),
                declarations[view.parent]?.kind == .view, parentOf[view.id] == nil, !view.id.isEmpty
            {
                parentOf[view.id] = view.parent
            }
        }
        for entry in draft.views where entry.spec.parent == entry.spec.id && !entry.spec.id.isEmpty {
            parentOf[entry.spec.id] = entry.spec.id
        }
        let order = draft.views.map { (id: $0.spec.id, index: $0.index) }
        for cycle in findCycles(order: order, next: parentOf) {
            let message =
                cycle.members.count == 1
                ? "view \(quote(cycle.members[0])) is its own parent: expected every chain of parents to end at a window"
                : "views \((cycle.members + [cycle.members[0]]).map(quote).joined(separator: " → ")) form a cycle of parents: expected every chain of parents to end at a window"
            log.add(.cycle, path("view", cycle.index, "parent"), message)
        }

        // Depth: chains of parents (cycles were reported above) must stay within the core's bound.
        // Only the first view past the bound is reported, not each of its descendants.
        var depths: [String: Int] = [:]
        func depth(of id: String) -> Int? {
            var chain: [String] = []
            var current = id
            var base: Int
            while true {
                if let known = depths[current] {
                    base = known
                    break
                }
                guard let parent = parentOf[current] else {
                    base = 1  // directly in a window
                    depths[current] = base
                    break
                }
                chain.append(current)
                if chain.count > parentOf.count { return nil }  // a cycle, reported above
                current = parent
            }
            for (offset, member) in chain.reversed().enumerated() { depths[member] = base + offset + 1 }
            return depths[id]
        }
        for entry in draft.views where !entry.spec.id.isEmpty {
            guard let d = depth(of: entry.spec.id), d == ViewTree.maximumDepth + 1 else { continue }
            log.add(
                .invalidValue, path("view", entry.index, "parent"),
                "view \(quote(entry.spec.id)) is nested \(d) levels below its window: expected at most \(ViewTree.maximumDepth)"
                    + " (its subviews are deeper still)")
        }

        for entry in draft.views {
            guard case .redirect(let target) = entry.spec.hitTest else { continue }
            let at = path("view", entry.index, "redirect")
            let expect = "the id of a strict descendant of this view (a subview, or a subview of one)"
            guard checkReference(target, at: at, role: "redirect target", allowed: [.view], expect: expect) else {
                continue
            }
            if target == entry.spec.id {
                log.add(.invalidValue, at, "redirect names the view itself: expected \(expect)")
                continue
            }
            var seen: Set<String> = []
            var ancestor = parentOf[target]
            var found = false
            while let current = ancestor, !seen.contains(current) {
                if current == entry.spec.id {
                    found = true
                    break
                }
                seen.insert(current)
                ancestor = parentOf[current]
            }
            if !found {
                let parent = viewsByID[target]?.parent ?? ""
                log.add(
                    .invalidValue, at,
                    "\(quote(target)) is not inside view \(quote(entry.spec.id)) (its parent is \(quote(parent))): expected \(expect)"
                )
            }
        }
    }

    // MARK: controllers

    private func checkControllers(_ draft: LayoutDraft) {
        var rootOf: [String: Int] = [:]
        var presenter: [String: String] = [:]
        for entry in draft.controllers {
            let controller = entry.spec
            let viewPath = path("controller", entry.index, "view")
            if checkReference(
                controller.view, at: viewPath, role: "view", allowed: [.view],
                expect: "the id of the controller's root [[view]]")
            {
                if let other = rootOf[controller.view] {
                    let otherName = log.entryName(TOMLPath.root.appending("controller").appending(index: other))
                    log.add(
                        .conflict, viewPath,
                        "view \(quote(controller.view)) is already the root view of \(otherName): expected each view to be the root view of at most one controller"
                    )
                } else {
                    rootOf[controller.view] = entry.index
                }
            }
            guard let presentedBy = controller.presentedBy else { continue }
            if presentedBy == controller.id {
                presenter[controller.id] = presentedBy
            } else if checkReference(
                presentedBy, at: path("controller", entry.index, "presented_by"), role: "presenting controller",
                allowed: [.controller], expect: "the id of the [[controller]] that presents this one"),
                !controller.id.isEmpty, presenter[controller.id] == nil
            {
                presenter[controller.id] = presentedBy
            }
        }
        let order = draft.controllers.map { (id: $0.spec.id, index: $0.index) }
        for cycle in findCycles(order: order, next: presenter) {
            let message =
                cycle.members.count == 1
                ? "controller \(quote(cycle.members[0])) presents itself: expected a different controller"
                : "controllers \((cycle.members + [cycle.members[0]]).map(quote).joined(separator: " → ")) present each other in a cycle: expected every chain of presenting controllers to end"
            log.add(.cycle, path("controller", cycle.index, "presented_by"), message)
        }
    }

    // MARK: windows

    private func checkWindows(_ draft: inout LayoutDraft) {
        var rootControllerOf: [String: Int] = [:]
        for entry in draft.windows {
            let window = entry.spec
            guard let controllerID = window.rootController else { continue }
            let at = path("window", entry.index, "root_controller")
            guard checkReference(
                controllerID, at: at, role: "root controller", allowed: [.controller], expect: "the id of a [[controller]]")
            else { continue }
            if let other = rootControllerOf[controllerID] {
                let otherName = log.entryName(TOMLPath.root.appending("window").appending(index: other))
                log.add(
                    .conflict, at,
                    "controller \(quote(controllerID)) is already the root controller of \(otherName): expected each controller to be the root of at most one window"
                )
                continue
            }
            rootControllerOf[controllerID] = entry.index
            guard let controller = controllersByID[controllerID], let view = viewsByID[controller.view],
                !view.parent.isEmpty, view.parent != window.id
            else { continue }
            log.add(
                .conflict, at,
                "root controller \(quote(controllerID)) has root view \(quote(controller.view)), whose parent is \(quote(view.parent)), not this window: expected the root controller's view to be a top-level view of this window (parent = \(quote(window.id)))"
            )
        }

        // Key window: the one with key = true, else the first not marked key = false.
        let keyed = draft.windows.indices.filter { draft.windowKeyFlags[$0] == true }
        if let first = keyed.first {
            let firstName = log.entryName(TOMLPath.root.appending("window").appending(index: draft.windows[first].index))
            for extra in keyed.dropFirst() {
                log.add(
                    .conflict, path("window", draft.windows[extra].index, "key"),
                    "a second key window: \(firstName) already has key = true: expected at most one key window")
            }
            draft.windows[first].spec.isKey = true
        } else if let first = draft.windows.indices.first(where: { draft.windowKeyFlags[$0] != false }) {
            draft.windows[first].spec.isKey = true
        }
    }

    // MARK: first responders

    /// The traits declared for a window, view or controller.
    private func traits(of id: String, _ draft: LayoutDraft) -> FirstResponderTraitsSpec? {
        switch declarations[id]?.kind {
        case .window: draft.windows.first { $0.spec.id == id }?.spec.firstResponderTraits
        case .view: viewsByID[id]?.firstResponderTraits
        case .controller: controllersByID[id]?.firstResponderTraits
        default: nil
        }
    }

    /// Reports a responder named as a first responder that cannot become one.
    private func requireCanBecome(_ id: String, at path: TOMLPath, _ draft: LayoutDraft) {
        guard let traits = traits(of: id, draft), !traits.canBecome else { return }
        log.add(
            .conflict, path,
            "\(declarations[id]!.kind.noun) \(quote(id)) cannot become first responder: expected it to have can_become_first_responder = true")
    }

    /// The window a window, view or controller belongs to, following parents (nil when unknown).
    private func windowOf(_ id: String, _ draft: LayoutDraft) -> String? {
        var current = id
        if declarations[id]?.kind == .controller {
            guard let view = controllersByID[id]?.view else { return nil }
            current = view
        }
        for _ in 0...viewsByID.count {
            if declarations[current]?.kind == .window { return current }
            guard let view = viewsByID[current] else { return nil }
            current = view.parent
        }
        return nil
    }

    /// `first_responder` of each window: a responder of that window that can become first responder.
    private func checkInitialFirstResponders(_ draft: LayoutDraft) {
        for entry in draft.windows {
            guard let id = entry.spec.firstResponder else { continue }
            let at = path("window", entry.index, "first_responder")
            guard checkReference(id, at: at, role: "first responder", allowed: [.window, .view, .controller], expect: "the id of a window, view or controller")
            else { continue }
            if let window = windowOf(id, draft), window != entry.spec.id {
                log.add(
                    .conflict, at,
                    "\(declarations[id]!.kind.noun) \(quote(id)) is in window \(quote(window)), not this one: expected a responder of window \(quote(entry.spec.id))")
                continue
            }
            requireCanBecome(id, at: at, draft)
        }
    }

    // MARK: cycles

    /// The cycles of the graph `next` (each node has at most one successor), each once, as its
    /// members starting from the one that comes first in `order`, with that one's index.
    private func findCycles(order: [(id: String, index: Int)], next: [String: String]) -> [(members: [String], index: Int)] {
        var position: [String: Int] = [:]
        for (offset, item) in order.enumerated() where position[item.id] == nil { position[item.id] = offset }
        var done: Set<String> = []
        var cycles: [(members: [String], index: Int)] = []
        for item in order where !done.contains(item.id) && !item.id.isEmpty {
            var chain: [String] = []
            var onChain: [String: Int] = [:]
            var current: String? = item.id
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
