import TouchCore

/// The touches a picture draws within its budget: the newest ``RenderBudget/touches`` paths and,
/// when they hold more than ``RenderBudget/touchSamples`` samples, every `stride`-th sample of
/// each (its first and last always kept).
struct DrawnTouches {
    /// The paths drawn, oldest first, thinned.
    let paths: [TouchPath]
    /// The paths left out: the oldest.
    let leftOut: Int
    /// 1 when every sample is drawn; n when each path keeps every n-th.
    let stride: Int
    /// The samples drawn, over all paths.
    let samples: Int

    init(_ touches: [TouchPath], budget: RenderBudget) {
        let kept = touches.suffix(max(0, budget.touches))
        leftOut = touches.count - kept.count
        let total = kept.reduce(0) { $0 + $1.points.count }
        let allowed = max(1, budget.touchSamples)
        stride = total > allowed ? (total - 1) / allowed + 1 : 1
        let stride = stride
        paths = kept.map { path in
            guard stride > 1 else { return path }
            var thinned = path
            let last = path.points.count - 1
            thinned.points = path.points.enumerated().compactMap { n, point in n % stride == 0 || n == last ? point : nil }
            return thinned
        }
        samples = paths.reduce(0) { $0 + $1.points.count }
    }
}

extension SVGRenderer {
    func drawTouches(_ svg: inout SVGBuilder, _ touches: [TouchPath]) {
        guard !touches.isEmpty else { return }
        svg.begin("g", [("id", "touches")])
        var labelBoxes: [Rect] = []
        // Numbers help to follow a few touches; on hundreds they are only noise.
        let numbered = touches.count <= 60
        for t in touches where !t.points.isEmpty {
            if svg.isFull { break }
            // Coloured by the view that received the touch: one that hit a view but was refused by it
            // (a second finger on a single-touch view, exclusive touch elsewhere) is grey and dashed.
            let colour = ViewColours.colour(ofTouchOn: t.receivingView).description
            let end = t.finalPhase.map(\.rawValue) ?? "down"
            var attributes = [
                ("class", "touch"), ("data-touch", String(t.id)), ("data-view", t.view?.rawValue ?? ""),
                ("data-colour", colour), ("data-end", end), ("data-tap-count", String(t.tapCount)),
            ]
            if let refusal = t.refusal { attributes.append(("data-not-delivered", refusal)) }
            svg.begin("g", attributes)
            let how =
                if let view = t.view, let refusal = t.refusal { "hit \(view) but not delivered (\(refusal))" } else {
                    t.view.map { "received by \($0)" } ?? "no view took it"
                }
            svg.text("title", [], "touch \(t.id): \(how), \(t.points.count) samples, \(end)")
            if t.points.count > 1 {
                svg.startTag("polyline")
                svg.attribute("class", "touch-path")
                svg.attribute("points", points: t.points.map(\.location))
                for (name, value) in [
                    ("fill", "none"), ("stroke", colour), ("stroke-width", "3"), ("stroke-opacity", "0.85"), ("stroke-linejoin", "round"),
                    ("stroke-linecap", "round"),
                ] {
                    svg.attribute(name, value)
                }
                if t.refusal != nil { svg.attribute("stroke-dasharray", "6 4") }
                svg.endEmptyTag()
            }
            if let first = t.points.first, first.phase == .began {
                svg.empty(
                    "circle",
                    [("class", "touch-down"), ("cx", svgNumber(first.location.x)), ("cy", svgNumber(first.location.y)), ("r", "8"),
                     ("fill", colour), ("stroke", "#ffffff"), ("stroke-width", "1.5")])
                if numbered { drawTouchNumber(&svg, t, at: first.location, colour: colour, avoiding: &labelBoxes) }
            }
            drawTouchEnd(&svg, t, colour: colour)
            svg.end()
        }
        svg.end()
    }

    /// The touch's number beside where it came down, clear of the numbers drawn before.
    func drawTouchNumber(_ svg: inout SVGBuilder, _ t: TouchPath, at down: Point, colour: String, avoiding labelBoxes: inout [Rect]) {
        let label = "\(t.id)"
        let size = fontSize * 0.8
        var box = Rect(x: down.x + 9, y: down.y - 8 - size, width: textWidth(label, size) + 3, height: size)
        for _ in 0..<8 where labelBoxes.contains(where: { $0.intersection(box) != nil }) { box.origin.x += box.width }
        labelBoxes.append(box)
        svg.text(
            "text",
            [("class", "touch-label"), ("x", svgNumber(box.minX)), ("y", svgNumber(box.maxY)), ("font-size", svgNumber(size)),
             ("fill", colour), ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")],
            label)
    }

    /// The mark of how the touch ended (up, cancelled) or where it is while still down.
    func drawTouchEnd(_ svg: inout SVGBuilder, _ t: TouchPath, colour: String) {
        guard let last = t.points.last, t.points.count > 1 || last.phase.isFinal else { return }
        let p = last.location
        switch last.phase {
        case .ended:
            svg.empty(
                "circle",
                [("class", "touch-up"), ("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "3.5"), ("fill", "#ffffff"),
                 ("stroke", colour), ("stroke-width", "2")])
        case .cancelled:
            let d = 6.0
            svg.empty(
                "path",
                [("class", "touch-cancel"),
                 ("d", "M\(svgNumber(p.x - d)),\(svgNumber(p.y - d)) L\(svgNumber(p.x + d)),\(svgNumber(p.y + d)) "
                    + "M\(svgNumber(p.x - d)),\(svgNumber(p.y + d)) L\(svgNumber(p.x + d)),\(svgNumber(p.y - d))"),
                 ("stroke", colour), ("stroke-width", "3"), ("stroke-linecap", "round")])
        case .began, .moved, .stationary:
            svg.empty(
                "circle",
                [("class", "touch-current"), ("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "5"), ("fill", colour),
                 ("fill-opacity", "0.5")])
        }
    }
}
