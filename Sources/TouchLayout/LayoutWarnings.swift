import TouchCore

/// What `touchd check` warns about in a valid layout: what loads and runs, but is unlikely to do
/// what was meant. Each warning is one sentence naming the entry and saying what happens.
public enum LayoutWarnings {
    /// The smallest comfortable touch target: the shorter side of a view's hit area as drawn.
    public static let minimumTargetMillimetres: Millimetres = 9

    /// Every warning about `document` (built into `app`), in this order: controls and the handlers
    /// of their actions, device regions, then touch targets.
    public static func warnings(document: LayoutDocument, app: Application) -> [String] {
        controlWarnings(document: document, app: app) + controlOverrideWarnings(document: document)
            + regionWarnings(document: document, tree: app.tree) + targetSizeWarnings(document: document, tree: app.tree)
    }

    /// Controls with a touch handler that does not pass the call on: like a `UIButton` subclass
    /// overriding a touch method without calling `super`, the control then stops tracking there.
    static func controlOverrideWarnings(document: LayoutDocument) -> [String] {
        let controls = Set(document.controls.filter(\.isEnabled).map(\.view))
        return document.handlers.compactMap { handler in
            guard controls.contains(handler.responder), !handler.passesOn else { return nil }
            let effect: String
            switch handler.trigger {
            case .touchesBegan: effect = "never begins tracking: no touch_down and no action"
            case .touchesMoved: effect = "does not follow the finger: no drag events, and a slider stays put"
            case .touchesEnded: effect = "never sees the touch end: no touch_up_inside and no action"
            case .touchesCancelled: effect = "sends no touch_cancel"
            case .action, .pressesBegan, .pressesEnded, .pressesCancelled, .remoteControl, .motionBegan, .motionEnded, .motionCancelled:
                return nil
            }
            return "control \(handler.responder): its \(handler.trigger.rawValue) handler (\(handler.action)) does not pass the call "
                + "on, like a \(handler.trigger.methodName) override that does not call super: the control \(effect) "
                + "(pass_on = true keeps it working)"
        }
    }

    /// Controls that send nothing, and `on = "action"` handlers that no control's action reaches
    /// (whatever the first responder is when it is sent: ``TouchCore/Application/possibleActionTakers(for:from:)``).
    static func controlWarnings(document: LayoutDocument, app: Application) -> [String] {
        var lines: [String] = []
        /// The responders each action may reach, by action name.
        var reached: [String: Set<ResponderID>] = [:]
        var sent: [String: [ResponderID]] = [:]
        for control in document.controls {
            if control.targets.isEmpty {
                lines.append(
                    "control \(quote(control.view.rawValue)) sends no action: it has no [[control.target]], and a control keeps its touches from the responder chain")
            }
            for target in control.targets {
                sent[target.action, default: []].append(control.view)
                for case let taker? in app.possibleActionTakers(for: target, from: control.view) {
                    reached[target.action, default: []].insert(taker)
                }
            }
        }
        for handler in document.handlers where handler.trigger == .action {
            guard let selector = handler.selector, reached[selector]?.contains(handler.responder) != true else { continue }
            let what = "handler of \(quote(handler.responder.rawValue)) on action \(quote(selector)) never runs"
            if let senders = sent[selector] {
                let names = senders.map { quote($0.rawValue) }.joined(separator: ", ")
                lines.append("\(what): \(quote(handler.responder.rawValue)) is not on the way of the action from \(names) (another responder takes it first, or it walks another responder chain)")
            } else {
                lines.append("\(what): no [[control.target]] sends \(quote(selector))")
            }
        }
        return lines
    }

    /// Touch-device regions that reach outside their window: touches mapped there land on no view.
    static func regionWarnings(document: LayoutDocument, tree: ViewTree) -> [String] {
        var lines: [String] = []
        for (i, device) in document.devices.enumerated() {
            guard let region = device.region else { continue }
            let windowID = device.window.isEmpty ? tree.keyWindow : ResponderID(device.window)
            guard let windowID, let window = tree.windowProperties(of: windowID) else { continue }
            let bounds = Rect(x: 0, y: 0, width: window.size.width, height: window.size.height)
            guard region.minX < bounds.minX || region.minY < bounds.minY || region.maxX > bounds.maxX || region.maxY > bounds.maxY else {
                continue
            }
            let numbers = [region.minX, region.minY, region.width, region.height].map(formatNumber).joined(separator: ", ")
            lines.append(
                "device[\(i)].region [\(numbers)] reaches outside window \(quote(windowID.rawValue)) "
                    + "(\(formatNumber(bounds.width))×\(formatNumber(bounds.height)) points): touches mapped there land on no view")
        }
        return lines
    }

    /// Views with handlers whose hit area is smaller than a finger's comfortable target.
    static func targetSizeWarnings(document: LayoutDocument, tree: ViewTree) -> [String] {
        var result: [String] = []
        var warned: Set<ResponderID> = []
        for id in document.handlers.map(\.responder) + document.controls.map(\.view) where !warned.contains(id) {
            guard tree.kind(of: id) == .view, let props = tree.properties(of: id), let window = tree.window(of: id),
                let ppm = tree.windowProperties(of: window)?.pointsPerMillimetre
            else { continue }
            // As drawn: the view's own scale enlarges or shrinks its hit area on the screen.
            let area = props.hitArea
            let w = Millimetres(points: area.width * props.transform.scaleX, pointsPerMillimetre: ppm)
            let h = Millimetres(points: area.height * props.transform.scaleY, pointsPerMillimetre: ppm)
            if min(w, h) < minimumTargetMillimetres {
                warned.insert(id)
                result.append(
                    "view \(id): its hit area is \(formatNumber(w.value))×\(formatNumber(h.value)) mm, smaller than the "
                        + "\(formatNumber(minimumTargetMillimetres.value)) mm a finger needs (hit_expansion can enlarge it)")
            }
        }
        return result
    }
}
