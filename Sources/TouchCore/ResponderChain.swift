extension ViewTree {
    /// The next responder (`UIResponder.next`), as seed 001's table gives it:
    /// - a view: its controller when it is that controller's root view, else its superview;
    /// - a view controller: the window when it is that window's root controller, else the controller
    ///   that presented it, else its root view's superview;
    /// - a window: the application; the application: the app delegate; the app delegate: `nil`.
    public func nextResponder(of id: ResponderID) -> ResponderID? {
        switch kind(of: id) {
        case .view:
            let node = nodes[Int(nodeIndex[id]!)]
            if let controller = node.rootOf { return controller }
            return nodes[Int(node.parent)].id
        case .controller:
            let controller = controllers[id]!
            for window in windowIDs where windowProperties(of: window)?.rootController == id {
                return window
            }
            if let presenter = controller.presentedBy, controllers[presenter] != nil { return presenter }
            return superview(of: controller.view)
        case .window: return applicationID
        case .application: return appDelegateID
        case .appDelegate, nil: return nil
        }
    }

    /// The responder chain from `first` to the app delegate, both included.
    ///
    /// Stops if a responder repeats (a presentation cycle the layout validation would have refused).
    public func responderChain(from first: ResponderID) -> [ResponderID] {
        var chain: [ResponderID] = []
        var seen: Set<ResponderID> = []
        var current: ResponderID? = first
        while let responder = current, seen.insert(responder).inserted {
            chain.append(responder)
            current = nextResponder(of: responder)
        }
        return chain
    }
}
