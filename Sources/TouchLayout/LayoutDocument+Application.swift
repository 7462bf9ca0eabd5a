import TouchCore

extension LayoutDocument {
    /// The core's application for this layout: its view tree, handlers, recognizers, controls,
    /// settings and first responders.
    ///
    /// The document is already validated, so building cannot fail on a layout the loader
    /// accepted; a failure here is reported as a ``LayoutErrors`` all the same.
    public func makeApplication(file: String = "layout") throws(LayoutErrors) -> Application {
        do {
            var app = Application(
                tree: try makeTree(), handlers: HandlerTable(handlers), gestureRecognizers: gestures, controls: controls,
                settings: settings, firstResponderTraits: firstResponderTraits,
                initialFirstResponders: windows.compactMap(\.firstResponder))
            app.forwardModes = forwardModes
            return app
        } catch {
            throw LayoutErrors([
                LayoutIssue(kind: .invalidValue, file: file, line: nil, column: nil, keyPath: "", id: nil, message: error.description)
            ])
        }
    }

    /// The view tree alone.
    ///
    /// Views are added so that every parent comes before its children, and siblings keep their
    /// order in the file (z-order). Views that no window reaches (only possible in a document
    /// built by hand) are left out.
    public func makeTree() throws(ViewTreeError) -> ViewTree {
        var tree = ViewTree(applicationID: application.id, appDelegateID: application.delegate)
        for window in windows {
            try tree.addWindow(window.id, window.properties)
        }
        var children: [ResponderID: [ViewSpec]] = [:]
        for view in views { children[view.parent, default: []].append(view) }
        // Depth first from each window, as the file nests them: a stack, not recursion, whatever
        // the document holds (each list of children is taken once).
        for window in windows {
            var stack = Array((children.removeValue(forKey: window.id) ?? []).reversed())
            while let view = stack.popLast() {
                try tree.addView(view.id, parent: view.parent, view.properties)
                stack += (children.removeValue(forKey: view.id) ?? []).reversed()
            }
        }
        for controller in controllers {
            try tree.addController(controller.id, controller.properties)
        }
        for window in windows {
            if let root = window.rootController { try tree.setRootController(root, of: window.id) }
        }
        return tree
    }

    /// The first-responder traits the layout declares: windows, then controllers, then views.
    public var firstResponderTraits: [FirstResponderTraits] {
        windows.compactMap(\.firstResponderTraits) + controllers.compactMap(\.firstResponderTraits)
            + views.compactMap(\.firstResponderTraits)
    }
}
