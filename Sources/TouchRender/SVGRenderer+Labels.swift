import TouchCore

/// Where each view's label goes: placed before anything is drawn, so that the legend can say what
/// the budget left out.
struct LabelPlacement {
    /// One placed label: the figure it names and its box.
    struct Label {
        var figure: Int
        var box: Rect
        var notes: String
    }

    /// The labels, in z-order of their views.
    var labels: [Label] = []
    /// Each labelled view's box (the first, should an id repeat).
    var boxes: [ResponderID: Rect] = [:]
    /// The boxes placed so far (labels, then hit-test reasons), indexed.
    var placed: PlacedBoxes
    /// Views drawn without a label: past the budget of labels or of overlap tests.
    var unlabelled = 0
}

extension SVGRenderer {
    func textWidth(_ text: String, _ size: Double) -> Double { Double(text.count) * size * 0.6 }

    func notes(_ f: ViewFigure) -> [String] {
        var notes: [String] = []
        for c in f.conditions {
            switch c {
            case .hidden: notes.append("hidden")
            case .transparent: notes.append("alpha \(formatNumber(f.alpha)): transparent")
            case .notInteractive: notes.append("no interaction")
            case .expanded:
                let e = f.hitExpansion
                let uniform = e.top == e.left && e.left == e.bottom && e.bottom == e.right
                notes.append(
                    "hit +" + (uniform ? formatNumber(e.top) : [e.top, e.left, e.bottom, e.right].map(formatNumber).joined(separator: "/")))
            case .clipped: notes.append("hit area clipped")
            case .clippedAway: notes.append("unreachable")
            case .passThrough: notes.append("pass-through")
            case .capture: notes.append("capture")
            case .refuse: notes.append("hit-test none")
            case .redirect:
                if case .redirect(let target) = f.hitTestPolicy { notes.append("redirect → \(target)") }
                if case .redirectAnywhere(let target) = f.hitTestPolicy { notes.append("every touch → \(target)") }
            case .insideHidden, .insideTransparent, .insideNotInteractive, .insideCapture, .insideRefuse: break
            }
        }
        if f.alpha < 1 && !f.conditions.contains(.transparent) { notes.append("alpha \(formatNumber(f.alpha))") }
        return notes
    }

    /// The figures that get a label within the budget: the outermost first (the smallest depth,
    /// then the lowest in z-order).
    func labelledFigures() -> Set<Int> {
        let allowed = max(0, options.budget.labelledViews)
        guard figures.count > allowed else { return Set(figures.indices) }
        let outermost = figures.indices.sorted { (figures[$0].depth, $0) < (figures[$1].depth, $1) }
        return Set(outermost.prefix(allowed))
    }

    /// Places every label in z-order: inside its view's top-left corner when it fits, else below
    /// the view, then moved down a line at a time (up to 16) while it overlaps one placed before.
    func placeLabels() -> LabelPlacement {
        let fs = fontSize
        let small = fs * 0.8
        var placement = LabelPlacement(placed: PlacedBoxes(cellWidth: fs * 10, cellHeight: fs * 2.5, testBudget: options.budget.labelOverlapTests))
        let chosen = labelledFigures()
        let right = windowSize.width + margin - 2
        for (index, f) in figures.enumerated() {
            guard chosen.contains(index), !placement.placed.isExhausted else {
                placement.unlabelled += 1
                continue
            }
            let notes = notes(f).joined(separator: ", ")
            let width = max(textWidth(f.id.rawValue, fs), textWidth(notes, small)) + 2
            let height = fs * 1.2 + (notes.isEmpty ? 0 : small * 1.2)
            // A label wider than its view goes below it rather than over its neighbours.
            let fits = width + 8 <= f.frame.width && height + 6 <= f.frame.height
            let below = max(f.frame.maxY, f.effectiveHitArea?.maxY ?? f.frame.maxY) + 2
            var box = Rect(
                x: max(-margin + 2, min(f.frame.minX + (fits ? 4 : 0), right - width)), y: fits ? f.frame.minY + 3 : below,
                width: width, height: height)
            var moves = 0
            while moves < 16, placement.placed.overlaps(box) {
                box.origin.y += fs * 1.2
                moves += 1
            }
            placement.placed.insert(box)
            placement.labels.append(LabelPlacement.Label(figure: index, box: box, notes: notes))
            if placement.boxes[f.id] == nil { placement.boxes[f.id] = box }
        }
        return placement
    }

    /// Draws the labels placed, and every view's badges.
    func drawLabels(_ svg: inout SVGBuilder, _ placement: LabelPlacement) {
        let fs = fontSize
        let small = fs * 0.8
        svg.begin("g", [("id", "labels"), ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")])
        var next = 0
        for (index, f) in figures.enumerated() {
            if svg.isFull { break }
            if next < placement.labels.count, placement.labels[next].figure == index {
                let label = placement.labels[next]
                next += 1
                let colour = f.inactivity == nil ? colours[index] : "#6e6e6e"
                let box = label.box
                svg.begin("g", [("class", "label"), ("data-view", f.id.rawValue), ("fill", colour)])
                svg.text("text", [("x", svgNumber(box.minX)), ("y", svgNumber(box.minY + fs)), ("font-weight", "bold")], f.id.rawValue)
                if !label.notes.isEmpty {
                    svg.text(
                        "text",
                        [("class", "notes"), ("x", svgNumber(box.minX)), ("y", svgNumber(box.minY + fs * 1.2 + small)),
                         ("font-size", svgNumber(small))],
                        label.notes)
                }
                svg.end()
            }
            drawMarkers(&svg, f)
        }
        svg.end()
    }

    static func markerColour(_ kind: ViewMarker.Kind) -> String {
        switch kind {
        case .handler: "#333333"
        case .recognizer: "#6a3d9a"
        case .control: "#00796b"
        }
    }

    func drawMarkers(_ svg: inout SVGBuilder, _ f: ViewFigure) {
        let list = markers.markers(of: f.id)
        guard !list.isEmpty else { return }
        let size = fontSize * 0.8
        var x = f.frame.maxX - 2
        for marker in list {
            let w = max(size * 1.3, textWidth(marker.badge, size) + 6)
            x -= w
            let box = Rect(x: x, y: f.frame.minY + 2, width: w, height: size * 1.35)
            svg.begin("g", [("class", "marker"), ("data-view", f.id.rawValue), ("data-kind", marker.kind.rawValue), ("stroke", "none")])
            svg.text("title", [], marker.detail)
            svg.empty(
                "rect",
                SVGBuilder.rect(box) + [("rx", "3"), ("fill", Self.markerColour(marker.kind)), ("fill-opacity", f.inactivity == nil ? "1" : "0.45")])
            svg.text(
                "text",
                [("x", svgNumber(box.center.x)), ("y", svgNumber(box.maxY - size * 0.35)), ("font-size", svgNumber(size)),
                 ("text-anchor", "middle"), ("fill", "#ffffff"), ("font-weight", "bold")],
                marker.badge)
            svg.end()
            x -= 2
        }
    }
}
