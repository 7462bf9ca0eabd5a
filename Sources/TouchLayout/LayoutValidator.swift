import TouchCore

/// Checks what no single entry can check alone: unique ids, references between entries,
/// cycles, the depth of views, and the rules that tie windows, controllers and views together.
/// Also settles which window is key.
///
/// Every check is a walk over the entries with dictionary look-ups (and walks up chains of
/// parents bounded by ``Limits/maximumViewDepth``), so a layout at its budgets is validated in
/// near-linear time. The checks of each part are in the `LayoutValidator+*.swift` files.
struct LayoutValidator {
    let log: IssueLog


    /// The first declaration of each id.
    struct Declaration {
        var kind: ResponderKind
        var path: TOMLPath
    }

    /// The ids of each set of allowed kinds, sorted, for suggestions: found once per set (a file
    /// may name many unknown ids) and only when a suggestion is wanted.
    final class CandidateCache {
        var sortedIDs: [Set<ResponderKind>: [String]] = [:]
    }

    var declarations: [ResponderID: Declaration] = [:]
    let candidates = CandidateCache()
    var viewsByID: [ResponderID: ViewSpec] = [:]
    var controllersByID: [ResponderID: ControllerSpec] = [:]
    var windowsByID: [ResponderID: WindowSpec] = [:]

    init(log: IssueLog) {
        self.log = log
    }

    mutating func validate(_ draft: inout LayoutDraft) {
        declareIDs(draft)
        if draft.windows.isEmpty && !draft.hasWindowKey {
            log.add(.missingKey, TOMLPath.root.appending("window"), "the layout has no [[window]]: expected at least one window")
        }
        checkViews(draft)
        checkControllers(draft)
        checkWindows(&draft)
        checkNextResponders(draft)
        checkHandlers(draft)
        checkInitialFirstResponders(draft)
        checkGestures(draft)
        checkControls(draft)
        for entry in draft.devices where !entry.spec.window.isEmpty {
            checkReference(
                ResponderID(entry.spec.window), at: path("device", entry.index, "window"), role: "window", allowed: [.window],
                expect: "the id of a [[window]]")
        }
    }

    func path(_ section: String, _ index: Int, _ key: String) -> TOMLPath {
        TOMLPath.root.appending(section).appending(index: index).appending(key)
    }

    // MARK: ids

    private mutating func declareIDs(_ draft: LayoutDraft) {
        var all: [(id: ResponderID, kind: ResponderKind, path: TOMLPath)] = [
            (draft.application.id, .application, TOMLPath.root.appending("application").appending("id")),
            (draft.application.delegate, .appDelegate, TOMLPath.root.appending("application").appending("delegate")),
        ]
        all += draft.windows.map { ($0.spec.id, .window, path("window", $0.index, "id")) }
        all += draft.controllers.map { ($0.spec.id, .controller, path("controller", $0.index, "id")) }
        all += draft.views.map { ($0.spec.id, .view, path("view", $0.index, "id")) }
        // The first in the file keeps the id; defaults (no line) come first.
        let lines = all.map { log.locator.exactPosition(of: $0.path)?.line ?? 0 }
        let order = all.indices.sorted { lines[$0] != lines[$1] ? lines[$0] < lines[$1] : $0 < $1 }
        for (id, kind, path) in order.map({ all[$0] }) where !id.rawValue.isEmpty {
            if let first = declarations[id] {
                var owner = describe(first)
                if let line = log.locator.exactPosition(of: first.path)?.line { owner += " on line \(line)" }
                log.add(
                    .duplicateID, path,
                    "duplicate id \(quote(id.rawValue)), already used by \(owner): expected ids unique across windows, views, controllers, the application and its delegate"
                )
            } else {
                declarations[id] = Declaration(kind: kind, path: path)
            }
        }
        for entry in draft.views where viewsByID[entry.spec.id] == nil { viewsByID[entry.spec.id] = entry.spec }
        for entry in draft.controllers where controllersByID[entry.spec.id] == nil { controllersByID[entry.spec.id] = entry.spec }
        for entry in draft.windows where windowsByID[entry.spec.id] == nil { windowsByID[entry.spec.id] = entry.spec }
    }

    private func describe(_ declaration: Declaration) -> String {
        switch declaration.kind {
        case .application:
            return log.locator.exactPosition(of: declaration.path) == nil ? "the application (its default id)" : "the application"
        case .appDelegate:
            return log.locator.exactPosition(of: declaration.path) == nil ? "the app delegate (its default id)" : "the app delegate"
        case .window, .view, .controller:
            var entry = declaration.path
            entry.components.removeLast()
            return log.entryName(entry)
        }
    }

    /// Whether `id` names a responder of an allowed kind; reports it when not.
    @discardableResult
    func checkReference(
        _ id: ResponderID, at path: TOMLPath, role: String, allowed: Set<ResponderKind>, expect: String
    ) -> Bool {
        guard !id.rawValue.isEmpty else { return false }
        if let declaration = declarations[id] {
            if allowed.contains(declaration.kind) { return true }
            log.add(.unknownReference, path, "\(role) \(quote(id.rawValue)) is \(declaration.kind.noun): expected \(expect)")
            return false
        }
        var message = "unknown \(role) \(quote(id.rawValue)): nothing has this id: expected \(expect)"
        if !log.isFull, let hint = Suggestions.didYouMean(id.rawValue, among: candidateIDs(allowed)) {
            message += "; \(hint)"
        }
        log.add(.unknownReference, path, message)
        return false
    }

    /// The declared ids of the allowed kinds, sorted.
    private func candidateIDs(_ allowed: Set<ResponderKind>) -> [String] {
        if let known = candidates.sortedIDs[allowed] { return known }
        let ids = declarations.filter { allowed.contains($0.value.kind) }.keys.map(\.rawValue).sorted()
        candidates.sortedIDs[allowed] = ids
        return ids
    }

    // MARK: handlers and controls

    private func checkHandlers(_ draft: LayoutDraft) {
        for (entry, keys) in zip(draft.handlers, draft.handlerFirstResponderKeys) {
            checkReference(
                entry.spec.responder, at: path("handler", entry.index, "responder"), role: "responder",
                allowed: [.window, .view, .controller, .application, .appDelegate],
                expect: "the id of a window, view, controller, the application or its delegate")
            if let id = keys.become {
                let at = path("handler", entry.index, "become_first_responder")
                if checkReference(id, at: at, role: "responder", allowed: [.window, .view, .controller], expect: "the id of a window, view or controller") {
                    requireCanBecome(id, at: at)
                }
            }
            if let id = keys.resign {
                checkReference(
                    id, at: path("handler", entry.index, "resign_first_responder"), role: "responder",
                    allowed: [.window, .view, .controller], expect: "the id of a window, view or controller")
            }
        }
    }

    private func checkControls(_ draft: LayoutDraft) {
        var controlled: Set<ResponderID> = []
        for entry in draft.controls {
            let view = entry.spec.view
            checkReference(view, at: path("control", entry.index, "view"), role: "view", allowed: [.view], expect: "the id of a [[view]]")
            if !view.rawValue.isEmpty && !controlled.insert(view).inserted {
                log.add(.conflict, path("control", entry.index, "view"), "view \(quote(view.rawValue)) is already a control: expected one [[control]] per view")
            }
            for (i, target) in entry.spec.targets.enumerated() {
                guard let responder = target.target else { continue }
                checkReference(
                    responder, at: path("control", entry.index, "target").appending(index: i).appending("target"), role: "target",
                    allowed: [.window, .view, .controller, .application, .appDelegate], expect: "the id of a responder")
            }
        }
    }
}

extension ResponderKind {
    /// The kind as an error message names it ("a view", "the app delegate").
    var noun: String {
        switch self {
        case .window: "a window"
        case .view: "a view"
        case .controller: "a controller"
        case .application: "the application"
        case .appDelegate: "the app delegate"
        }
    }
}
