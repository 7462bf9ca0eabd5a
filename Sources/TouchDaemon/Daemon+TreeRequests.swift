import TouchCore
import TouchProtocol
import TouchRender

extension Daemon {
    func perform(_ request: TreeRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .hitTest(let point, let window): hitTest(point, window: window)
        case .set(let view, let changes): set(view, changes)
        case .setControl(let view, let value, let enabled): setControl(view, value: value, enabled: enabled)
        case .addView(let view, let parent, let changes, let keep): addView(view, parent: parent, changes, keep: keep, for: client)
        case .removeView(let view): removeView(view)
        case .views: .success(viewsDescription)
        case .snapshot(let window, let heatmap, let touches): snapshot(window: window, heatmap: heatmap, touches: touches)
        }
    }

    /// The `views` reply: every responder with its properties, and every gesture recognizer with
    /// its state.
    var viewsDescription: JSONValue {
        let recognizers = app.gestureRecognizerSpecs
        var states: [ResponderID: GestureState] = [:]
        for spec in recognizers { states[spec.id] = app.gestureState(of: spec.id) }
        return TreeDescription.views(
            app.tree, firstResponders: app.firstRespondersByWindow, controls: app.controlSpecs, recognizers: recognizers, states: states)
    }

    private func hitTest(_ point: Point, window: ResponderID?) -> RequestResult {
        guard let target = window ?? app.tree.keyWindow else { return .failure(RequestError(.noWindow, "the layout has no window")) }
        guard let result = app.tree.hitTest(point, onDisplayOf: target, traced: true) else {
            return .failure(RequestError(.unknownWindow, "\"\(target)\" is not a window"))
        }
        return .success(TreeDescription.hitTest(result, tree: app.tree))
    }

    private func set(_ view: ResponderID, _ changes: ViewChanges) -> RequestResult {
        do {
            try app.updateView(view) { changes.apply(to: &$0) }
        } catch {
            if case .unknownView = error { return .failure(RequestError(.unknownView, error.description)) }
            return .failure(RequestError(.badArgument, error.description))
        }
        publishFirstResponderChanges()
        return .success(ReplyResult.done)
    }

    /// Sets a control's value or state, as a program does (no control event is sent).
    private func setControl(_ view: ResponderID, value: JSONValue?, enabled: Bool?) -> RequestResult {
        do {
            try app.setControl(view, value: value, enabled: enabled)
        } catch {
            switch error {
            case .notAControl: return .failure(RequestError(.unknownControl, error.description))
            case .unsuitableValue: return .failure(RequestError(.badArgument, error.description))
            }
        }
        return .success(app.controlSpec(of: view).map(ReplyResult.control) ?? ReplyResult.done)
    }

    /// Adds a view, within the tree's bound (``Limits/maximumViews``) and, unless it is kept, the
    /// client's (``ClientLimits/maximumViewsPerClient``): then the view belongs to the client
    /// (``ViewOwnership``) and leaves with it; a kept view stays until removed or reloaded.
    private func addView(_ view: ResponderID, parent: ResponderID, _ changes: ViewChanges, keep: Bool, for client: SocketServer.ClientHandle)
        -> RequestResult
    {
        guard app.tree.viewCount < Limits.maximumViews else {
            return .failure(RequestError(.tooManyViews, "the tree holds \(app.tree.viewCount) views, the most it may hold (\(Limits.maximumViews))"))
        }
        let budget = server.limits.maximumViewsPerClient
        guard keep || viewOwnership.count(of: client.serial) < budget else {
            return .failure(RequestError(.tooManyViews, "a connection may have added at most \(budget) views: remove some first"))
        }
        var props = ViewProperties(frame: .zero)
        changes.apply(to: &props)
        do {
            try app.addView(view, parent: parent, props)
        } catch {
            return .failure(RequestError(.badArgument, error.description))
        }
        if !keep { viewOwnership.add(view, owner: client.serial) }
        return .success(ReplyResult.done)
    }

    private func removeView(_ view: ResponderID) -> RequestResult {
        do {
            if let report = try app.removeView(view, timestamp: inputNow()) { publish([report]) }
        } catch {
            return .failure(RequestError(.unknownView, error.description))
        }
        publishFirstResponderChanges()
        viewOwnership.removeAll { app.tree.kind(of: $0) != nil }
        return .success(ReplyResult.done)
    }

    private func snapshot(window: ResponderID?, heatmap: Bool, touches: Bool) -> RequestResult {
        guard let target = window ?? app.tree.keyWindow else { return .failure(RequestError(.noWindow, "the layout has no window")) }
        var markers = ViewMarkers(handlers: app.handlers, tree: app.tree)
        markers.addRecognizers(app.gestureRecognizerSpecs)
        markers.addControls(app.controlSpecs)
        do {
            let svg = try SVGRenderer.snapshot(tree: app.tree, window: target, markers: markers, touches: touches ? recentTouches.paths : [], heatmap: heatmap)
            return .success(ReplyResult.snapshot(window: target, svg: svg))
        } catch {
            return .failure(RequestError(picture: error))
        }
    }
}

extension RequestError {
    /// A picture that could not be drawn.
    init(picture error: RenderError) {
        switch error {
        case .unknownWindow: self.init(.unknownWindow, error.description)
        case .tooLarge: self.init(.pictureTooLarge, error.description)
        }
    }
}
