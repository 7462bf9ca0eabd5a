import TouchCore

/// The key below a picture: what each kind of mark means, laid out in rows.
struct Legend {
    enum Sample {
        /// A small rectangle drawn with these attributes.
        case box([SVGBuilder.Attribute])
        case badge(ViewMarker.Kind, String)
        case touchDown, touchUp, touchCancel
        case heat(RGBColour, Double)
        /// A bar `length` points long: a scale.
        case bar(Double)
        case hitPoint
    }

    enum Item {
        case entry(Sample, String)
        /// Text on a row of its own.
        case line(String, colour: String?)
        /// Starts a new row.
        case rowBreak
    }

    var items: [Item] = []

    mutating func add(_ sample: Sample, _ text: String) { items.append(.entry(sample, text)) }
    mutating func line(_ text: String, colour: String? = nil) { items.append(.line(text, colour: colour)) }
    mutating func rowBreak() { items.append(.rowBreak) }

    /// The legend's markup, its top-left at (0, 0), and its height.
    func layout(width: Double, fontSize fs: Double) -> (markup: String, height: Double) {
        var svg = SVGBuilder()
        let rowHeight = fs * 1.9
        let swatch = fs * 2
        var x = 0.0
        var y = 0.0
        var rowUsed = false
        func newRow() {
            if rowUsed { y += rowHeight }
            x = 0
            rowUsed = false
        }
        for item in items {
            switch item {
            case .rowBreak:
                newRow()
            case .line(let text, let colour):
                newRow()
                svg.text(
                    "text", [("class", "legend-line"), ("xml:space", "preserve"), ("x", "0"), ("y", svgNumber(y + fs * 1.2))] + (colour.map { [("fill", $0)] } ?? []),
                    text)
                rowUsed = true
                newRow()
            case .entry(let sample, let text):
                let sampleWidth: Double =
                    if case .bar(let length) = sample { length } else { swatch }
                let w = sampleWidth + fs * 0.5 + Double(text.count) * fs * 0.6 + fs * 1.6
                if rowUsed && x + w > width { newRow() }
                draw(sample, at: Rect(x: x, y: y + fs * 0.35, width: sampleWidth, height: fs * 1.2), &svg)
                svg.text("text", [("x", svgNumber(x + sampleWidth + fs * 0.5)), ("y", svgNumber(y + fs * 1.3))], text)
                x += w
                rowUsed = true
            }
        }
        if rowUsed { y += rowHeight }
        var out = SVGBuilder()
        out.begin("g", [("class", "legend"), ("fill", "#222222")])
        out.raw(svg.text)
        out.end()
        return (out.text, y)
    }

    func draw(_ sample: Sample, at r: Rect, _ svg: inout SVGBuilder) {
        let c = r.center
        switch sample {
        case .box(let style):
            svg.empty("rect", SVGBuilder.rect(r) + style)
        case .badge(let kind, let text):
            let h = r.height
            let w = max(h * 1.2, Double(text.count) * h * 0.5 + 6)
            let box = Rect(x: r.minX + (r.width - w) / 2, y: r.minY, width: w, height: h)
            svg.empty("rect", SVGBuilder.rect(box) + [("rx", "3"), ("fill", SVGRenderer.markerColour(kind))])
            svg.text(
                "text",
                [("x", svgNumber(box.center.x)), ("y", svgNumber(box.maxY - h * 0.25)), ("font-size", svgNumber(h * 0.75)),
                 ("text-anchor", "middle"), ("fill", "#ffffff"), ("font-weight", "bold")],
                text)
        case .touchDown:
            svg.empty("line", [("x1", svgNumber(c.x)), ("y1", svgNumber(c.y)), ("x2", svgNumber(r.maxX)), ("y2", svgNumber(c.y)),
                               ("stroke", "#555555"), ("stroke-width", "3")])
            svg.empty("circle", [("cx", svgNumber(c.x)), ("cy", svgNumber(c.y)), ("r", "8"), ("fill", "#555555")])
        case .touchUp:
            svg.empty("line", [("x1", svgNumber(r.minX)), ("y1", svgNumber(c.y)), ("x2", svgNumber(c.x)), ("y2", svgNumber(c.y)),
                               ("stroke", "#555555"), ("stroke-width", "3")])
            svg.empty("circle", [("cx", svgNumber(c.x)), ("cy", svgNumber(c.y)), ("r", "3.5"), ("fill", "#ffffff"), ("stroke", "#555555"),
                                 ("stroke-width", "2")])
        case .touchCancel:
            svg.empty("line", [("x1", svgNumber(r.minX)), ("y1", svgNumber(c.y)), ("x2", svgNumber(c.x)), ("y2", svgNumber(c.y)),
                               ("stroke", "#555555"), ("stroke-width", "3")])
            let d = 6.0
            svg.empty(
                "path",
                [("d", "M\(svgNumber(c.x - d)),\(svgNumber(c.y - d)) L\(svgNumber(c.x + d)),\(svgNumber(c.y + d)) "
                    + "M\(svgNumber(c.x - d)),\(svgNumber(c.y + d)) L\(svgNumber(c.x + d)),\(svgNumber(c.y - d))"),
                 ("stroke", "#555555"), ("stroke-width", "3"), ("stroke-linecap", "round")])
        case .heat(let colour, let opacity):
            svg.empty("rect", SVGBuilder.rect(r) + [("fill", colour.description), ("fill-opacity", svgNumber(opacity))])
        case .bar(let length):
            svg.empty(
                "path",
                [("d", "M\(svgNumber(r.minX)),\(svgNumber(r.minY)) V\(svgNumber(r.maxY)) H\(svgNumber(r.minX + length)) V\(svgNumber(r.minY))"),
                 ("fill", "none"), ("stroke", "#222222"), ("stroke-width", "2")])
        case .hitPoint:
            svg.empty("circle", [("cx", svgNumber(c.x)), ("cy", svgNumber(c.y)), ("r", "7"), ("fill", "#ffffff"), ("stroke", "#000000"),
                                 ("stroke-width", "2")])
            svg.empty("path", [("d", "M\(svgNumber(c.x - 11)),\(svgNumber(c.y)) H\(svgNumber(c.x + 11)) M\(svgNumber(c.x)),\(svgNumber(c.y - 11)) V\(svgNumber(c.y + 11))"),
                               ("stroke", "#000000"), ("stroke-width", "2")])
        }
    }
}

extension SVGRenderer {
    func legendItems(touches drawn: DrawnTouches, heatmap: Heatmap?, hitTest: HitTestResult?, labels: LabelPlacement) -> Legend {
        var legend = Legend()
        addViewItems(&legend, labels: labels)
        if !drawn.paths.isEmpty { addTouchItems(&legend, drawn) }
        if let heatmap, heatmap.maximum > 0 { addHeatmapItems(&legend, heatmap) }
        if let hitTest { addHitTestItems(&legend, hitTest) }
        return legend
    }

    /// The title, the kinds of views and markers, the scale, and the labels left out.
    func addViewItems(_ legend: inout Legend, labels: LabelPlacement) {
        let sample = RGBColour(hue: 210, saturation: 0.7, lightness: 0.42).description
        let grey = ViewColours.inactive.description
        legend.line(title)
        legend.add(.box([("fill", sample), ("fill-opacity", "0.1"), ("stroke", sample), ("stroke-width", "2")]), "view frame, one colour per view")
        legend.add(
            .box([("fill", "none"), ("stroke", sample), ("stroke-width", "1.5"), ("stroke-dasharray", "5 3")]),
            "hit area touches can reach (expansion included, clipped by superviews)")
        legend.add(.box([("fill", "none"), ("stroke", grey), ("stroke-width", "1.5"), ("stroke-dasharray", "10 6")]), "hidden")
        legend.add(.box([("fill", "none"), ("stroke", grey), ("stroke-width", "1.5"), ("stroke-dasharray", "2 4")]), "transparent (alpha < 0.01)")
        legend.add(
            .box([("fill", "url(#not-interactive)"), ("fill-opacity", "0.6"), ("stroke", grey), ("stroke-width", "1.5")]),
            "user interaction disabled")
        let kinds = Set(markers.byView.values.flatMap { $0.map(\.kind) })
        if kinds.contains(.handler) { legend.add(.badge(.handler, "H"), "has handlers") }
        if kinds.contains(.recognizer) { legend.add(.badge(.recognizer, "tap"), "gesture recognizer") }
        if kinds.contains(.control) { legend.add(.badge(.control, "btn"), "control") }
        let scaleBar = Self.scaleBarLength(pointsPerMillimetre: pointsPerMillimetre, windowWidth: windowSize.width)
        legend.add(.bar(scaleBar.points(at: pointsPerMillimetre)), "\(formatNumber(scaleBar.value)) mm")
        if labels.unlabelled > 0 {
            legend.line(
                "\(labels.unlabelled) of \(figures.count) views drawn without a label, past the picture's budget "
                    + "(\(options.budget.labelledViews) labels, the outermost views first) or for want of room: labels never overlap; "
                    + "each view's tooltip names it")
        }
        if labels.badgesLeftOut > 0 {
            legend.line("\(labels.badgesLeftOut) views drawn without their badges, for want of room")
        }
        if labels.reasonsLeftOut > 0 {
            legend.line("\(labels.reasonsLeftOut) hit-test answers not written on the picture, for want of room (each view's outline and tooltip give it)")
        }
    }

    /// How many touches ended how, what the budget left out, and how many each view received.
    func addTouchItems(_ legend: inout Legend, _ drawn: DrawnTouches) {
        let touches = drawn.paths
        legend.rowBreak()
        let ended = touches.filter { $0.finalPhase == .ended }.count
        let cancelled = touches.filter { $0.finalPhase == .cancelled }.count
        legend.line(
            "\(touches.count) touch\(touches.count == 1 ? "" : "es"): \(ended) ended, \(cancelled) cancelled"
                + (touches.count - ended - cancelled > 0 ? ", \(touches.count - ended - cancelled) still down" : "")
                + "; each path is coloured by the view that received it")
        legend.add(.touchDown, "touch down (with its number)")
        legend.add(.touchUp, "up")
        legend.add(.touchCancel, "cancelled")
        if drawn.leftOut > 0 || drawn.stride > 1 { legend.line(touchBudgetNote(drawn)) }
        legend.rowBreak()
        var counts: [(ResponderID?, Int)] = []
        var slots: [ResponderID?: Int] = [:]
        for t in touches where t.refusal == nil {
            let view = t.receivingView
            if let i = slots[view] {
                counts[i].1 += 1
            } else {
                slots[view] = counts.count
                counts.append((view, 1))
            }
        }
        for (view, n) in counts {
            let colour = ViewColours.colour(ofTouchOn: view).description
            legend.add(.box([("fill", colour), ("stroke", "none")]), "\(view?.rawValue ?? "no view") (\(n))")
        }
        let refused = touches.filter { $0.refusal != nil }.count
        if refused > 0 {
            legend.add(
                .box([("fill", "none"), ("stroke", ViewColours.noView.description), ("stroke-width", "2"), ("stroke-dasharray", "6 4")]),
                "hit a view that did not take it (\(refused))")
        }
    }

    /// A few heat colours with their counts, and the cell size.
    func addHeatmapItems(_ legend: inout Legend, _ heatmap: Heatmap) {
        legend.rowBreak()
        let maximum = heatmap.maximum
        let steps = Array(Set([1, (maximum + 1) / 2, maximum])).sorted()
        for n in steps {
            let t = Double(n) / Double(maximum)
            legend.add(.heat(SVGRenderer.heatColour(t), 0.45 + 0.5 * t), "\(n) touch-down\(n == 1 ? "" : "s")")
        }
        legend.add(.box([("fill", "none"), ("stroke", "none")]), "per \(formatNumber(heatmap.cellSize))-point cell (blurred)")
    }

    /// The point, what each mark means, and every visit's answer.
    func addHitTestItems(_ legend: inout Legend, _ hitTest: HitTestResult) {
        legend.rowBreak()
        let p = hitTest.pointInWindow
        legend.line("hit-test at \(p): " + (hitTest.view.map { "\($0) takes the point" } ?? "nothing takes the point"))
        legend.add(.hitPoint, "the point")
        legend.add(
            .box([("fill", Self.pathColour), ("fill-opacity", "0.25"), ("stroke", Self.pathColour), ("stroke-width", "4")]), "✓ hit view")
        legend.add(.box([("fill", "none"), ("stroke", Self.pathColour), ("stroke-width", "3")]), "↓ on the path to it")
        legend.add(
            .box([("fill", "none"), ("stroke", Self.rejectedColour), ("stroke-width", "2.5"), ("stroke-dasharray", "7 4")]),
            "✗ rejected, with its reason")
        for visit in visits(hitTest) {
            let role = Self.role(visit, hit: hitTest.view)
            let mark = Self.mark(ofRole: role)
            let depth = max(0, figureIndex[visit.view].map { figures[$0].depth } ?? 0)
            let indent = String(repeating: "    ", count: depth)
            legend.line(
                "\(visit.order). \(indent)\(mark) \(visit.view): \(visit.outcome)"
                    + (visit.result.map { $0 == visit.view ? "" : " → \($0)" } ?? ""),
                colour: role == "rejected" ? Self.rejectedColour : Self.pathColour)
        }
    }

    /// What the budget left out of the touches drawn.
    func touchBudgetNote(_ drawn: DrawnTouches) -> String {
        var parts: [String] = []
        if drawn.leftOut > 0 { parts.append("\(drawn.leftOut) older touch\(drawn.leftOut == 1 ? "" : "es") left out") }
        if drawn.stride > 1 { parts.append("paths drawn with one sample in \(drawn.stride) (and their last)") }
        return parts.joined(separator: "; ")
            + ": past the picture's budget (\(options.budget.touches) touches, \(options.budget.touchSamples) samples)"
    }

    /// A round length for the scale bar: about a tenth of the window's width.
    static func scaleBarLength(pointsPerMillimetre: Double, windowWidth: Double) -> Millimetres {
        let target = Millimetres(points: windowWidth / 10, pointsPerMillimetre: pointsPerMillimetre)
        var best: Millimetres = 1
        for candidate: Millimetres in [1, 2, 5, 10, 20, 25, 50, 100, 200, 500] where candidate <= max(1, target) { best = candidate }
        return best
    }
}
