import Foundation
import Testing
import TouchCore
@testable import TouchRender

/// Pictures of the largest trees and histories are bounded in work and size, and say what they
/// leave out.
@Suite(.timeLimit(.minutes(10))) struct PictureBudgetTests {
    /// `count` views side by side in a 1280 x 800 window, in a grid of cells that covers it, under
    /// one container: too small for their labels, which all go below their views.
    static func grid(_ count: Int) throws -> ViewTree {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 1280, height: 800)))
        try tree.addView("grid", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 1280, height: 800)))
        let columns = Int((Double(count) * 1280 / 800).squareRoot().rounded(.up))
        let rows = (count - 1 + columns - 1) / columns
        let w = 1280 / Double(columns)
        let h = 800 / Double(rows)
        for n in 0..<(count - 1) {
            let frame = Rect(x: Double(n % columns) * w, y: Double(n / columns) * h, width: w, height: h)
            try tree.addView(ResponderID("tile\(n)"), parent: "grid", ViewProperties(frame: frame))
        }
        return tree
    }

    @Test func tenThousandViewsAreDrawnWithTheOutermostThousandTriedForALabel() throws {
        let tree = try Self.grid(Limits.maximumViews)
        let picture = try SVGRenderer(tree: tree, window: "main").render()
        let s = picture.statistics
        let budget = RenderBudget()
        #expect(s.views == Limits.maximumViews)
        // Labels never overlap: of the thousand tried, those that found room are drawn (a few
        // hundred: a label is wider than a tile), and the others are counted with the rest.
        #expect(s.labelledViews > 50 && s.labelledViews <= budget.labelledViews, "\(s.labelledViews) labels")
        #expect(s.labelledViews + s.unlabelledViews == Limits.maximumViews)
        // Comparing every label with every one placed before would take about labels² / 2 tests
        // per place tried: half a million at the least.
        #expect(s.labelOverlapTests <= 100 * budget.labelledViews, "\(s.labelOverlapTests) overlap tests")
        #expect(s.bytes == picture.svg.utf8.count && s.bytes <= budget.bytes)
        #expect(s.bytes <= 12 << 20, "\(s.bytes) bytes")
        let svg = try SVGDocumentReader.parse(picture.svg)
        #expect(svg.all("g", class: "view").count == Limits.maximumViews)
        let labels = svg.all("g", class: "label").map { $0["data-view"]! }
        #expect(labels.count == s.labelledViews)
        let tried = Set(["grid"] + (0..<(budget.labelledViews - 1)).map { "tile\($0)" })
        #expect(labels.first == "grid" && labels.allSatisfy(tried.contains), "the outermost views first, in z-order")
        #expect(svg["data-unlabelled-views"] == String(s.unlabelledViews))
        #expect(svg.all("text", class: "legend-line").contains { $0.text.hasPrefix("\(s.unlabelledViews) of 10000 views drawn without a label") })
    }

    @Test func tryingToPlaceTenThousandLabelsTakesAFewTestsEach() throws {
        let tree = try Self.grid(Limits.maximumViews)
        var options = RenderOptions()
        options.budget.labelledViews = Limits.maximumViews
        options.budget.labelOverlapTests = .max
        let s = try SVGRenderer(tree: tree, window: "main", options: options).render().statistics
        #expect(s.labelledViews + s.unlabelledViews == Limits.maximumViews)
        // Comparing every label with every one placed before would take some 800 million.
        #expect(s.labelOverlapTests <= 100 * Limits.maximumViews, "\(s.labelOverlapTests) overlap tests")
        #expect(s.labelOverlapTests < RenderBudget().labelOverlapTests, "within the standard budget")
    }

    @Test func labelsPastTheBudgetOfOverlapTestsAreLeftOut() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 400, height: 300)))
        for n in 0..<2_000 {
            try tree.addView(ResponderID("same\(n)"), parent: "main", ViewProperties(frame: Rect(x: 10, y: 10, width: 5, height: 5)))
        }
        var options = RenderOptions()
        options.budget.labelledViews = 2_000
        options.budget.labelOverlapTests = 5_000
        let picture = try SVGRenderer(tree: tree, window: "main", options: options).render()
        let s = picture.statistics
        #expect(s.labelOverlapTests <= 5_000)
        #expect(s.unlabelledViews > 0 && s.labelledViews + s.unlabelledViews == 2_000)
        let svg = try SVGDocumentReader.parse(picture.svg)
        #expect(svg.all("g", class: "label").count == s.labelledViews)
        #expect(svg["data-unlabelled-views"] == String(s.unlabelledViews))
    }

    static func path(_ id: TouchID, samples: Int) -> TouchPath {
        let points = (0..<samples).map { k -> TouchPathPoint in
            let phase: TouchPhase = k == 0 ? .began : (k == samples - 1 ? .ended : .moved)
            return TouchPathPoint(location: Point(x: Double(k), y: Double(id)), phase: phase, timestamp: InputTime(seconds: Double(k) / 100))
        }
        return TouchPath(id: id, window: "main", view: nil, delivery: .noView, points: points)
    }

    @Test func touchesPastTheBudgetAreLeftOutOldestFirstAndThinned() throws {
        let tree = try Self.grid(10)
        let touches = (TouchID(1)...50).map { Self.path($0, samples: 100) }
        var options = RenderOptions()
        options.budget.touches = 20
        options.budget.touchSamples = 500
        let picture = try SVGRenderer(tree: tree, window: "main", options: options).render(touches: touches)
        let s = picture.statistics
        #expect(s.touches == 20 && s.touchesLeftOut == 30)
        // 2,000 samples for 500: one in 4, and each path's last.
        #expect(s.touchSampleStride == 4 && s.touchSamples == 20 * 26)
        let svg = try SVGDocumentReader.parse(picture.svg)
        let drawn = svg.all("g", class: "touch")
        #expect(drawn.map { $0["data-touch"]! } == (31...50).map(String.init), "the newest")
        for touch in drawn {
            let points = touch.children.first { $0.classes.contains("touch-path") }?["points"]?.split(separator: " ") ?? []
            #expect(points.count == 26)
            #expect(points.first?.hasPrefix("0,") == true && points.last?.hasPrefix("99,") == true, "first and last kept")
            #expect(touch.children.contains { $0.classes.contains("touch-up") })
        }
        #expect(svg["data-touches-left-out"] == "30" && svg["data-touch-sample-stride"] == "4")
        let lines = svg.all("text", class: "legend-line").map(\.text)
        #expect(lines.contains { $0.contains("30 older touches left out") && $0.contains("one sample in 4") })
    }

    @Test func aPictureLargerThanItsBudgetIsRefused() throws {
        let tree = try Self.grid(1_000)
        var options = RenderOptions()
        options.budget.bytes = 64 * 1024
        #expect(throws: RenderError.tooLarge(limit: 64 * 1024)) {
            _ = try SVGRenderer.snapshot(tree: tree, window: "main", touches: [], options: options)
        }
        let fits = try SVGRenderer.snapshot(tree: tree, window: "main", touches: [])
        #expect(fits.utf8.count > 64 * 1024)
    }

    @Test func aHeatmapOfTheLargestWindowIsValidSVG() throws {
        let side = Limits.maximumPoints
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: side, height: side)))
        try tree.addView("far-top-left", parent: "main", ViewProperties(frame: Rect(x: -side, y: -side, width: side, height: side)))
        try tree.addView("far-bottom-right", parent: "main", ViewProperties(frame: Rect(x: side, y: side, width: side, height: side)))
        try tree.addView("whole", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: side, height: side)))
        try tree.addView("deeper", parent: "whole", ViewProperties(frame: Rect(x: side, y: -side, width: side, height: side)))
        let downs = [Point(x: 0, y: 0), Point(x: side - 0.001, y: side - 0.001), Point(x: side / 2, y: side / 3), Point(x: -side, y: side)]
        let touches = downs.enumerated().map { n, p in
            TouchPath(id: TouchID(truncatingIfNeeded: n + 1), window: "main", view: nil, points: [
                TouchPathPoint(location: p, phase: .began, timestamp: 0), TouchPathPoint(location: p, phase: .ended, timestamp: 0.1),
            ])
        }
        for cellSize in [16, 1e-300, 0, -1, .nan, .infinity, side * 2] {
            let renderer = try SVGRenderer(tree: tree, window: "main", options: RenderOptions(heatmapCellSize: cellSize))
            let heatmap = renderer.heatmap(of: touches)
            #expect(heatmap.columns <= Heatmap.maximumCellsPerSide && heatmap.rows <= Heatmap.maximumCellsPerSide)
            #expect(heatmap.cellSize >= side / Double(Heatmap.maximumCellsPerSide) && heatmap.cellSize.isFinite)
            #expect(heatmap.total == 3 && heatmap.outside == 1, "cell size \(cellSize)")
            let picture = try renderer.render(touches: touches, heatmap: heatmap)
            let svg = try SVGDocumentReader.parse(picture.svg)
            #expect(allNumbersAreFinite(svg), "cell size \(cellSize)")
            let cells = svg.all("rect", class: "heat")
            #expect(cells.reduce(0) { $0 + Int($1["data-count"]!)! } == 3)
            #expect(svg.all("g", class: "view").count == 4)
        }
    }

    @Test func heatmapsOfAnySizeNeverTrap() {
        let areas = [
            Rect(x: 0, y: 0, width: 1e6, height: 1e6), Rect(x: -1e6, y: -1e6, width: 0, height: 0),
            Rect(x: 0, y: 0, width: .nan, height: .infinity), Rect(x: 0, y: 0, width: -5, height: 10),
        ]
        for area in areas {
            for cellSize in [16, 1e-300, 0, -1, .nan, .infinity, 1e300] {
                var map = Heatmap(area: area, cellSize: cellSize)
                #expect((1...Heatmap.maximumCellsPerSide).contains(map.columns) && (1...Heatmap.maximumCellsPerSide).contains(map.rows))
                for p in [Point(x: 0, y: 0), Point(x: 999_999.999, y: 999_999.999), Point(x: .nan, y: 1), Point(x: -1e6, y: -1e6)] {
                    map.add(p)
                }
                #expect(map.total + map.outside == 4)
                #expect(map.occupiedCells.reduce(0) { $0 + $1.count } == map.total)
                #expect(map.count(column: -1, row: 0) == 0 && map.count(column: 0, row: Int.max) == 0)
            }
        }
    }

    @Test func coloursAndRecordersTakeAnyNumber() {
        for hue in [0, 359.999, -1e300, 1e300, .nan, .infinity, -.infinity] {
            for level in [-1, 0, 0.5, 2, .nan] {
                #expect(RGBColour(hue: hue, saturation: level, lightness: level).description.count == 7)
            }
        }
        let recorder = TouchPathRecorder(limit: 0, pointLimit: -3)
        #expect(recorder.limit == 1 && recorder.pointLimit == 4)
    }

    @Test func viewsWhoseIDsShareAnXMLNameGetShortUniqueElementIDs() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 400, height: 300)))
        // "v一", "v丁", ...: 2,000 ids that are all "view-v_" as XML names.
        for n in 0..<2_000 {
            let scalar = try #require(Unicode.Scalar(0x4E00 + UInt32(n)))
            try tree.addView(
                ResponderID("v" + String(Character(scalar))), parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        }
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main").svg())
        let elementIDs = svg.all("g", class: "view").map { $0["id"]! }
        #expect(elementIDs.count == 2_000 && Set(elementIDs).count == 2_000)
        #expect(elementIDs.first == "view-v_" && elementIDs.dropFirst().first == "view-v__2")
        #expect(elementIDs.allSatisfy { $0.count <= "view-v__2000".count })
    }
}

/// Whether every attribute that should hold numbers holds finite ones (no `nan`, no `inf`).
func allNumbersAreFinite(_ svg: SVGElement) -> Bool {
    let numeric: Set<String> = ["x", "y", "width", "height", "cx", "cy", "r", "x1", "y1", "x2", "y2", "font-size", "stroke-width", "fill-opacity"]
    let lists: Set<String> = ["viewBox", "data-frame", "points", "data-window-size", "data-point"]
    for element in [svg] + svg.descendants {
        for (name, value) in element.attributes {
            if numeric.contains(name), Double(value)?.isFinite != true { return false }
            if lists.contains(name) {
                let parts = value.split(whereSeparator: { $0 == " " || $0 == "," })
                if !parts.allSatisfy({ Double($0)?.isFinite == true }) { return false }
            }
        }
    }
    return true
}
