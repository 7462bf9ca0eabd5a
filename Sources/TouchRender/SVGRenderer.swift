import TouchCore

/// How a picture is drawn.
public struct RenderOptions: Hashable, Sendable {
    /// Output pixels per window point (the SVG's `width` and `height`; its `viewBox` stays in points).
    public var scale: Double
    /// Space around the window, in points.
    public var margin: Double
    /// The labels' font size, in points; `nil`: from the window's size.
    public var fontSize: Double?
    /// Draw the legend below the window.
    public var showsLegend: Bool
    /// Draw hidden views (and views inside hidden ones), dashed.
    public var showsHiddenViews: Bool
    /// The side of a heatmap cell, in points.
    public var heatmapCellSize: Double
    /// The picture's title; `nil`: the window's id and size.
    public var title: String?

    public init(
        scale: Double = 1, margin: Double = 24, fontSize: Double? = nil, showsLegend: Bool = true,
        showsHiddenViews: Bool = true, heatmapCellSize: Double = 16, title: String? = nil
    ) {
        self.scale = scale
        self.margin = margin
        self.fontSize = fontSize
        self.showsLegend = showsLegend
        self.showsHiddenViews = showsHiddenViews
        self.heatmapCellSize = heatmapCellSize
        self.title = title
    }
}

/// Why a picture cannot be drawn.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownWindow(ResponderID, windows: [ResponderID])

    public var description: String {
        switch self {
        case .unknownWindow(let id, let windows):
            "\"\(id)\" is not a window; windows: \(windows.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

/// Draws one window of a view tree as SVG, to scale, in window points: every view's frame, its
/// reachable hit area, its state and markers, and optionally touches, a heatmap and a hit-test.
///
/// The output is meant to be read back as well as looked at. Every view is a `<g class="view">` with
/// `data-view` (its id), `data-frame` (`x y width height` in window points), `data-state` (its
/// ``ViewCondition``s, or `normal`) and `data-colour`; its hit area is a `<rect class="hit-area">`
/// with the same `data-view`. Touches are `<g class="touch">` with `data-touch`, `data-view` (the
/// view that received it, empty for none) and `data-colour`; hit-test steps are `<g class="hit-step">`
/// with `data-view`, `data-outcome`, `data-role` (`path`, `hit` or `rejected`) and `data-reason`.
public struct SVGRenderer: Sendable {
    public let tree: ViewTree
    public let window: ResponderID
    public let markers: ViewMarkers
    public let options: RenderOptions
    /// The figures drawn (hidden ones left out unless ``RenderOptions/showsHiddenViews``).
    public let figures: [ViewFigure]
    let windowSize: Size
    let pointsPerMillimetre: Double
    /// Views with subviews drawn.
    let containers: Set<ResponderID>

    /// - Throws: ``RenderError/unknownWindow(_:windows:)``.
    public init(tree: ViewTree, window: ResponderID, markers: ViewMarkers = ViewMarkers(), options: RenderOptions = RenderOptions())
        throws(RenderError)
    {
        guard let all = ViewFigure.figures(of: tree, window: window), let props = tree.windowProperties(of: window) else {
            throw .unknownWindow(window, windows: tree.windowIDs)
        }
        self.tree = tree
        self.window = window
        self.markers = markers
        self.options = options
        self.figures = options.showsHiddenViews ? all : all.filter { !$0.isOffScreen }
        windowSize = props.size
        containers = Set(figures.map(\.superview))
        pointsPerMillimetre = props.pointsPerMillimetre
    }

    /// A tree and its recent touches as one picture: what a live snapshot shows.
    public static func snapshot(
        tree: ViewTree, window: ResponderID, markers: ViewMarkers = ViewMarkers(), touches: [TouchPath],
        heatmap: Bool = false, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> String {
        let renderer = try SVGRenderer(tree: tree, window: window, markers: markers, options: options)
        return renderer.svg(touches: touches, heatmap: heatmap ? renderer.heatmap(of: touches) : nil)
    }

    /// The touch-down heatmap of `touches` over this window, with the options' cell size.
    public func heatmap(of touches: [TouchPath]) -> Heatmap {
        Heatmap(
            touchDownsOf: touches.filter { $0.window == nil || $0.window == window },
            area: Rect(origin: .zero, size: windowSize), cellSize: options.heatmapCellSize)
    }

    /// The picture.
    /// - Parameters:
    ///   - touches: paths to draw; those of other windows are left out.
    ///   - heatmap: touch-down density to draw under the touches.
    ///   - hitTest: a traced hit-test of this window to explain.
    public func svg(touches: [TouchPath] = [], heatmap: Heatmap? = nil, hitTest: HitTestResult? = nil) -> String {
        let touches = touches.filter { $0.window == nil || $0.window == window }
        let fs = fontSize
        let legend = legendItems(touches: touches, heatmap: heatmap, hitTest: hitTest)
        let content = contentBounds(touches: touches)
        let legendWidth = content.width
        let legendLayout = legend.layout(width: legendWidth, fontSize: fs)
        let legendHeight = options.showsLegend ? legendLayout.height + fs : 0
        let m = options.margin
        let view = Rect(
            x: content.minX - m, y: content.minY - m, width: content.width + 2 * m,
            height: content.height + 2 * m + legendHeight)

        var svg = SVGBuilder()
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        svg.begin(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
                ("width", svgNumber((view.width * options.scale).rounded())),
                ("height", svgNumber((view.height * options.scale).rounded())),
                ("viewBox", "\(svgNumber(view.minX)) \(svgNumber(view.minY)) \(svgNumber(view.width)) \(svgNumber(view.height))"),
                ("font-family", "DejaVu Sans, Verdana, sans-serif"), ("font-size", svgNumber(fs)),
                ("data-window", window.rawValue),
                ("data-window-size", "\(svgNumber(windowSize.width)) \(svgNumber(windowSize.height))"),
                ("data-points-per-mm", svgNumber(pointsPerMillimetre)),
            ])
        svg.text("title", [], title)
        definitions(&svg, heatmap: heatmap)
        svg.empty("rect", [("id", "background")] + SVGBuilder.rect(view) + [("fill", "#ffffff")])
        svg.empty(
            "rect",
            [("id", "window"), ("class", "window"), ("data-view", window.rawValue)] + SVGBuilder.rect(Rect(origin: .zero, size: windowSize))
                + [("fill", "#fbfbf8"), ("stroke", "#222222"), ("stroke-width", "2")])
        drawViews(&svg)
        drawHitAreas(&svg)
        if let heatmap { drawHeatmap(&svg, heatmap) }
        drawTouches(&svg, touches)
        if let hitTest { drawHitTest(&svg, hitTest) }
        let labels = drawLabels(&svg)
        if let hitTest {
            drawHitTestReasons(&svg, hitTest, avoiding: labels, in: content)
            drawHitPoint(&svg, hitTest)
        }
        if options.showsLegend {
            svg.begin("g", [("id", "legend"), ("transform", "translate(\(svgNumber(content.minX)) \(svgNumber(content.maxY + m)))")])
            svg.raw(legendLayout.markup)
            svg.end()
        }
        svg.end()
        return svg.text
    }

    // MARK: - Sizes

    var fontSize: Double {
        options.fontSize ?? max(9, min(16, min(windowSize.width, windowSize.height) / 60))
    }

    var title: String {
        options.title
            ?? "window \(window): \(formatNumber(windowSize.width)) × \(formatNumber(windowSize.height)) pt, \(formatNumber(pointsPerMillimetre)) pt/mm"
    }

    /// The window, with whatever sticks out of it (views, hit areas, touches), up to half its size on each side.
    func contentBounds(touches: [TouchPath]) -> Rect {
        var minX = 0.0
        var minY = 0.0
        var maxX = windowSize.width
        var maxY = windowSize.height
        func include(_ r: Rect) {
            minX = min(minX, r.minX)
            minY = min(minY, r.minY)
            maxX = max(maxX, r.maxX)
            maxY = max(maxY, r.maxY)
        }
        for f in figures {
            include(f.frame)
            include(f.hitArea)
        }
        for t in touches {
            for p in t.points { include(Rect(origin: p.location, size: .zero)) }
        }
        let slackX = windowSize.width / 2
        let slackY = windowSize.height / 2
        minX = max(minX, -slackX)
        minY = max(minY, -slackY)
        maxX = min(maxX, windowSize.width + slackX)
        maxY = min(maxY, windowSize.height + slackY)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    // MARK: - Drawing

    func definitions(_ svg: inout SVGBuilder, heatmap: Heatmap?) {
        svg.begin("defs")
        svg.begin(
            "pattern",
            [("id", "not-interactive"), ("patternUnits", "userSpaceOnUse"), ("width", "8"), ("height", "8"),
             ("patternTransform", "rotate(45)")])
        svg.empty("line", [("x1", "0"), ("y1", "0"), ("x2", "0"), ("y2", "8"), ("stroke", "#b0b0b0"), ("stroke-width", "2")])
        svg.end()
        if let heatmap {
            svg.begin(
                "filter",
                [("id", "heat-blur"), ("filterUnits", "userSpaceOnUse"), ("x", svgNumber(heatmap.area.minX - 4 * heatmap.cellSize)),
                 ("y", svgNumber(heatmap.area.minY - 4 * heatmap.cellSize)),
                 ("width", svgNumber(heatmap.area.width + 8 * heatmap.cellSize)),
                 ("height", svgNumber(heatmap.area.height + 8 * heatmap.cellSize))])
            svg.empty("feGaussianBlur", [("stdDeviation", svgNumber(heatmap.cellSize * 0.6))])
            svg.end()
        }
        svg.end()
    }

    /// The stroke, dash and fill of a view's frame, from its condition.
    func frameStyle(_ f: ViewFigure) -> [SVGBuilder.Attribute] {
        let colour = ViewColours.colour(of: f.id).description
        let grey = ViewColours.inactive.description
        switch f.inactivity {
        case .hidden?, .insideHidden?:
            return [("fill", "none"), ("stroke", grey), ("stroke-width", "1.5"), ("stroke-dasharray", "10 6")]
        case .transparent?, .insideTransparent?:
            return [("fill", "none"), ("stroke", grey), ("stroke-width", "1.5"), ("stroke-dasharray", "2 4")]
        case .notInteractive?, .insideNotInteractive?:
            return [("fill", "url(#not-interactive)"), ("fill-opacity", "0.6"), ("stroke", grey), ("stroke-width", "1.5")]
        default:
            // Containers are tinted lightly so that nested tints do not pile up into mud.
            let opacity = (containers.contains(f.id) ? 0.035 : 0.12) * max(0.2, min(1, f.alpha))
            return [("fill", colour), ("fill-opacity", svgNumber(opacity)), ("stroke", colour), ("stroke-width", "2")]
        }
    }

    func drawViews(_ svg: inout SVGBuilder) {
        svg.begin("g", [("id", "views")])
        var usedIDs: Set<String> = []
        for f in figures {
            let colour = ViewColours.colour(of: f.id).description
            let state = f.conditions.isEmpty ? "normal" : f.conditions.map(\.rawValue).joined(separator: " ")
            var elementID = "view-" + xmlName(f.id.rawValue)
            while !usedIDs.insert(elementID).inserted { elementID += "_" }
            svg.begin(
                "g",
                [
                    ("id", elementID), ("class", "view"), ("data-view", f.id.rawValue), ("data-superview", f.superview.rawValue),
                    ("data-depth", String(f.depth)),
                    ("data-frame", "\(svgNumber(f.frame.minX)) \(svgNumber(f.frame.minY)) \(svgNumber(f.frame.width)) \(svgNumber(f.frame.height))"),
                    ("data-state", state), ("data-alpha", svgNumber(f.alpha)), ("data-colour", colour),
                ])
            svg.text("title", [], tooltip(f))
            svg.empty("rect", [("class", "frame")] + SVGBuilder.rect(f.frame) + frameStyle(f))
            svg.end()
        }
        svg.end()
    }

    func tooltip(_ f: ViewFigure) -> String {
        var lines = ["\(f.id): frame \(f.frame) in window coordinates"]
        if let area = f.effectiveHitArea {
            lines.append("hit area \(area)" + (area != f.hitArea ? " (of \(f.hitArea), clipped by its superviews)" : ""))
        } else {
            lines.append("no touch can reach it")
        }
        if !f.conditions.isEmpty {
            lines.append(
                f.conditions.map(\.rawValue).joined(separator: ", ") + (f.inheritedFrom.map { " (from \($0))" } ?? ""))
        }
        for marker in markers.markers(of: f.id) { lines.append(marker.detail) }
        return lines.joined(separator: "\n")
    }

    func drawHitAreas(_ svg: inout SVGBuilder) {
        svg.begin("g", [("id", "hit-areas"), ("fill", "none"), ("stroke-width", "1.5"), ("stroke-dasharray", "5 3")])
        for f in figures {
            guard let area = f.effectiveHitArea else { continue }
            let colour = ViewColours.colour(of: f.id).description
            // A hit area that is just the frame is kept for readers of the file but not drawn over it.
            let same = area == f.frame
            svg.empty(
                "rect",
                [("class", "hit-area"), ("data-view", f.id.rawValue), ("data-same-as-frame", same ? "true" : "false")]
                    + SVGBuilder.rect(area) + [("stroke", colour)] + (same ? [("visibility", "hidden")] : []))
        }
        svg.end()
    }

    func drawHeatmap(_ svg: inout SVGBuilder, _ heatmap: Heatmap) {
        let maximum = heatmap.maximum
        svg.begin(
            "g",
            [("id", "heatmap"), ("data-cell-size", svgNumber(heatmap.cellSize)), ("data-total", String(heatmap.total)),
             ("data-maximum", String(maximum))])
        svg.begin("g", [("filter", "url(#heat-blur)")])
        if maximum > 0 {
            for row in 0..<heatmap.rows {
                for column in 0..<heatmap.columns {
                    let n = heatmap.count(column: column, row: row)
                    guard n > 0 else { continue }
                    let t = Double(n) / Double(maximum)
                    svg.empty(
                        "rect",
                        [("class", "heat"), ("data-count", String(n))] + SVGBuilder.rect(heatmap.cell(column: column, row: row))
                            + [("fill", Self.heatColour(t).description), ("fill-opacity", svgNumber(0.45 + 0.5 * t))])
                }
            }
        }
        svg.end()
        svg.end()
    }

    /// Yellow for the sparsest cells to red for the densest.
    static func heatColour(_ t: Double) -> RGBColour {
        RGBColour(hue: 52 * (1 - t), saturation: 1, lightness: 0.5)
    }

    func drawTouches(_ svg: inout SVGBuilder, _ touches: [TouchPath]) {
        guard !touches.isEmpty else { return }
        let fs = fontSize
        svg.begin("g", [("id", "touches")])
        var labelBoxes: [Rect] = []
        // Numbers help to follow a few touches; on hundreds they are only noise.
        let numbered = touches.count <= 60
        for t in touches where !t.points.isEmpty {
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
            let locations = t.points.map(\.location)
            if locations.count > 1 {
                svg.empty(
                    "polyline",
                    [("class", "touch-path"), ("points", SVGBuilder.points(locations)), ("fill", "none"), ("stroke", colour),
                     ("stroke-width", "3"), ("stroke-opacity", "0.85"), ("stroke-linejoin", "round"), ("stroke-linecap", "round")]
                        + (t.refusal == nil ? [] : [("stroke-dasharray", "6 4")]))
            }
            if let first = t.points.first, first.phase == .began {
                svg.empty(
                    "circle",
                    [("class", "touch-down"), ("cx", svgNumber(first.location.x)), ("cy", svgNumber(first.location.y)), ("r", "8"),
                     ("fill", colour), ("stroke", "#ffffff"), ("stroke-width", "1.5")])
            }
            if numbered, let first = t.points.first, first.phase == .began {
                let label = "\(t.id)"
                let size = fs * 0.8
                var box = Rect(x: first.location.x + 9, y: first.location.y - 8 - size, width: textWidth(label, size) + 3, height: size)
                for _ in 0..<8 where labelBoxes.contains(where: { $0.intersection(box) != nil }) { box.origin.x += box.width }
                labelBoxes.append(box)
                svg.text(
                    "text",
                    [("class", "touch-label"), ("x", svgNumber(box.minX)), ("y", svgNumber(box.maxY)), ("font-size", svgNumber(size)),
                     ("fill", colour), ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")],
                    label)
            }
            if let last = t.points.last, t.points.count > 1 || last.phase.isFinal {
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
                default:
                    svg.empty(
                        "circle",
                        [("class", "touch-current"), ("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "5"), ("fill", colour),
                         ("fill-opacity", "0.5")])
                }
            }
            svg.end()
        }
        svg.end()
    }

    // MARK: - Hit-test

    /// What each view of this window answered in a traced hit-test, in the order they were entered.
    struct Visit {
        var view: ResponderID
        var order: Int
        var outcome: HitTestOutcome
        var result: ResponderID?
    }

    func visits(_ result: HitTestResult) -> [Visit] {
        let known = Set(figures.map(\.id)).union([window])
        var order: [ResponderID: Int] = [:]
        var visits: [Visit] = []
        for step in result.trace where known.contains(step.view) && tree.window(of: step.view) == window {
            switch step.kind {
            case .enter:
                if order[step.view] == nil { order[step.view] = order.count + 1 }
            case .result(let hit, let outcome):
                visits.removeAll { $0.view == step.view }
                visits.append(Visit(view: step.view, order: order[step.view] ?? 0, outcome: outcome, result: hit))
            }
        }
        return visits.sorted { $0.order < $1.order }
    }

    static func outcomeName(_ outcome: HitTestOutcome) -> String {
        switch outcome {
        case .hidden: "hidden"
        case .notInteractive: "not-interactive"
        case .transparent: "transparent"
        case .outside: "outside"
        case .hitSelf: "hit-self"
        case .hitSubview: "hit-subview"
        case .passedThrough: "passed-through"
        case .captured: "captured"
        case .redirected: "redirected"
        case .refused: "refused"
        }
    }

    static func role(_ visit: Visit, hit: ResponderID?) -> String {
        if visit.view == hit { return "hit" }
        switch visit.outcome {
        case .hitSubview, .redirected, .hitSelf, .captured: return visit.result == nil ? "rejected" : "path"
        case .hidden, .notInteractive, .transparent, .outside, .passedThrough, .refused: return "rejected"
        }
    }

    static let pathColour = "#12a150"
    static let rejectedColour = "#d62828"

    func rect(of view: ResponderID) -> Rect? {
        view == window ? Rect(origin: .zero, size: windowSize) : figures.first { $0.id == view }?.frame
    }

    func drawHitTest(_ svg: inout SVGBuilder, _ result: HitTestResult) {
        svg.begin(
            "g",
            [("id", "hit-test"), ("data-point", "\(svgNumber(result.pointInWindow.x)) \(svgNumber(result.pointInWindow.y))"),
             ("data-hit", result.view?.rawValue ?? "")])
        for visit in visits(result) {
            guard let r = rect(of: visit.view) else { continue }
            let role = Self.role(visit, hit: result.view)
            svg.begin(
                "g",
                [("class", "hit-step"), ("data-view", visit.view.rawValue), ("data-order", String(visit.order)),
                 ("data-outcome", Self.outcomeName(visit.outcome)), ("data-role", role),
                 ("data-reason", visit.outcome.description), ("data-result", visit.result?.rawValue ?? "")])
            svg.text("title", [], "\(visit.order). \(visit.view): \(visit.outcome)")
            switch role {
            case "hit":
                svg.empty(
                    "rect",
                    SVGBuilder.rect(r) + [("fill", Self.pathColour), ("fill-opacity", "0.25"), ("stroke", Self.pathColour),
                                          ("stroke-width", "5")])
            case "path":
                svg.empty("rect", SVGBuilder.rect(r) + [("fill", "none"), ("stroke", Self.pathColour), ("stroke-width", "3.5")])
            default:
                svg.empty(
                    "rect",
                    SVGBuilder.rect(r) + [("fill", "none"), ("stroke", Self.rejectedColour), ("stroke-width", "2.5"),
                                          ("stroke-dasharray", "7 4")])
            }
            svg.end()
        }
        // The redirect target is the hit view without being entered: show it too.
        if let hit = result.view, !visits(result).contains(where: { $0.view == hit }), let r = rect(of: hit) {
            svg.begin("g", [("class", "hit-step"), ("data-view", hit.rawValue), ("data-order", "0"), ("data-outcome", "redirect-target"),
                            ("data-role", "hit"), ("data-reason", "redirected to"), ("data-result", hit.rawValue)])
            svg.empty(
                "rect",
                SVGBuilder.rect(r) + [("fill", Self.pathColour), ("fill-opacity", "0.25"), ("stroke", Self.pathColour), ("stroke-width", "5")])
            svg.end()
        }
        svg.end()
    }

    /// The point hit-tested, on top of everything.
    func drawHitPoint(_ svg: inout SVGBuilder, _ result: HitTestResult) {
        let p = result.pointInWindow
        svg.begin("g", [("id", "hit-point"), ("stroke", "#000000"), ("stroke-width", "2")])
        svg.empty("circle", [("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "9"), ("fill", "#ffffff"), ("fill-opacity", "0.6")])
        svg.empty(
            "path",
            [("d", "M\(svgNumber(p.x - 15)),\(svgNumber(p.y)) H\(svgNumber(p.x + 15)) M\(svgNumber(p.x)),\(svgNumber(p.y - 15)) V\(svgNumber(p.y + 15))")])
        svg.end()
    }

    /// Each visited view's step number and answer, written on the picture.
    func drawHitTestReasons(
        _ svg: inout SVGBuilder, _ result: HitTestResult, avoiding labels: [(view: ResponderID, box: Rect)], in contentBounds: Rect
    ) {
        let fs = fontSize
        svg.begin(
            "g",
            [("id", "hit-test-reasons"), ("font-size", svgNumber(fs)), ("stroke", "#ffffff"), ("stroke-width", "3.5"),
             ("paint-order", "stroke"), ("font-weight", "bold")])
        var placed = labels.map(\.box) + [Rect(x: result.pointInWindow.x - 16, y: result.pointInWindow.y - 16, width: 32, height: 32)]
        let right = windowSize.width + options.margin - 2
        // Views on the path are outlined; the legend lists their answers.
        for visit in visits(result) where Self.role(visit, hit: result.view) != "path" {
            guard let r = rect(of: visit.view) else { continue }
            let role = Self.role(visit, hit: result.view)
            let mark = role == "rejected" ? "✗" : (role == "hit" ? "✓" : "↓")
            let label = labels.first { $0.view == visit.view }?.box
            func free(_ box: Rect, except own: Rect? = nil) -> Bool {
                box.maxX <= right && !placed.contains { $0 != own && $0.intersection(box) != nil }
            }
            // Beside the view's name, when there is room.
            var text = "\(visit.order) \(mark) \(visit.outcome)"
            if let label {
                let near = Rect(
                    x: label.minX + textWidth(visit.view.rawValue, fs) + fs * 0.6, y: label.minY, width: textWidth(text, fs), height: fs * 1.2)
                var pastPoint = near
                pastPoint.origin.x = max(near.minX, result.pointInWindow.x + 18)
                if let beside = [near, pastPoint].first(where: { free($0, except: label) }) {
                    placed.append(beside)
                    svg.text(
                        "text",
                        [("class", "reason"), ("data-view", visit.view.rawValue), ("x", svgNumber(beside.minX)),
                         ("y", svgNumber(beside.minY + fs)), ("fill", role == "rejected" ? Self.rejectedColour : Self.pathColour)],
                        text)
                    continue
                }
            }
            // Else under the label (or inside the view's bottom edge), or the nearest free place below or above.
            text = "\(visit.order) \(mark) \(visit.view): \(visit.outcome)"
            let width = textWidth(text, fs)
            let x = max(-options.margin + 2, min(label?.minX ?? r.minX + 4, right - width))
            let y = label.map { $0.maxY + 1 } ?? r.maxY - 6 - fs
            var box = Rect(x: x, y: y, width: width, height: fs * 1.2)
            let top = contentBounds.minY - options.margin + 1
            let bottom = contentBounds.maxY + options.margin - box.height
            let start = box.minY
            for step in 1..<48 where !free(box) {
                let offset = Double((step + 1) / 2) * fs * 0.6 * (step % 2 == 1 ? 1 : -1)
                box.origin.y = max(top, min(bottom, start + offset))
            }
            if !free(box) { box.origin.y = start }
            placed.append(box)
            svg.text(
                "text",
                [("class", "reason"), ("data-view", visit.view.rawValue), ("x", svgNumber(box.minX)), ("y", svgNumber(box.minY + fs)),
                 ("fill", role == "rejected" ? Self.rejectedColour : Self.pathColour)],
                text)
        }
        svg.end()
    }

    // MARK: - Labels

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
            case .insideHidden, .insideTransparent, .insideNotInteractive, .insideCapture, .insideRefuse: break
            }
        }
        if f.alpha < 1 && !f.conditions.contains(.transparent) { notes.append("alpha \(formatNumber(f.alpha))") }
        return notes
    }

    /// Draws the labels and badges; returns where the labels went.
    @discardableResult
    func drawLabels(_ svg: inout SVGBuilder) -> [(view: ResponderID, box: Rect)] {
        let fs = fontSize
        let small = fs * 0.8
        svg.begin("g", [("id", "labels"), ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")])
        var placed: [Rect] = []
        var boxes: [(view: ResponderID, box: Rect)] = []
        let right = windowSize.width + options.margin - 2
        for f in figures {
            let colour = f.inactivity == nil ? ViewColours.colour(of: f.id).description : "#6e6e6e"
            let notes = notes(f).joined(separator: ", ")
            let width = max(textWidth(f.id.rawValue, fs), textWidth(notes, small)) + 2
            let height = fs * 1.2 + (notes.isEmpty ? 0 : small * 1.2)
            // A label wider than its view goes below it rather than over its neighbours.
            let fits = width + 8 <= f.frame.width && height + 6 <= f.frame.height
            let below = max(f.frame.maxY, f.effectiveHitArea?.maxY ?? f.frame.maxY) + 2
            var box = Rect(
                x: max(-options.margin + 2, min(f.frame.minX + (fits ? 4 : 0), right - width)), y: fits ? f.frame.minY + 3 : below,
                width: width, height: height)
            for _ in 0..<16 where placed.contains(where: { $0.intersection(box) != nil }) {
                box.origin.y += fs * 1.2
            }
            placed.append(box)
            boxes.append((f.id, box))
            svg.begin("g", [("class", "label"), ("data-view", f.id.rawValue), ("fill", colour)])
            svg.text("text", [("x", svgNumber(box.minX)), ("y", svgNumber(box.minY + fs)), ("font-weight", "bold")], f.id.rawValue)
            if !notes.isEmpty {
                svg.text(
                    "text",
                    [("class", "notes"), ("x", svgNumber(box.minX)), ("y", svgNumber(box.minY + fs * 1.2 + small)),
                     ("font-size", svgNumber(small))],
                    notes)
            }
            svg.end()
            drawMarkers(&svg, f)
        }
        svg.end()
        return boxes
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

    /// A name usable as an XML id: letters, digits, `.`, `-` and `_`.
    func xmlName(_ s: String) -> String {
        String(
            s.unicodeScalars.map { c -> Character in
                let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "-" || c == "_"
                return ok ? Character(c) : "_"
            })
    }
}
