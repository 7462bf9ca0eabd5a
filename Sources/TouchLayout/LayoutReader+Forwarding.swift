import TouchCore

/// `forward` of a `[[window]]` or `[[view]]`: what goes on to the window's virtual touchscreen.
extension LayoutReader {
    /// The values of `forward`, as layouts spell them.
    static let forwardChoices = ForwardMode.allCases.map { ($0.rawValue, $0) }

    /// `forward = "none" | "unclaimed" | "all"`, when the entry sets it.
    func readForward(_ fields: Fields) -> ForwardMode? {
        fields.choice("forward", Self.forwardChoices)
    }
}

extension LayoutDocument {
    /// `forward` of every window and view that sets it.
    public var forwardModes: [ResponderID: ForwardMode] {
        var modes: [ResponderID: ForwardMode] = [:]
        for window in windows { if let mode = window.forward { modes[window.id] = mode } }
        for view in views { if let mode = view.forward { modes[view.id] = mode } }
        return modes
    }
}
