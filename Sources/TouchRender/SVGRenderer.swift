import TouchCore

/// Draws one window of a view tree as SVG, to scale, in window points: every view's frame, its
/// reachable hit area, its state and markers, and optionally touches, a heatmap and a hit-test.
///
/// The output is meant to be read back as well as looked at. Every view is a `<g class="view">` with
/// `data-view` (its id), `data-frame` (`x y width height` in window points), `data-state` (its
/// ``ViewCondition``s, or `normal`) and `data-colour`; its hit area is a `<rect class="hit-area">`
/// with the same `data-view`. Touches are `<g class="touch">` with `data-touch`, `data-view` (the
/// view that received it, empty for none) and `data-colour`; hit-test steps are `<g class="hit-step">`
/// with `data-view`, `data-outcome`, `data-role` (`path`, `hit` or `rejected`) and `data-reason`.
///
/// The work and the size of a picture are bounded by its ``RenderBudget``: a tree of
/// `Limits.maximumViews` views with a full history of touches is drawn in time and space about
/// proportional to what is drawn, and what the budget leaves out is said in the legend.
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
    /// The index of each view's figure in ``figures`` (the first, should an id repeat).
    let figureIndex: [ResponderID: Int]
    /// Each figure's colour (``ViewColours/colour(of:)``), as SVG writes it.
    let colours: [String]
    /// The options' scale and margin, or their defaults where they are out of their domains.
    let scale: Double
    let margin: Double

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
        figureIndex = Dictionary(figures.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        colours = figures.map { ViewColours.colour(of: $0.id).description }
        pointsPerMillimetre = props.pointsPerMillimetre
        scale = Limits.pictureScale.contains(options.scale) ? options.scale : RenderOptions().scale
        margin = Limits.length.contains(options.margin) ? options.margin : RenderOptions.standardMargin
    }

    /// A tree and its recent touches as one picture: what a live snapshot shows.
    /// - Throws: ``RenderError/unknownWindow(_:windows:)``, ``RenderError/tooLarge(limit:)``.
    public static func snapshot(
        tree: ViewTree, window: ResponderID, markers: ViewMarkers = ViewMarkers(), touches: [TouchPath],
        heatmap: Bool = false, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> String {
        let renderer = try SVGRenderer(tree: tree, window: window, markers: markers, options: options)
        return try renderer.svg(touches: touches, heatmap: heatmap ? renderer.heatmap(of: touches) : nil)
    }

    /// The touch-down heatmap of `touches` over this window, with the options' cell size.
    public func heatmap(of touches: [TouchPath]) -> Heatmap {
        Heatmap(
            touchDownsOf: touches.filter { $0.window == nil || $0.window == window },
            area: Rect(origin: .zero, size: windowSize), cellSize: options.heatmapCellSize)
    }

    /// The picture's SVG (see ``render(touches:heatmap:hitTest:)``).
    /// - Throws: ``RenderError/tooLarge(limit:)``.
    public func svg(touches: [TouchPath] = [], heatmap: Heatmap? = nil, hitTest: HitTestResult? = nil) throws(RenderError) -> String {
        try render(touches: touches, heatmap: heatmap, hitTest: hitTest).svg
    }

    /// The picture, and what drawing it took.
    /// - Parameters:
    ///   - touches: paths to draw; those of other windows are left out.
    ///   - heatmap: touch-down density to draw under the touches.
    ///   - hitTest: a traced hit-test of this window to explain.
    /// - Throws: ``RenderError/tooLarge(limit:)`` when the SVG would take more than the budget's bytes.
    public func render(touches: [TouchPath] = [], heatmap: Heatmap? = nil, hitTest: HitTestResult? = nil) throws(RenderError) -> Picture {
        let touches = DrawnTouches(touches.filter { $0.window == nil || $0.window == window }, budget: options.budget)
        let content = contentBounds(touches: touches.paths)
        var labels = placeLabels(in: content)
        if let hitTest { placeHitTestReasons(hitTest, &labels) }
        let fs = fontSize
        let legend = legendItems(touches: touches, heatmap: heatmap, hitTest: hitTest, labels: labels)
        let legendLayout = legend.layout(width: content.width, fontSize: fs)
        let legendHeight = options.showsLegend ? legendLayout.height + fs : 0
        let view = Rect(
            x: content.minX - margin, y: content.minY - margin, width: content.width + 2 * margin,
            height: content.height + 2 * margin + legendHeight)

        var svg = SVGBuilder(byteLimit: options.budget.bytes)
        beginDocument(&svg, view: view, touches: touches, labels: labels)
        svg.text("title", [], title)
        definitions(&svg, heatmap: heatmap)
        svg.empty("rect", [("id", "background")] + SVGBuilder.rect(view) + [("fill", "#ffffff")])
        svg.empty(
            "rect",
            [("id", "window"), ("class", "window"), ("data-view", window.rawValue)] + SVGBuilder.rect(Rect(origin: .zero, size: windowSize))
                + [("fill", "#fbfbf8"), ("stroke", "#222222"), ("stroke-width", "2")])
        drawViews(&svg)
        drawHitAreas(&svg)
        let heatCells = heatmap.map { drawHeatmap(&svg, $0) } ?? 0
        drawTouches(&svg, touches.paths)
        if let hitTest { drawHitTest(&svg, hitTest) }
        drawLabels(&svg, labels)
        if let hitTest {
            drawHitTestReasons(&svg, hitTest, labels)
            drawHitPoint(&svg, hitTest)
        }
        if options.showsLegend {
            svg.begin("g", [("id", "legend"), ("transform", "translate(\(svgNumber(content.minX)) \(svgNumber(content.maxY + margin)))")])
            svg.raw(legendLayout.markup)
            svg.end()
        }
        svg.end()
        guard !svg.isFull else { throw .tooLarge(limit: svg.byteLimit) }
        return Picture(svg: svg.text, statistics: statistics(touches: touches, labels: labels, heatCells: heatCells, bytes: svg.byteCount))
    }

    /// The XML declaration and the `<svg>` element's start, with what the budget left out.
    func beginDocument(_ svg: inout SVGBuilder, view: Rect, touches: DrawnTouches, labels: LabelPlacement) {
        svg.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        var attributes: [SVGBuilder.Attribute] = [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("width", svgNumber((view.width * scale).rounded())),
            ("height", svgNumber((view.height * scale).rounded())),
            ("viewBox", "\(svgNumber(view.minX)) \(svgNumber(view.minY)) \(svgNumber(view.width)) \(svgNumber(view.height))"),
            ("font-family", "DejaVu Sans, Verdana, sans-serif"), ("font-size", svgNumber(fontSize)),
            ("data-window", window.rawValue),
            ("data-window-size", "\(svgNumber(windowSize.width)) \(svgNumber(windowSize.height))"),
            ("data-points-per-mm", svgNumber(pointsPerMillimetre)),
        ]
        // Only what was left out is said: a picture within its budget carries none of these.
        if labels.unlabelled > 0 { attributes.append(("data-unlabelled-views", String(labels.unlabelled))) }
        if labels.badgesLeftOut > 0 { attributes.append(("data-views-without-badges", String(labels.badgesLeftOut))) }
        if labels.reasonsLeftOut > 0 { attributes.append(("data-hit-test-answers-left-out", String(labels.reasonsLeftOut))) }
        if touches.leftOut > 0 { attributes.append(("data-touches-left-out", String(touches.leftOut))) }
        if touches.stride > 1 { attributes.append(("data-touch-sample-stride", String(touches.stride))) }
        svg.begin("svg", attributes)
    }

    func statistics(touches: DrawnTouches, labels: LabelPlacement, heatCells: Int, bytes: Int) -> RenderStatistics {
        var s = RenderStatistics()
        s.views = figures.count
        s.labelledViews = labels.labels.count
        s.unlabelledViews = labels.unlabelled
        s.labelOverlapTests = labels.placed.tests
        s.touches = touches.paths.count
        s.touchesLeftOut = touches.leftOut
        s.touchSamples = touches.samples
        s.touchSampleStride = touches.stride
        s.heatCells = heatCells
        s.bytes = bytes
        return s
    }

    // MARK: - Sizes

    var fontSize: Double {
        if let size = options.fontSize, size > 0, Limits.length.contains(size) { return size }
        return max(9, min(16, min(windowSize.width, windowSize.height) / 60))
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

    /// The stroke, dash and fill of a view's frame, from its condition, as attributes of the tag started.
    func frameStyle(_ svg: inout SVGBuilder, _ f: ViewFigure, colour: String) {
        let grey = ViewColours.inactive.description
        switch f.inactivity {
        case .hidden?, .insideHidden?:
            svg.attribute("fill", "none")
            svg.attribute("stroke", grey)
            svg.attribute("stroke-width", "1.5")
            svg.attribute("stroke-dasharray", "10 6")
        case .transparent?, .insideTransparent?:
            svg.attribute("fill", "none")
            svg.attribute("stroke", grey)
            svg.attribute("stroke-width", "1.5")
            svg.attribute("stroke-dasharray", "2 4")
        case .notInteractive?, .insideNotInteractive?:
            svg.attribute("fill", "url(#not-interactive)")
            svg.attribute("fill-opacity", "0.6")
            svg.attribute("stroke", grey)
            svg.attribute("stroke-width", "1.5")
        default:
            // Containers are tinted lightly so that nested tints do not pile up into mud.
            let opacity = (containers.contains(f.id) ? 0.035 : 0.12) * max(0.2, min(1, f.alpha))
            svg.attribute("fill", colour)
            svg.attribute("fill-opacity", number: opacity)
            svg.attribute("stroke", colour)
            svg.attribute("stroke-width", "2")
        }
    }

    /// Every view: a group with its data, its tooltip and its frame. Written piece by piece: this
    /// is most of a large picture.
    func drawViews(_ svg: inout SVGBuilder) {
        svg.begin("g", [("id", "views")])
        var elementIDs = ElementIDs()
        for (index, f) in figures.enumerated() {
            if svg.isFull { break }
            let colour = colours[index]
            svg.startTag("g")
            svg.attribute("id", elementIDs.unique("view-" + xmlName(f.id.rawValue)))
            svg.attribute("class", "view")
            svg.attribute("data-view", f.id.rawValue)
            svg.attribute("data-superview", f.superview.rawValue)
            svg.attribute("data-depth", String(f.depth))
            svg.attribute("data-frame", numbersOf: f.frame)
            svg.attribute("data-state", f.conditions.isEmpty ? "normal" : f.conditions.map(\.rawValue).joined(separator: " "))
            svg.attribute("data-alpha", number: f.alpha)
            svg.attribute("data-colour", colour)
            svg.endOpenTag()
            svg.startTag("title")
            svg.startContent()
            tooltip(&svg, f)
            svg.endContent()
            svg.startTag("rect")
            svg.attribute("class", "frame")
            if let placement = f.placement {
                // A transformed view: its bounds drawn through its matrix into the window.
                svg.rectAttributes(placement.bounds)
                svg.attribute("transform", Self.matrixText(placement.toWindow))
            } else {
                svg.rectAttributes(f.frame)
            }
            frameStyle(&svg, f, colour: colour)
            svg.endEmptyTag()
            svg.end()
        }
        svg.end()
    }

    /// A view's tooltip: its frame, its hit area, its conditions and its markers.
    func tooltip(_ svg: inout SVGBuilder, _ f: ViewFigure) {
        svg.content(f.id.rawValue)
        svg.content(": frame ")
        svg.content(f.frame)
        svg.content(" in window coordinates\n")
        if let area = f.effectiveHitArea {
            svg.content("hit area ")
            svg.content(area)
            if area != f.hitArea {
                svg.content(" (of ")
                svg.content(f.hitArea)
                svg.content(", clipped by its superviews)")
            }
        } else {
            svg.content("no touch can reach it")
        }
        for (n, condition) in f.conditions.enumerated() {
            svg.content(n == 0 ? "\n" : ", ")
            svg.content(condition.rawValue)
        }
        if !f.conditions.isEmpty, let from = f.inheritedFrom {
            svg.content(" (from ")
            svg.content(from.rawValue)
            svg.content(")")
        }
        for marker in markers.markers(of: f.id) {
            svg.content("\n")
            svg.content(marker.detail)
        }
    }

    func drawHitAreas(_ svg: inout SVGBuilder) {
        svg.begin("g", [("id", "hit-areas"), ("fill", "none"), ("stroke-width", "1.5"), ("stroke-dasharray", "5 3")])
        for (index, f) in figures.enumerated() {
            if svg.isFull { break }
            guard let area = f.effectiveHitArea else { continue }
            // A hit area that is just the frame is kept for readers of the file but not drawn over it.
            let same = area == f.frame
            svg.startTag("rect")
            svg.attribute("class", "hit-area")
            svg.attribute("data-view", f.id.rawValue)
            svg.attribute("data-same-as-frame", same ? "true" : "false")
            if let placement = f.placement {
                // Drawn as the view's own hit area through its matrix (what its superviews clip
                // off is not subtracted).
                svg.rectAttributes(placement.hitArea)
                svg.attribute("transform", Self.matrixText(placement.toWindow))
            } else {
                svg.rectAttributes(area)
            }
            svg.attribute("stroke", colours[index])
            if same { svg.attribute("visibility", "hidden") }
            svg.endEmptyTag()
        }
        svg.end()
    }

    /// SVG's `matrix(a b c d e f)` for a transform.
    static func matrixText(_ m: AffineTransform) -> String {
        "matrix(" + [m.a, m.b, m.c, m.d, m.tx, m.ty].map { svgNumber($0) }.joined(separator: " ") + ")"
    }

    /// Draws the heatmap's cells; returns how many.
    func drawHeatmap(_ svg: inout SVGBuilder, _ heatmap: Heatmap) -> Int {
        let maximum = heatmap.maximum
        let cells = heatmap.occupiedCells
        svg.begin(
            "g",
            [("id", "heatmap"), ("data-cell-size", svgNumber(heatmap.cellSize)), ("data-total", String(heatmap.total)),
             ("data-maximum", String(maximum))])
        svg.begin("g", [("filter", "url(#heat-blur)")])
        for cell in cells {
            if svg.isFull { break }
            let t = Double(cell.count) / Double(max(1, maximum))
            svg.empty(
                "rect",
                [("class", "heat"), ("data-count", String(cell.count))] + SVGBuilder.rect(heatmap.cell(column: cell.column, row: cell.row))
                    + [("fill", Self.heatColour(t).description), ("fill-opacity", svgNumber(0.45 + 0.5 * t))])
        }
        svg.end()
        svg.end()
        return cells.count
    }

    /// Yellow for the sparsest cells to red for the densest.
    static func heatColour(_ t: Double) -> RGBColour {
        RGBColour(hue: 52 * (1 - t), saturation: 1, lightness: 0.5)
    }

    /// A name usable as an XML id: letters, digits, `.`, `-` and `_`.
    func xmlName(_ s: String) -> String {
        func allowed(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
        if s.utf8.allSatisfy(allowed) { return s }
        return String(
            s.unicodeScalars.map { c -> Character in
                let ok = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "-" || c == "_"
                return ok ? Character(c) : "_"
            })
    }
}

/// Element ids made unique: a name taken before gets `_2`, `_3`, ... (the first free), so that ids
/// many views share once made XML names cost no more than distinct ones.
struct ElementIDs {
    private var used: Set<String> = []
    /// The next number to try after each name.
    private var next: [String: Int] = [:]

    mutating func unique(_ name: String) -> String {
        if used.insert(name).inserted { return name }
        var n = next[name] ?? 2
        while !used.insert("\(name)_\(n)").inserted { n += 1 }
        next[name] = n + 1
        return "\(name)_\(n)"
    }
}
