extension ViewTree {
    /// The next responder (`UIResponder.next`), as seed 001's table gives it:
    /// - a view: its controller when it is that controller's root view, else its superview;
    /// - a view controller: the window when it is that window's root controller, else the controller
    ///   that presented it, else its root view's superview;
    /// - a window: the application; the application: the app delegate; the app delegate: `nil`.
    public func nextResponder(of id: ResponderID) -> ResponderID? {
        if let index = nodeIndex[id] {
            let node = nodes[Int(index)]
            if node.window != nil { return applicationID }
            if let controller = node.rootOf { return controller }
            return nodes[Int(node.parent)].id
        }
        if let controller = controllers[id] {
            for window in windowIDs where windowProperties(of: window)?.rootController == id {
                return window
            }
            if let presenter = controller.presentedBy, controllers[presenter] != nil { return presenter }
            return superview(of: controller.view)
        }
        if id == applicationID { return appDelegateID }
        return nil
    }

    /// The responder chain from `first` to the app delegate, both included.
    ///
    /// Stops if a responder repeats (a presentation cycle the layout validation would have refused).
    public func responderChain(from first: ResponderID) -> [ResponderID] {
        var chain: [ResponderID] = []
        // Chains are short: a repeat is looked for in the chain itself, and in a set once it is long.
        var seen: Set<ResponderID>?
        var current: ResponderID? = first
        while let responder = current {
            if seen == nil && chain.count == 16 { seen = Set(chain) }
            if seen == nil {
                if chain.contains(responder) { break }
            } else if !seen!.insert(responder).inserted {
                break
            }
            chain.append(responder)
            current = nextResponder(of: responder)
        }
        return chain
    }
}
