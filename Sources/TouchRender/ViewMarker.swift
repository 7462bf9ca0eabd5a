import TouchCore

/// Something attached to a view that a picture should point out: what makes the view do something
/// with touches. Drawn as a small badge at the view's top-right corner, with `detail` as its tooltip.
public struct ViewMarker: Hashable, Sendable {
    /// What kind of thing is attached.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Handlers of responder methods (`touchesBegan` & co. overridden).
        case handler
        /// A gesture recognizer.
        case recognizer
        /// A control (`UIControl`: a button, a toggle, a slider) with its target-actions.
        case control
    }

    public var kind: Kind
    /// A few characters for the badge ("H", "tap", "pan"...).
    public var badge: String
    /// A longer description, shown as the badge's tooltip.
    public var detail: String

    public init(kind: Kind, badge: String, detail: String) {
        self.kind = kind
        self.badge = badge
        self.detail = detail
    }

    /// The handlers of one responder: one "H" badge listing their methods and actions.
    public static func handlers(_ handlers: [Handler]) -> ViewMarker {
        let lines = handlers.map { h in
            "\(h.trigger.methodName) → \(h.action)" + (h.tapCount.map { " (tap count \($0))" } ?? "")
                + (h.passesOn ? "" : ", consumes")
        }
        return ViewMarker(kind: .handler, badge: "H", detail: lines.joined(separator: "\n"))
    }

    /// A gesture recognizer attached to the view.
    public static func recognizer(_ spec: GestureRecognizerSpec) -> ViewMarker {
        let badge: String =
            switch spec.kind {
            case .tap(let taps, let touches):
                "tap" + (taps > 1 ? "×\(taps)" : "") + (touches > 1 ? " \(touches)f" : "")
            case .longPress: "long"
            case .pan: "pan"
            case .swipe: "swipe"
            case .pinch: "pinch"
            case .rotation: "rot"
            }
        let detail = "recognizer \(spec.id): \(spec.kind.name)" + (spec.action.map { " → \($0)" } ?? "")
        return ViewMarker(kind: .recognizer, badge: badge, detail: detail)
    }

    /// A control (button, toggle, slider) and its target-actions.
    public static func control(_ spec: ControlSpec) -> ViewMarker {
        let badge: String =
            switch spec.kind {
            case .button: "btn"
            case .toggle(let isOn): isOn ? "on" : "off"
            case .slider: "slider"
            }
        var lines = ["\(spec.kind.name) control" + (spec.isEnabled ? "" : " (disabled)")]
        for t in spec.targets {
            lines.append("\(t.event.rawValue) → \(t.action)" + (t.target.map { " on \($0)" } ?? " up the responder chain"))
        }
        return ViewMarker(kind: .control, badge: badge, detail: lines.joined(separator: "\n"))
    }
}

/// The markers of every view, in the order they were added.
public struct ViewMarkers: Hashable, Sendable {
    public private(set) var byView: [ResponderID: [ViewMarker]] = [:]

    public init() {}

    /// One ``ViewMarker/handlers(_:)`` marker for each view of `tree` that has handlers.
    public init(handlers: HandlerTable, tree: ViewTree) {
        for window in tree.windowIDs {
            for view in [window] + tree.views(in: window) {
                let list = handlers.handlers(for: view)
                if !list.isEmpty { add(.handlers(list), to: view) }
            }
        }
    }

    public mutating func add(_ marker: ViewMarker, to view: ResponderID) {
        byView[view, default: []].append(marker)
    }

    /// Marks each recognizer's view.
    public mutating func addRecognizers(_ specs: [GestureRecognizerSpec]) {
        for spec in specs { add(.recognizer(spec), to: spec.view) }
    }

    /// Marks each control's view.
    public mutating func addControls(_ specs: [ControlSpec]) {
        for spec in specs { add(.control(spec), to: spec.view) }
    }

    public func markers(of view: ResponderID) -> [ViewMarker] { byView[view] ?? [] }
}
