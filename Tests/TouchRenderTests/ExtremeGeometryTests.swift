import Foundation
import Testing
import TouchCore
@testable import TouchRender

/// SplitMix64: a small seeded generator, so that a failure can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `values`, or (one time in three) a uniform value of `range`.
    mutating func pick(_ values: [Double], orIn range: ClosedRange<Double>) -> Double {
        let n = Int.random(in: 0..<(values.count + values.count / 2 + 1), using: &self)
        return n < values.count ? values[n] : Double.random(in: range, using: &self)
    }
}

/// Trees and touches with extreme but legal geometry (every number inside its `Limits` domain)
/// are drawn as well-formed SVG whose numbers are all finite, and never trap.
@Suite(.timeLimit(.minutes(10))) struct ExtremeGeometryTests {
    static let m = Limits.maximumPoints

    static func coordinate(_ r: inout SeededRandom) -> Double { r.pick([-m, m, 0, 1e-9, -0.5, m - 1e-3], orIn: -m...m) }
    static func length(_ r: inout SeededRandom) -> Double { r.pick([0, m, 1e-9, 0.5], orIn: 0...m) }

    static func properties(_ r: inout SeededRandom, ids: [ResponderID]) -> ViewProperties {
        var p = ViewProperties(frame: Rect(x: coordinate(&r), y: coordinate(&r), width: length(&r), height: length(&r)))
        if Bool.random(using: &r) { p.boundsOrigin = Point(x: coordinate(&r), y: coordinate(&r)) }
        p.isHidden = Int.random(in: 0..<8, using: &r) == 0
        p.isUserInteractionEnabled = Int.random(in: 0..<8, using: &r) != 0
        p.alpha = r.pick([0, 0.005, 0.01, 1], orIn: Limits.alpha.range)
        if Bool.random(using: &r) {
            p.hitExpansion = EdgeInsets(top: length(&r), left: length(&r), bottom: length(&r), right: length(&r))
        }
        switch Int.random(in: 0..<8, using: &r) {
        case 0: p.hitTestPolicy = .passThrough
        case 1: p.hitTestPolicy = .capture
        case 2: p.hitTestPolicy = .refuse
        case 3: p.hitTestPolicy = .redirect(ids.randomElement(using: &r) ?? "nowhere")
        default: break
        }
        return p
    }

    /// A window with up to 150 views, half of them nested in the one before (down to the deepest
    /// nesting allowed), the rest under a random earlier one.
    static func tree(_ r: inout SeededRandom) throws -> ViewTree {
        var tree = ViewTree()
        let size = Size(width: r.pick([1e-9, 1, m], orIn: 1e-9...m), height: r.pick([1e-9, 1, m], orIn: 1e-9...m))
        let density = r.pick([1e-9, 6.4, 1_000], orIn: 1e-9...1_000)
        try tree.addWindow("main", WindowProperties(size: size, pointsPerMillimetre: density))
        var ids: [ResponderID] = []
        var depth: [ResponderID: Int] = ["main": 0]
        for n in 0..<Int.random(in: 1...150, using: &r) {
            let parent: ResponderID =
                if let last = ids.last, Bool.random(using: &r), (depth[last] ?? 0) < Limits.maximumViewDepth { last } else {
                    ids.randomElement(using: &r).flatMap { (depth[$0] ?? 0) < Limits.maximumViewDepth ? $0 : nil } ?? "main"
                }
            let id = ResponderID("v\(n)")
            try tree.addView(id, parent: parent, properties(&r, ids: ids))
            depth[id] = (depth[parent] ?? 0) + 1
            ids.append(id)
        }
        return tree
    }

    static func touches(_ r: inout SeededRandom, views: [ResponderID]) -> [TouchPath] {
        (0..<Int.random(in: 0...30, using: &r)).map { n in
            let count = Int.random(in: 1...50, using: &r)
            let points = (0..<count).map { k in
                let phase: TouchPhase = k == 0 ? .began : (k == count - 1 ? [.ended, .cancelled, .moved].randomElement(using: &r)! : .moved)
                return TouchPathPoint(location: Point(x: coordinate(&r), y: coordinate(&r)), phase: phase, timestamp: InputTime(seconds: Double(k)))
            }
            let delivery = [TouchDelivery.delivered, .noView, .multipleTouchDisabled, .exclusiveTouchElsewhere].randomElement(using: &r)!
            return TouchPath(
                id: TouchID(truncatingIfNeeded: n), window: ["main", nil, "other"].randomElement(using: &r)!,
                view: views.randomElement(using: &r), delivery: delivery, points: points)
        }
    }

    @Test(arguments: 0..<40)
    func randomTreesWithExtremeGeometryDrawValidSVG(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let tree = try Self.tree(&r)
        let views = tree.views(in: "main")
        let touches = Self.touches(&r, views: views)
        let options = RenderOptions(
            scale: r.pick([1e-3, 1, 1_000], orIn: 1e-3...1_000), showsHiddenViews: Bool.random(using: &r),
            heatmapCellSize: r.pick([1e-9, 16, Self.m], orIn: 1e-9...Self.m))
        let renderer = try SVGRenderer(tree: tree, window: "main", options: options)
        let hitTest = tree.hitTest(Point(x: Self.coordinate(&r), y: Self.coordinate(&r)), inWindow: "main", traced: true)
        let picture = try renderer.render(touches: touches, heatmap: renderer.heatmap(of: touches), hitTest: hitTest)
        let svg = try SVGDocumentReader.parse(picture.svg)
        #expect(allNumbersAreFinite(svg), "seed \(seed)")
        #expect(svg.all("g", class: "view").count == renderer.figures.count, "seed \(seed)")
        #expect(picture.statistics.labelledViews + picture.statistics.unlabelledViews == renderer.figures.count, "seed \(seed)")
        #expect(svg.all("g", class: "hit-step").isEmpty == (hitTest == nil), "seed \(seed)")
    }
}

/// The deepest path at the composed scale's bound, every view as far out as it may be, is drawn
/// with finite numbers only, enlarged or shrunk.
@Suite(.timeLimit(.minutes(10))) struct ComposedScaleDrawingTests {
    @Test(arguments: [1_000.0, 0.001])
    func aDeepPathAtTheBoundDrawsFiniteNumbers(scale: Double) throws {
        let m = Limits.maximumPoints
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 800, height: 600)))
        var parent: ResponderID = "main"
        for level in 1...Limits.maximumViewDepth {
            let factor = level <= 2 ? scale : 1
            let transform = ViewTransform(translation: Point(x: m, y: -m), rotation: 30, scaleX: factor, scaleY: factor)
            let id = ResponderID("v\(level)")
            try tree.addView(id, parent: parent, ViewProperties(frame: Rect(x: m, y: -m, width: m, height: m), boundsOrigin: Point(x: -m, y: m), transform: transform))
            parent = id
        }
        let renderer = try SVGRenderer(tree: tree, window: "main", options: RenderOptions())
        let hitTest = tree.hitTest(Point(x: m, y: m), inWindow: "main", traced: true)
        let picture = try renderer.render(touches: [], heatmap: nil, hitTest: hitTest)
        #expect(allNumbersAreFinite(try SVGDocumentReader.parse(picture.svg)))
        #expect(renderer.figures.count == Limits.maximumViewDepth)
    }
}

/// The index of placed boxes answers exactly what testing every box would.
@Suite(.timeLimit(.minutes(10))) struct PlacedBoxesTests {
    static func box(_ r: inout SeededRandom) -> Rect {
        let x = r.pick([-1e8, 1e8, 0, 10, 10.5], orIn: -2_000...2_000)
        let y = r.pick([-1e8, 1e8, 0, 10, 10.5], orIn: -2_000...2_000)
        let w = r.pick([0, 1e-9, 1e7, 5, 100], orIn: 0...300)
        let h = r.pick([0, 1e-9, 1e7, 5, 20], orIn: 0...60)
        return Rect(x: x, y: y, width: w, height: h)
    }

    @Test(arguments: 0..<20)
    func answersLikeTestingEveryBox(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        var index = PlacedBoxes(cellWidth: 100, cellHeight: 24, testBudget: .max)
        var all: [Rect] = []
        for _ in 0..<600 {
            let question = Self.box(&r)
            let own = Bool.random(using: &r) ? all.randomElement(using: &r) : nil
            let expected = all.contains { $0 != own && $0.intersection(question) != nil }
            #expect(index.overlaps(question, except: own) == expected, "seed \(seed): \(question) except \(String(describing: own))")
            // Boxes that abut the last one exactly, as labels moved a line down do.
            let placed = Bool.random(using: &r) ? question : Rect(x: question.minX, y: question.maxY, width: question.width, height: 24)
            index.insert(placed)
            all.append(placed)
        }
        #expect(index.tests <= all.count * 600)
    }

    @Test func questionsPastTheBudgetAnswerOverlapsWithoutTesting() {
        var index = PlacedBoxes(cellWidth: 10, cellHeight: 10, testBudget: 3)
        for k in 0..<10 { index.insert(Rect(x: Double(k) * 0.1, y: 0, width: 1, height: 1)) }
        #expect(index.overlaps(Rect(x: 5, y: 5, width: 1, height: 1)) == true, "three tests, none overlapping: budget spent")
        #expect(index.tests == 3 && index.isExhausted)
        #expect(index.overlaps(Rect(x: 500, y: 500, width: 1, height: 1)) == true)
        #expect(index.tests == 3)
    }
}
