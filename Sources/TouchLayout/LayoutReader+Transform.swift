import TouchCore

/// A view's `transform` and `next_responder`.
extension LayoutReader {
    static let transformKeys = ["translate", "rotate", "scale"]
    static let nextResponderExpectation = "the id of a window, view, controller, the application or its delegate"

    /// `transform = { translate = [x, y], rotate = DEGREES, scale = S or [sx, sy] }`: each part
    /// optional, each number checked against its domain (a scale is never zero, so the transform
    /// always has an inverse).
    func readTransform(_ fields: Fields) -> ViewTransform? {
        guard let table = fields.table("transform", expect: "a table { translate = [x, y], rotate = degrees, scale = s or [sx, sy] }")
        else { return nil }
        let translate = table.numbers("translate", NumberElement.point, expect: "[x, y] in points")
        let rotate = table.number("rotate", in: Limits.degrees)
        var scale: [Double]?
        if let node = table.values["scale"] {
            let path = table.at("scale")
            if case .array = node {
                let axes = [NumberElement("x", Limits.transformScale), NumberElement("y", Limits.transformScale)]
                scale = table.checkedNumbers(node, at: path, axes, expect: "[sx, sy], each \(Limits.transformScale)")
            } else {
                scale = table.checkedNumber(node, at: path, in: Limits.transformScale).map { [$0, $0] }
            }
        }
        table.rejectUnknownKeys(Self.transformKeys, what: "a view's transform", aliases: ["translation": "translate", "rotation": "rotate"])
        return ViewTransform(
            translation: translate.map { Point(x: $0[0], y: $0[1]) } ?? .zero, rotation: rotate ?? 0,
            scaleX: scale?[0] ?? 1, scaleY: scale?[1] ?? 1)
    }
}

extension LayoutDraft {
    /// The controls that views of a control class (`button`, `switch`, `slider`) are without a
    /// `[[control]]` of their own: UIKit's `UIButton`, `UISwitch` and `UISlider` are controls
    /// however they are made. A `[[control]]` for the view replaces this default.
    var classControls: [ControlSpec] {
        let explicit = Set(controls.map(\.spec.view))
        var seen: Set<ResponderID> = []
        return views.compactMap { entry in
            guard let kind = entry.spec.properties.viewClass.controlKind, !explicit.contains(entry.spec.id),
                seen.insert(entry.spec.id).inserted
            else { return nil }
            return ControlSpec(view: entry.spec.id, kind: kind)
        }
    }
}
