import TouchCore

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
                if case .redirectInsideTarget(let target) = f.hitTestPolicy { notes.append("over \(target) → \(target)") }
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

    /// Places every label in z-order (within the budget of labels), then every view's badges, none
    /// overlapping another (``LabelPlacement``). A label goes inside its view's top-left corner when
    /// it fits, else below, above, inside the bottom-left corner, right or left of the view; badges
    /// inside the view's top-right corner, else above or below it, or right of it; failing those,
    /// the nearest free place around, with a leader line; failing that, it is left out and counted.
    func placeLabels(in content: Rect) -> LabelPlacement {
        let fs = fontSize
        let area = Rect(x: content.minX - margin + 2, y: content.minY - margin + 1, width: content.width + 2 * margin - 4, height: content.height + 2 * margin - 2)
        var placement = LabelPlacement(area: area, cellWidth: fs * 10, cellHeight: fs * 2.5, testBudget: options.budget.labelOverlapTests)
        let chosen = labelledFigures()
        for (index, f) in figures.enumerated() {
            guard chosen.contains(index) else {
                placement.unlabelled += 1
                continue
            }
            let notes = notes(f).joined(separator: ", ")
            let size = Size(width: max(textWidth(f.id.rawValue, fs), textWidth(notes, fs * 0.8)) + 2, height: fs * 1.2 + (notes.isEmpty ? 0 : fs * 0.96))
            guard let (box, leader) = placement.place(size, candidates: labelCandidates(f, size), near: f.frame.origin) else {
                placement.unlabelled += 1
                continue
            }
            placement.labels.append(LabelPlacement.Label(figure: index, box: box, notes: notes, leader: leader))
            if placement.boxes[f.id] == nil { placement.boxes[f.id] = box }
        }
        for (index, f) in figures.enumerated() where !markers.markers(of: f.id).isEmpty {
            let size = badgesSize(f)
            let corner = Point(x: f.frame.maxX, y: f.frame.minY)
            let right = f.frame.maxX - 2 - size.width
            let candidates = [
                Point(x: right, y: f.frame.minY + 2), Point(x: right, y: f.frame.minY - size.height - 2),
                Point(x: right, y: f.frame.maxY + 2), Point(x: f.frame.maxX + 2, y: f.frame.minY),
            ]
            if let (box, leader) = placement.place(size, candidates: candidates, near: corner) {
                placement.badges[index] = LabelPlacement.Badges(box: box, leader: leader)
            } else {
                placement.badgesLeftOut += 1
            }
        }
        return placement
    }

    /// Where a label of `size` is tried for view `f`, in order (box origins): inside its top-left
    /// corner, or a line or a few lower, under the labels of views that share the corner; below
    /// the view (its hit area) and a line or two lower; above it; inside its bottom-left corner;
    /// right and left of it.
    func labelCandidates(_ f: ViewFigure, _ size: Size) -> [Point] {
        let frame = f.frame
        let line = fontSize * 1.2
        let below = max(frame.maxY, f.effectiveHitArea?.maxY ?? frame.maxY) + 2
        var candidates: [Point] = []
        let fits = size.width + 8 <= frame.width
        for k in 0..<Self.stackedLines where fits && 3 + Double(k) * line + size.height + 3 <= frame.height {
            candidates.append(Point(x: frame.minX + 4, y: frame.minY + 3 + Double(k) * line))
        }
        for k in 0..<3 { candidates.append(Point(x: frame.minX, y: below + Double(k) * line)) }
        candidates.append(Point(x: frame.minX, y: frame.minY - size.height - 2))
        if fits && size.height + 6 <= frame.height { candidates.append(Point(x: frame.minX + 4, y: frame.maxY - size.height - 3)) }
        candidates += [Point(x: frame.maxX + 4, y: frame.minY), Point(x: frame.minX - size.width - 4, y: frame.minY)]
        return candidates
    }

    /// How many lines down from a view's top-left corner its label may go, under the labels of
    /// the views that share the corner.
    static let stackedLines = 5

    /// The size of a view's row of badges.
    func badgesSize(_ f: ViewFigure) -> Size {
        let size = fontSize * 0.8
        let widths = markers.markers(of: f.id).map { max(size * 1.3, textWidth($0.badge, size) + 6) }
        return Size(width: widths.reduce(0, +) + 2 * Double(max(widths.count - 1, 0)), height: size * 1.35)
    }

    /// Draws the labels and badges placed, each label and row of badges with its box
    /// (`data-box`, `x y width height`) and, away from its view, a leader line to it.
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
                if let end = label.leader { drawLeader(&svg, from: box, to: end, colour: colour) }
                svg.begin("g", [("class", "label"), ("data-view", f.id.rawValue), ("data-box", Self.boxText(box)), ("fill", colour)])
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
            if let badges = placement.badges[index] { drawMarkers(&svg, f, in: badges) }
        }
        svg.end()
    }

    /// `x y width height`, as `data-box` attributes give a box.
    static func boxText(_ box: Rect) -> String {
        [box.minX, box.minY, box.width, box.height].map(svgNumber).joined(separator: " ")
    }

    /// A thin line from the nearest point of `box` to `end` (a label's view, placed away from it).
    func drawLeader(_ svg: inout SVGBuilder, from box: Rect, to end: Point, colour: String) {
        let start = Point(x: min(max(end.x, box.minX), box.maxX), y: min(max(end.y, box.minY), box.maxY))
        svg.empty(
            "line",
            [("class", "leader"), ("x1", svgNumber(start.x)), ("y1", svgNumber(start.y)), ("x2", svgNumber(end.x)), ("y2", svgNumber(end.y)),
             ("stroke", colour), ("stroke-width", "1"), ("stroke-dasharray", "3 2")])
    }

    static func markerColour(_ kind: ViewMarker.Kind) -> String {
        switch kind {
        case .handler: "#333333"
        case .recognizer: "#6a3d9a"
        case .control: "#00796b"
        }
    }

    /// Draws a view's badges in their placed box, from its right edge leftwards.
    func drawMarkers(_ svg: inout SVGBuilder, _ f: ViewFigure, in placed: LabelPlacement.Badges) {
        let list = markers.markers(of: f.id)
        let size = fontSize * 0.8
        if let end = placed.leader { drawLeader(&svg, from: placed.box, to: end, colour: "#555555") }
        var x = placed.box.maxX
        for marker in list {
            let w = max(size * 1.3, textWidth(marker.badge, size) + 6)
            x -= w
            let box = Rect(x: x, y: placed.box.minY, width: w, height: size * 1.35)
            svg.begin(
                "g",
                [("class", "marker"), ("data-view", f.id.rawValue), ("data-kind", marker.kind.rawValue), ("data-box", Self.boxText(box)),
                 ("stroke", "none")])
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
