import TouchCore

/// Controllers, windows (root controllers, the key window) and first responders.
extension LayoutValidator {
    func checkControllers(_ draft: LayoutDraft) {
        var rootOf: [ResponderID: Int] = [:]
        var presenter: [ResponderID: ResponderID] = [:]
        for entry in draft.controllers {
            let controller = entry.spec
            let viewPath = path("controller", entry.index, "view")
            if checkReference(controller.view, at: viewPath, role: "view", allowed: [.view], expect: "the id of the controller's root [[view]]") {
                if let other = rootOf[controller.view] {
                    let otherName = log.entryName(TOMLPath.root.appending("controller").appending(index: other))
                    log.add(
                        .conflict, viewPath,
                        "view \(quote(controller.view.rawValue)) is already the root view of \(otherName): expected each view to be the root view of at most one controller")
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
                !controller.id.rawValue.isEmpty, presenter[controller.id] == nil
            {
                presenter[controller.id] = presentedBy
            }
        }
        let order = draft.controllers.map { (id: $0.spec.id, index: $0.index) }
        reportCycles(order: order, next: presenter, at: ("controller", "presented_by")) { single, chain in
            single.map { "controller \($0) presents itself: expected a different controller" }
                ?? "controllers \(chain) present each other in a cycle: expected every chain of presenting controllers to end"
        }
    }

    func checkWindows(_ draft: inout LayoutDraft) {
        var rootControllerOf: [ResponderID: Int] = [:]
        for entry in draft.windows {
            let window = entry.spec
            guard let controllerID = window.rootController else { continue }
            let at = path("window", entry.index, "root_controller")
            guard checkReference(controllerID, at: at, role: "root controller", allowed: [.controller], expect: "the id of a [[controller]]")
            else { continue }
            if let other = rootControllerOf[controllerID] {
                let otherName = log.entryName(TOMLPath.root.appending("window").appending(index: other))
                log.add(
                    .conflict, at,
                    "controller \(quote(controllerID.rawValue)) is already the root controller of \(otherName): expected each controller to be the root of at most one window")
                continue
            }
            rootControllerOf[controllerID] = entry.index
            guard let controller = controllersByID[controllerID], let view = viewsByID[controller.view],
                !view.parent.rawValue.isEmpty, view.parent != window.id
            else { continue }
            log.add(
                .conflict, at,
                "root controller \(quote(controllerID.rawValue)) has root view \(quote(controller.view.rawValue)), whose parent is \(quote(view.parent.rawValue)), not this window: expected the root controller's view to be a top-level view of this window (parent = \(quote(window.id.rawValue)))")
        }
        settleKeyWindow(&draft)
    }

    /// The key window: the one with `key = true`, else the first not marked `key = false`; every
    /// window marked `key = false` is refused.
    private func settleKeyWindow(_ draft: inout LayoutDraft) {
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
        } else if let last = draft.windows.last {
            // Presses, remote control and motion go to the key window: one there must be.
            log.add(
                .conflict, path("window", last.index, "key"),
                "every window has key = false: expected one key window (presses, remote control and motion go to it), or a window without key = false")
        }
    }

    // MARK: first responders

    /// The traits declared for a window, view or controller (UIKit's defaults when none are).
    private func traits(of id: ResponderID) -> FirstResponderTraits? {
        switch declarations[id]?.kind {
        case .window: windowsByID[id]?.firstResponderTraits
        case .view: viewsByID[id]?.firstResponderTraits
        case .controller: controllersByID[id]?.firstResponderTraits
        case .application, .appDelegate, nil: nil
        }
    }

    /// Reports a window, view or controller named as a first responder that cannot become one.
    func requireCanBecome(_ id: ResponderID, at path: TOMLPath) {
        guard let kind = declarations[id]?.kind, kind == .window || kind == .view || kind == .controller,
            traits(of: id)?.canBecome != true
        else { return }
        log.add(
            .conflict, path,
            "\(kind.noun) \(quote(id.rawValue)) cannot become first responder: expected it to have can_become_first_responder = true")
    }

    /// The window a window, view or controller belongs to, following parents (nil when unknown).
    /// The walk is bounded by the deepest a view may be nested.
    private func windowOf(_ id: ResponderID) -> ResponderID? {
        var current = id
        if declarations[id]?.kind == .controller {
            guard let view = controllersByID[id]?.view else { return nil }
            current = view
        }
        for _ in 0...(Limits.maximumViewDepth + 1) {
            if declarations[current]?.kind == .window { return current }
            guard let view = viewsByID[current] else { return nil }
            current = view.parent
        }
        return nil
    }

    /// `first_responder` of each window: a responder of that window that can become first responder.
    func checkInitialFirstResponders(_ draft: LayoutDraft) {
        for entry in draft.windows {
            guard let id = entry.spec.firstResponder else { continue }
            let at = path("window", entry.index, "first_responder")
            guard checkReference(id, at: at, role: "first responder", allowed: [.window, .view, .controller], expect: "the id of a window, view or controller")
            else { continue }
            if let window = windowOf(id), window != entry.spec.id {
                log.add(
                    .conflict, at,
                    "\(declarations[id]?.kind.noun ?? "a responder") \(quote(id.rawValue)) is in window \(quote(window.rawValue)), not this one: expected a responder of window \(quote(entry.spec.id.rawValue))")
                continue
            }
            requireCanBecome(id, at: at)
        }
    }
}
