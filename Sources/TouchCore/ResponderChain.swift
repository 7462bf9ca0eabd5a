extension ViewTree {
    /// The next responder (`UIResponder.next`), as seed 001's table gives it:
    /// - a view: its controller when it is that controller's root view, else its superview;
    /// - a view controller: the window when it is that window's root controller, else the controller
    ///   that presented it, else its root view's superview;
    /// - a window: the application; the application: the app delegate; the app delegate: `nil`;
    /// - a view or controller with a `next` override (``ViewProperties/nextResponder``,
    ///   ``ControllerProperties/nextResponder``): that responder, while the tree has it.
    public func nextResponder(of id: ResponderID) -> ResponderID? {
        // Names are unique across responders: the two fixed ones are compared before any look-up.
        if id == appDelegateID { return nil }
        if id == applicationID { return appDelegateID }
        if let index = nodeIndex[id] {
            // Read in place: a copy of the node would retain each of its parts.
            let i = Int(index)
            if isWindowNode(i) { return applicationID }
            if let next = nodes[i].properties.nextResponder, kind(of: next) != nil { return next }
            if let controller = nodes[i].rootOf { return controller }
            return nodes[Int(nodes[i].parent)].id
        }
        if let controller = controllers[id] {
            if let next = controller.nextResponder, kind(of: next) != nil { return next }
            for window in windowIDs where windowProperties(of: window)?.rootController == id {
                return window
            }
            if let presenter = controller.presentedBy, controllers[presenter] != nil { return presenter }
            return superview(of: controller.view)
        }
        return nil
    }

    /// The responder chain from `first` to the app delegate, both included.
    ///
    /// Stops if a responder repeats (a presentation or `next` override cycle the layout validation
    /// would have refused).
    public func responderChain(from first: ResponderID) -> [ResponderID] {
        var chain: [ResponderID] = []
        chain.reserveCapacity(8)
        var current: ResponderID? = first
        // From a view, up its superviews by index (no name look-ups; views cannot repeat) until a
        // controller's root view or the window.
        if let start = nodeIndex[first], !isWindowNode(Int(start)) {
            var i = Int(start)
            while true {
                chain.append(nodes[i].id)
                if let next = nodes[i].properties.nextResponder, kind(of: next) != nil {
                    current = next
                    break
                }
                if let controller = nodes[i].rootOf {
                    current = controller
                    break
                }
                i = Int(nodes[i].parent)
                if isWindowNode(i) {
                    chain.append(nodes[i].id)
                    current = applicationID
                    break
                }
            }
        }
        // Chains are short: a repeat is looked for in the chain itself, and in a set once it is long.
        var seen: Set<ResponderID>? = chain.count >= 16 ? Set(chain) : nil
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
