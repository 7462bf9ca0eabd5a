import PropertyBased
import Testing
import TouchCore

/// Views with many subviews are hit-tested through a spatial index; without it (and in a traced
/// hit-test) every subview is asked as UIKit does. On random wide trees, changed after the index
/// was built, the answers must be the same.
@Suite(.timeLimit(.minutes(10))) struct SubviewIndexPropertyTests {
    typealias Dice = PropertyTests.Dice

    static func randomProperties(_ dice: inout Dice, spread: Int) -> ViewProperties {
        // Now and then a view as large as the whole area (listed everywhere rather than per cell).
        let huge = dice.next(12) == 0
        var props = ViewProperties(
            frame: Rect(
                x: Double(dice.next(spread)) - Double(spread / 10) + Double(dice.next(4)) / 4,
                y: Double(dice.next(spread)) - Double(spread / 10) + Double(dice.next(3)) / 3,
                width: huge ? Double(spread) : Double(dice.next(120)) - 5,
                height: huge ? Double(spread) : Double(dice.next(120)) - 5))
        props.isHidden = dice.next(8) == 0
        props.isUserInteractionEnabled = dice.next(8) != 0
        props.alpha = [1, 0.5, 0.01, 0.005][dice.next(4)]
        props.hitExpansion = EdgeInsets(
            top: Double(dice.next(3) * 7), left: Double(dice.next(3) * 5) - 3, bottom: Double(dice.next(2) * 11),
            right: Double(dice.next(3) * 4))
        props.boundsOrigin = Point(x: Double(dice.next(3) * 10), y: Double(dice.next(2) * -7))
        if dice.next(5) == 0 {
            props.transform = ViewTransform(
                translation: Point(x: Double(dice.next(41)) - 20, y: Double(dice.next(41)) - 20),
                rotation: [90, 30, -45, 180][dice.next(4)], scaleX: [1, 2, 0.5][dice.next(3)], scaleY: [1, 1.5][dice.next(2)])
        }
        switch dice.next(10) {
        case 0: props.hitTestPolicy = .passThrough
        case 1: props.hitTestPolicy = .capture
        default: break
        }
        return props
    }

    /// A window with a wide container (and sometimes a wide grandchild container), then random
    /// changes: moved, hidden and removed subviews, and more subviews added (some far outside).
    static func randomWideTree(_ dice: inout Dice) -> ViewTree {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 800, height: 800)))
        try! tree.addView("wide", parent: "window", ViewProperties(frame: Rect(x: 10, y: 10, width: 780, height: 780)))
        var ids: [ResponderID] = []
        let count = 32 + dice.next(200)
        for n in 0..<count {
            let id = ResponderID("w\(n)")
            let parent: ResponderID = n > 40 && dice.next(4) == 0 ? "w40" : "wide"
            try! tree.addView(id, parent: parent, randomProperties(&dice, spread: 800))
            ids.append(id)
            if dice.next(12) == 0 {
                try! tree.addView(ResponderID("w\(n).child"), parent: id, randomProperties(&dice, spread: 100))
            }
        }
        for id in ids where dice.next(10) == 0 {
            let subviews = tree.subviews(of: id)
            if !subviews.isEmpty { try! tree.updateView(id) { $0.hitTestPolicy = .redirect(subviews[0]) } }
        }
        for _ in 0..<dice.next(40) {
            let id = ids[dice.next(ids.count)]
            guard tree.kind(of: id) == .view else { continue }
            switch dice.next(4) {
            case 0: _ = try! tree.removeView(id)
            case 1: try! tree.updateView(id) { $0.isHidden.toggle() }
            default:
                let props = randomProperties(&dice, spread: 800)
                try! tree.updateView(id) {
                    $0.frame = props.frame
                    $0.hitExpansion = props.hitExpansion
                    $0.alpha = props.alpha
                    $0.transform = props.transform
                }
            }
        }
        for n in 0..<dice.next(3 * count) {
            // Beyond the area the index was built for, up to twice as far.
            try! tree.addView(ResponderID("late\(n)"), parent: "wide", randomProperties(&dice, spread: 1600))
        }
        return tree
    }

    @Test func theIndexedHitTestAnswersAsTheScanDoes() async {
        await propertyCheck(count: propertyCount, input: Gen.int(in: 0...1_000_000).array(of: 20...400)) { numbers in
            var dice = Dice(numbers: numbers)
            let tree = Self.randomWideTree(&dice)
            var scanning = tree
            scanning.usesSubviewIndex = false
            for _ in 0..<40 {
                let point = Point(
                    x: Double(dice.next(1700)) - 100 + Double(dice.next(8)) / 8,
                    y: Double(dice.next(1700)) - 100 + Double(dice.next(8)) / 8)
                let indexed = tree.hitTest(point, inWindow: "window")
                let scanned = scanning.hitTest(point, inWindow: "window")
                let traced = tree.hitTest(point, inWindow: "window", traced: true)
                #expect(indexed?.view == scanned?.view, "at \(point)")
                #expect(indexed?.pointInView == scanned?.pointInView, "at \(point)")
                #expect(traced?.view == scanned?.view, "at \(point)")
            }
        }
    }

    /// Many full-window overlays on a grid of small views: the overlays are listed once each, and
    /// the topmost eligible one still wins.
    @Test func largeOverlappingSubviewsAnswerAsTheScanDoes() throws {
        var tree = ViewTree()
        try tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000)))
        for n in 0..<400 {
            let frame = Rect(x: Double(n % 20) * 50, y: Double(n / 20) * 50, width: 50, height: 50)
            try tree.addView(ResponderID("tile\(n)"), parent: "window", ViewProperties(frame: frame))
        }
        for n in 0..<300 {
            var props = ViewProperties(frame: Rect(x: Double(n), y: 0, width: 1000, height: 1000))
            props.isHidden = n != 17
            try tree.addView(ResponderID("overlay\(n)"), parent: "window", props)
        }
        var scanning = tree
        scanning.usesSubviewIndex = false
        for point in [Point(x: 5, y: 5), Point(x: 16, y: 500), Point(x: 17, y: 500), Point(x: 999, y: 999)] {
            #expect(tree.hitTest(point, inWindow: "window")?.view == scanning.hitTest(point, inWindow: "window")?.view, "at \(point)")
        }
        #expect(tree.hitTest(Point(x: 500, y: 500), inWindow: "window")?.view == "overlay17")
        #expect(tree.hitTest(Point(x: 5, y: 5), inWindow: "window")?.view == "tile0")
        // Hiding the overlay takes it out of the index too.
        try tree.updateView("overlay17") { $0.isHidden = true }
        #expect(tree.hitTest(Point(x: 500, y: 500), inWindow: "window")?.view == "tile210")
    }

    /// Points exactly on the edges of many abutting subviews (where rounding could put a point in
    /// the neighbouring cell) find the same subview either way.
    @Test func edgesOfATightGridAreAnsweredAsTheScanDoes() throws {
        var tree = ViewTree()
        try tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000)))
        for row in 0..<30 {
            for column in 0..<30 {
                let frame = Rect(x: Double(column) * 33.3, y: Double(row) * 33.3, width: 33.3, height: 33.3)
                try tree.addView(ResponderID("c\(row).\(column)"), parent: "window", ViewProperties(frame: frame))
            }
        }
        var scanning = tree
        scanning.usesSubviewIndex = false
        for row in 0..<31 {
            for column in 0..<31 {
                for (dx, dy) in [(0.0, 0.0), (-1e-12, 0.0), (0.0, -1e-12), (1e-9, 1e-9)] {
                    let point = Point(x: Double(column) * 33.3 + dx, y: Double(row) * 33.3 + dy)
                    #expect(tree.hitTest(point, inWindow: "window")?.view == scanning.hitTest(point, inWindow: "window")?.view, "at \(point)")
                }
            }
        }
        #expect(tree.hitTest(Point(x: 40, y: 40), inWindow: "window")?.view == "c1.1")
    }
}
