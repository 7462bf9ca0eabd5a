import TouchCore

/// `[[control]]` and its `[[control.target]]`, read into the core's ``TouchCore/ControlSpec``: a
/// kind starts as the core's ``TouchCore/ControlKind/defaults`` have it and the entry's own keys
/// change it.
extension LayoutReader {
    static let controlKeys = ["view", "kind", "enabled", "on", "min", "max", "value", "step", "continuous", "target"]
    /// UIKit's names of the controls' properties, for "did you mean".
    static let controlAliases = [
        "isEnabled": "enabled", "isOn": "on", "minimumValue": "min", "maximumValue": "max", "isContinuous": "continuous",
        "minimum": "min", "maximum": "max",
    ]
    static let controlTargetKeys = ["event", "action", "target"]

    /// The keys that configure one kind only; a key of another kind is an error.
    static func controlKindKeys(_ kind: ControlKind) -> [String] {
        switch kind {
        case .button: []
        case .toggle: ["on"]
        case .slider: ["min", "max", "value", "step", "continuous"]
        }
    }

    func readControl(_ fields: Fields) -> ControlSpec {
        let view = reference(fields, "view", required: true, expect: "the id of the [[view]] that is the control")
        let kinds = ControlKind.defaults.map { ($0.name, $0) }
        let kind = fields.choice("kind", kinds)
        if !fields.has("kind") { fields.missing("kind", "one of " + kinds.map { quote($0.0) }.joined(separator: ", ")) }
        var spec = ControlSpec(view: view ?? "", kind: kind.map { readSettings(of: $0, fields) } ?? .button)
        if let enabled = fields.bool("enabled") { spec.isEnabled = enabled }
        if let kind {
            let own = Self.controlKindKeys(kind)
            for key in ["on", "min", "max", "value", "step", "continuous"] where fields.has(key) && !own.contains(key) {
                let accepts = own.isEmpty ? "no key of its own" : "only " + own.map(quote).joined(separator: ", ")
                log.add(.conflict, fields.at(key), "\(quote(key)) does not apply to a \(kind.name): a \(kind.name) takes \(accepts) besides view, kind, enabled and target")
            }
        }
        spec.targets = readTargets(fields)
        fields.rejectUnknownKeys(Self.controlKeys, what: "a [[control]]", aliases: Self.controlAliases)
        return spec
    }

    /// The kind with the entry's own state in place of the one it starts with.
    private func readSettings(of kind: ControlKind, _ fields: Fields) -> ControlKind {
        switch kind {
        case .button:
            return .button
        case .toggle(let isOn):
            return .toggle(isOn: fields.bool("on") ?? isOn)
        case .slider(let minimum, let maximum, let value, let step, let isContinuous):
            let low = fields.number("min", in: Limits.plainNumber) ?? minimum
            let high = fields.number("max", in: Limits.plainNumber) ?? maximum
            // Without a value of its own, the slider starts at the default held inside its range,
            // as a UISlider's value follows a minimumValue set above it.
            let start = fields.number("value", in: Limits.plainNumber) ?? min(max(value, low), high)
            if high <= low {
                log.add(.conflict, fields.at("max"), "max \(high) is not above min \(low): expected min < max")
            } else if fields.has("value") && !(low...high).contains(start) {
                log.add(.invalidValue, fields.at("value"), "value \(start) is outside the slider's range: expected a number from \(low) to \(high)")
            }
            return .slider(
                minimum: low, maximum: high, value: start, step: fields.number("step", in: Limits.sliderStep) ?? step,
                isContinuous: fields.bool("continuous") ?? isContinuous)
        }
    }

    /// `[[control.target]]`: at most ``Limits/maximumLayoutEntries`` of them.
    private func readTargets(_ fields: Fields) -> [ControlTarget] {
        guard fields.has("target") else { return [] }
        var targets: [ControlTarget] = []
        var complete = true
        for (_, t) in entries("target", in: fields, title: "control.target") {
            let event = t.choice("event", ControlEvent.allCases.map { ($0.rawValue, $0) })
            if !t.has("event") { t.missing("event", "a control event such as \"touch_up_inside\"") }
            let action = t.identifier("action", required: true, expect: "the action name to send")
            let target = reference(t, "target", expect: "a responder id (omit it to walk the responder chain from the control)")
            t.rejectUnknownKeys(Self.controlTargetKeys, what: "a [[control.target]]")
            if let event, let action {
                targets.append(ControlTarget(event: event, action: action, target: target))
            } else {
                complete = false
            }
        }
        // With one refused, none is kept: the validator numbers the targets it checks as the file
        // does (`target[1]` is the file's second), and a refused file loads nothing anyway.
        return complete ? targets : []
    }
}
