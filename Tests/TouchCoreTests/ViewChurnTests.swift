import PropertyBased
import Testing
@testable import TouchCore

/// Views that come and go (a client's `add_view` and `remove_view`) leave nothing behind: removed
/// views are compacted away, and the tree answers as one built afresh from its live views.
@Suite(.timeLimit(.minutes(10))) struct ViewChurnTests {
    typealias Dice = PropertyTests.Dice

    /// The same live views, added afresh in sibling order: what a churned tree must answer like.
    static func rebuilt(_ tree: ViewTree) throws -> ViewTree {
        var fresh = ViewTree()
        for window in tree.windowIDs {
            try fresh.addWindow(window, tree.windowProperties(of: window)!)
            var stack = tree.subviews(of: window).reversed().map { ($0, window) }
            while let (view, parent) = stack.popLast() {
                try fresh.addView(view, parent: parent, tree.properties(of: view)!)
                stack.append(contentsOf: tree.subviews(of: view).reversed().map { ($0, view) })
            }
        }
        return fresh
    }

    @Test func aChurnedTreeHitTestsAsOneBuiltAfreshAndHoldsOnlyItsLiveViews() async {
        await propertyCheck(count: propertyCount / 3, input: Gen.int(in: 0...1_000_000).array(of: 20...300)) { numbers in
            var dice = Dice(numbers: numbers)
            var tree = ViewTree()
            try! tree.addWindow("window", WindowProperties(size: Size(width: 800, height: 800)))
            try! tree.addView("wide", parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 800, height: 800)))
            var live: [ResponderID] = []
            var next = 0
            for _ in 0..<(200 + dice.next(800)) {
                if live.isEmpty || dice.next(3) != 0 {
                    let id = ResponderID("v\(next)")
                    next += 1
                    // Some under another live view, most under the wide container.
                    let parent = !live.isEmpty && dice.next(6) == 0 ? live[dice.next(live.count)] : "wide"
                    try! tree.addView(id, parent: parent, SubviewIndexPropertyTests.randomProperties(&dice, spread: 800))
                    live.append(id)
                } else {
                    let id = live[dice.next(live.count)]
                    try! tree.removeView(id)
                    live.removeAll { tree.kind(of: $0) == nil }
                }
            }
            #expect(tree.viewCount == live.count + 1)
            #expect(tree.nodes.count <= 2 * (tree.viewCount + tree.windowIDs.count) + 65, "stored \(tree.nodes.count) for \(tree.viewCount) views")
            let fresh = try! Self.rebuilt(tree)
            for _ in 0..<40 {
                let point = Point(x: Double(dice.next(900)) - 50, y: Double(dice.next(900)) - 50)
                #expect(tree.hitTest(point, inWindow: "window")?.view == fresh.hitTest(point, inWindow: "window")?.view, "at \(point)")
                #expect(tree.hitTest(point, inWindow: "window", traced: true)?.view == fresh.hitTest(point, inWindow: "window")?.view)
            }
            for id in live.prefix(20) {
                #expect(tree.path(to: id) == fresh.path(to: id))
                #expect(tree.responderChain(from: id) == fresh.responderChain(from: id))
            }
        }
    }

    @Test func addingAndRemovingAViewAMillionTimesKeepsTheStorageSmall() throws {
        var tree = ViewTree()
        try tree.addWindow("window", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addView("kept", parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 50, height: 50)))
        for n in 0..<1_000_000 {
            let id = ResponderID("churn\(n % 7)")
            try tree.addView(id, parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
            #expect(tree.hitTest(Point(x: 5, y: 5), inWindow: "window")?.view == id)
            try tree.removeView(id)
        }
        #expect(tree.nodes.count < 200)
        #expect(tree.hitTest(Point(x: 5, y: 5), inWindow: "window")?.view == "kept")
    }

    @Test func aFullTreeRefusesTheNextView() throws {
        var tree = ViewTree()
        try tree.addWindow("window", WindowProperties(size: Size(width: 100, height: 100)))
        for n in 1..<ViewTree.maximumNodes { try tree.addView(ResponderID("v\(n)"), parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1))) }
        #expect(throws: ViewTreeError.full(view: "more")) { try tree.addView("more", parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1))) }
        try tree.removeView("v1")
        try tree.addView("more", parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
    }
}

extension ViewChurnTests {
    /// A view's index found with a hint (the index a live touch kept for its view) is the one its
    /// name gives, whatever the hint: right, stale after removals and compactions, another view's
    /// (one re-added under the same name among them), or out of range.
    @Test func aHintedIndexIsTheIndexTheNameGives() async {
        await propertyCheck(count: propertyCount / 3, input: Gen.int(in: 0...1_000_000).array(of: 20...300)) { numbers in
            var dice = Dice(numbers: numbers)
            var tree = ViewTree()
            try! tree.addWindow("window", WindowProperties(size: Size(width: 800, height: 800)))
            var live: [ResponderID] = []
            var hints: Set<Int32> = [-1, 0, 1_000_000]
            for _ in 0..<(100 + dice.next(400)) {
                if live.isEmpty || dice.next(3) != 0 {
                    // A small set of names: removed views come back under the same name.
                    let id = ResponderID("v\(dice.next(120))")
                    guard tree.kind(of: id) == nil else { continue }
                    try! tree.addView(id, parent: "window", ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
                    live.append(id)
                } else {
                    try! tree.removeView(live.remove(at: dice.next(live.count)))
                }
                for id in live { hints.insert(tree.nodeIndex[id]!) }
                let probe = ResponderID("v\(dice.next(120))")
                for hint in hints.shuffled().prefix(8) {
                    #expect(tree.nodeIndex(of: probe, hint: hint) == tree.nodeIndex[probe], "\(probe) with hint \(hint)")
                }
            }
        }
    }
}
