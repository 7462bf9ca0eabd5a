import Foundation
import Testing
import TouchCore
import TouchInput
import TouchLayout
import TouchRender

/// No two pieces of a picture's writing overlap (views' labels, their rows of badges, a hit-test's
/// answers): on every bundled layout, and on seeded random trees whose views pile up on shared
/// corners. Each is read back from the SVG: its `data-box`, and where its text is drawn.
@Suite(.timeLimit(.minutes(10))) struct LabelOverlapTests {
    /// An element's `data-box`.
    static func box(_ element: SVGElement) -> Rect? {
        guard let n = element["data-box"]?.split(separator: " ").compactMap({ Double($0) }), n.count == 4 else { return nil }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    /// Each label, badge and hit-test answer of `svg`: what it is, and its box.
    static func writing(_ svg: SVGElement) -> [(what: String, box: Rect)] {
        svg.descendants.compactMap { element in
            box(element).map { ("\(element.classes.first ?? element.name) \(element["data-view"] ?? "")", $0) }
        }
    }

    /// How far apart two numbers of the SVG may be and still be the same: it writes them to the
    /// thousandth.
    static let rounding = 0.002

    /// Whether two boxes as the SVG writes them overlap by more than its rounding.
    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        guard let common = a.intersection(b) else { return false }
        return common.width > rounding && common.height > rounding
    }

    /// Checks that no two boxes of `picture` overlap, that each label's and answer's text starts at
    /// its box and fits its width, and that every view is labelled or counted as not.
    static func check(_ picture: Picture, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let svg = try SVGDocumentReader.parse(picture.svg)
        let boxes = writing(svg)
        for i in boxes.indices {
            #expect(boxes[i].box.minX.isFinite && boxes[i].box.maxY.isFinite, "\(context): \(boxes[i])", sourceLocation: sourceLocation)
            for j in boxes.indices where j > i {
                #expect(
                    !overlap(boxes[i].box, boxes[j].box), "\(context): \(boxes[i].what) \(boxes[i].box) overlaps \(boxes[j].what) \(boxes[j].box)",
                    sourceLocation: sourceLocation)
            }
        }
        let fontSize = try #require(svg.number("font-size"))
        for label in svg.all("g", class: "label") + svg.all("text", class: "reason") {
            let box = Self.box(label)
            let text = label.name == "text" ? label : label.children.first
            let x = (text?.number("x") ?? .nan) - (box?.minX ?? .nan)
            let y = (text?.number("y") ?? .nan) - (box.map { $0.minY + fontSize } ?? .nan)
            #expect(abs(x) <= Self.rounding && abs(y) <= Self.rounding, "\(context): \(text?.text ?? "") at \(x), \(y) from its box", sourceLocation: sourceLocation)
            #expect(Double(text?.text.count ?? 0) * fontSize * 0.6 <= (box?.width ?? 0) + Self.rounding, "\(context): \(text?.text ?? "")", sourceLocation: sourceLocation)
        }
        let s = picture.statistics
        #expect(s.labelledViews == svg.all("g", class: "label").count, "\(context)", sourceLocation: sourceLocation)
        #expect(s.labelledViews + s.unlabelledViews == s.views, "\(context)", sourceLocation: sourceLocation)
    }

    static func load(_ name: String) throws -> (LayoutDocument, Application) {
        let path = repositoryRoot + "/config/" + name
        let document = try LayoutLoader.load(path: path)
        return (document, try document.makeApplication(file: path))
    }

    @Test(arguments: ["kiosk.toml", "media-kiosk.toml", "seed-experiment.toml"])
    func theBundledLayoutsWritingNeverOverlapsAndEveryViewIsNamed(name: String) throws {
        let (document, app) = try Self.load(name)
        let markers = WindowPictureTests.markers(document, app)
        for window in app.tree.windowIDs {
            let renderer = try SVGRenderer(tree: app.tree, window: window, markers: markers)
            let picture = try renderer.render()
            try Self.check(picture, "\(name) \(window)")
            #expect(picture.statistics.unlabelledViews == 0, "\(name): every view has its label")
            #expect(!picture.svg.contains("data-views-without-badges"), "\(name): every view has its badges")
            // Hit-tests at a grid of points: their answers too.
            let size = try #require(app.tree.windowProperties(of: window)?.size)
            for fx in [0.1, 0.35, 0.5, 0.65, 0.9] {
                for fy in [0.1, 0.5, 0.9] {
                    let result = app.tree.hitTest(Point(x: size.width * fx, y: size.height * fy), inWindow: window, traced: true)
                    try Self.check(try renderer.render(hitTest: result), "\(name) \(window) hit-test at \(fx), \(fy)")
                }
            }
        }
    }

    @Test func theKioskWithTheDemoRecordingToo() throws {
        let (tree, paths, _, markers) = try TouchPictureTests.demoReplay()
        let renderer = try SVGRenderer(tree: tree, window: "main", markers: markers)
        try Self.check(try renderer.render(touches: paths, heatmap: renderer.heatmap(of: paths)), "kiosk with the demo")
    }

    /// Up to 160 views whose frames start on a coarse grid (so that many share a corner), nested
    /// at random, a third of them with badges, with ids of every length.
    static func pile(_ r: inout SeededRandom) throws -> (ViewTree, ViewMarkers) {
        var tree = ViewTree()
        let width = r.pick([320, 1280, 1920], orIn: 200...2_000)
        let height = r.pick([240, 800, 1080], orIn: 200...2_000)
        try tree.addWindow("main", WindowProperties(size: Size(width: width, height: height)))
        var markers = ViewMarkers()
        var ids: [ResponderID] = ["main"]
        for n in 0..<Int.random(in: 1...160, using: &r) {
            let id = ResponderID(String(repeating: "v", count: Int.random(in: 0...20, using: &r)) + "\(n)")
            let frame = Rect(
                x: Double(Int.random(in: 0...4, using: &r)) * width / 5, y: Double(Int.random(in: 0...4, using: &r)) * height / 5,
                width: r.pick([0, 10, width / 5, width], orIn: 0...width), height: r.pick([0, 10, height / 5, height], orIn: 0...height))
            var properties = ViewProperties(frame: frame)
            properties.isHidden = Int.random(in: 0..<6, using: &r) == 0
            properties.alpha = r.pick([0, 0.5, 1], orIn: 0...1)
            try tree.addView(id, parent: Bool.random(using: &r) ? "main" : ids.randomElement(using: &r)!, properties)
            ids.append(id)
            if Int.random(in: 0..<3, using: &r) == 0 {
                markers.add(.control(ControlSpec(view: id, kind: .button)), to: id)
                if Bool.random(using: &r) { markers.add(.handlers([Handler(responder: id, trigger: .touchesEnded, action: "a")]), to: id) }
            }
        }
        return (tree, markers)
    }

    @Test(arguments: 0..<40)
    func writingOnRandomPilesOfViewsNeverOverlaps(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let (tree, markers) = try Self.pile(&r)
        var options = RenderOptions()
        if Int.random(in: 0..<4, using: &r) == 0 { options.budget.labelOverlapTests = Int.random(in: 0...2_000, using: &r) }
        let renderer = try SVGRenderer(tree: tree, window: "main", markers: markers, options: options)
        let size = try #require(tree.windowProperties(of: "main")?.size)
        let point = Point(x: Double.random(in: 0...size.width, using: &r), y: Double.random(in: 0...size.height, using: &r))
        let hitTest = Bool.random(using: &r) ? tree.hitTest(point, inWindow: "main", traced: true) : nil
        let picture = try renderer.render(hitTest: hitTest)
        try Self.check(picture, "seed \(seed)")
        #expect(picture.statistics.labelOverlapTests <= options.budget.labelOverlapTests, "seed \(seed)")
    }
}
