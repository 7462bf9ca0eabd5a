import Testing
import TouchCore

/// Views with a `transform`: hit-testing and conversions go through it as UIKit's do
/// (`convert(_:from:)` applies it about the view's center, `point(inside:)` uses the bounds).
@Suite(.timeLimit(.minutes(10))) struct ViewTransformTests {
    /// Seed 000 §2.1: a view follows the finger by its transform. In `touchesMoved`, the offset
    /// between the touch's location and its previous location, both in the view's own coordinates,
    /// is added to the transform (`CGAffineTransformTranslate(self.transform, offsetX, offsetY)`).
    @Test func aViewDraggedByItsTransformFollowsTheFinger() throws {
        var tree = makeTree { tree in try tree.addView("drag", parent: "window", view(rect(100, 100, 100, 100))) }
        let path = [Point(x: 150, y: 150), Point(x: 160, y: 155), Point(x: 190, y: 185), Point(x: 260, y: 300)]
        for (previous, current) in zip(path, path.dropFirst()) {
            let (cur, pre) = try #require(tree.convert(current, previous, fromWindowTo: "drag"))
            let offset = cur - pre
            try tree.updateView("drag") { p in
                let t = p.transform
                p.transform = ViewTransform(translation: t.translation + offset, rotation: t.rotation, scaleX: t.scaleX, scaleY: t.scaleY)
            }
            // The finger stays on the spot of the view it landed on.
            #expect(tree.convert(current, fromWindowTo: "drag") == Point(x: 50, y: 50))
        }
        #expect(tree.properties(of: "drag")?.frame == rect(100, 100, 100, 100), "the frame is untouched")
        #expect(tree.properties(of: "drag")?.transform.translation == Point(x: 110, y: 150))
        let moved = try #require(tree.hitTest(Point(x: 300, y: 340), inWindow: "window"))
        #expect(moved.view == "drag")
        #expect(moved.pointInView == Point(x: 90, y: 90))
        // Where the view was before the drag, only the window is left.
        #expect(tree.hitTest(Point(x: 120, y: 120), inWindow: "window")?.view == "window")
    }

    @Test func aRotatedViewIsHitWhereItIsDrawn() throws {
        // 200 × 20 about its center (150, 110), a quarter turn: it stands 20 wide and 200 high.
        let tree = makeTree { tree in
            try tree.addView("bar", parent: "window", view(rect(50, 100, 200, 20)) { $0.transform = ViewTransform(rotation: 90) })
        }
        #expect(tree.hitTest(Point(x: 60, y: 110), inWindow: "window")?.view == "window", "the unrotated frame's end")
        let top = try #require(tree.hitTest(Point(x: 150, y: 20), inWindow: "window"))
        #expect(top.view == "bar")
        // Clockwise on screen: the view's x axis points down, so the top end is its x = 10.
        #expect(top.pointInView == Point(x: 10, y: 10))
        #expect(tree.convert(Point(x: 10, y: 10), toWindowFrom: "bar") == Point(x: 150, y: 20))
        #expect(tree.convert(Point(x: 150, y: 20), from: nil, to: "bar") == Point(x: 10, y: 10))
    }

    @Test func aSubviewOutsideARotatedParentIsNeverHitThere() throws {
        // As UIKit: a point outside the parent's bounds (through its transform) never reaches a subview
        // drawn outside it.
        let tree = makeTree { tree in
            try tree.addView("parent", parent: "window", view(rect(100, 100, 100, 100)) { $0.transform = ViewTransform(rotation: 90) })
            try tree.addView("out", parent: "parent", view(rect(100, 0, 50, 50)))
        }
        // Turned a quarter turn clockwise about (150, 150): out's middle is drawn at (175, 225), below the parent.
        let drawn = try #require(tree.convert(Point(x: 25, y: 25), toWindowFrom: "out"))
        #expect(drawn == Point(x: 175, y: 225))
        #expect(tree.hitTest(drawn, inWindow: "window")?.view == "window")
        // Inside the parent, the parent.
        #expect(tree.hitTest(Point(x: 150, y: 150), inWindow: "window")?.view == "parent")
    }

    @Test func theHitExpansionTurnsAndScalesWithTheView() throws {
        let tree = makeTree { tree in
            try tree.addView("button", parent: "window", view(rect(100, 100, 40, 20)) { p in
                p.hitExpansion = EdgeInsets(top: 0, left: 0, bottom: 0, right: 10)
                p.transform = ViewTransform(rotation: 90, scaleX: 2, scaleY: 2)
            })
        }
        // Center (120, 110); the view's x axis points down, scaled twice: x 0..50 (with expansion)
        // covers window y 70..170; its y 0..20 covers window x 140..100.
        #expect(tree.hitTest(Point(x: 120, y: 165), inWindow: "window")?.view == "button", "the expansion, turned down")
        #expect(tree.hitTest(Point(x: 120, y: 171), inWindow: "window")?.view == "window")
        #expect(tree.hitTest(Point(x: 141, y: 110), inWindow: "window")?.view == "window")
        let hit = try #require(tree.hitTest(Point(x: 130, y: 90), inWindow: "window"))
        #expect(hit.pointInView == Point(x: 10, y: 5), "the view's own coordinates, unscaled")
    }

    @Test func aNonInvertibleTransformIsRefusedOrNeverHitAndNeverTraps() throws {
        var tree = makeTree { tree in
            try tree.addView("nan", parent: "window", view(rect(0, 0, 100, 100)) { $0.transform = ViewTransform(rotation: .nan) })
        }
        // A view flattened to a line is past the composed scale's bound: the tree refuses it.
        #expect(throws: ViewTreeError.self) {
            try tree.addView("flat", parent: "window", view(rect(0, 0, 100, 100)) { $0.transform = ViewTransform(scaleX: 0, scaleY: 1) })
        }
        #expect(throws: ViewTreeError.self) {
            try tree.updateView("nan") { $0.transform = ViewTransform(scaleX: 1, scaleY: 0) }
        }
        // A rotation that is not a number leaves a matrix that cannot be inverted: never hit.
        #expect(tree.hitTest(Point(x: 50, y: 50), inWindow: "window")?.view == "window")
    }

    @Test func quarterTurnsAreExactAndOtherAnglesAreAccurate() {
        for (degrees, sin, cos) in [(0.0, 0.0, 1.0), (90, 1, 0), (180, 0, -1), (270, -1, 0), (-90, -1, 0), (450, 1, 0)] {
            let m = ViewTransform(rotation: degrees).matrix
            #expect(m.b == sin && m.a == cos, "\(degrees)°")
        }
        let m = ViewTransform(rotation: 30).matrix
        #expect(abs(m.b - 0.5) < 1e-15 && abs(m.a - 0.75.squareRoot()) < 1e-15)
        let n = ViewTransform(rotation: -135).matrix
        #expect(abs(n.b + 0.5.squareRoot()) < 1e-15 && abs(n.a + 0.5.squareRoot()) < 1e-15)
    }

    /// Hidden windows are not asked: the trace starts at the first window shown.
    @Test func theTraceListsOnlyTheWindowsAsked() throws {
        var tree = ViewTree()
        try tree.addWindow("w1", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addWindow("w2", WindowProperties(size: Size(width: 100, height: 100), level: 1, isHidden: true))
        let result = try #require(tree.hitTest(Point(x: 5, y: 5), onDisplayOf: "w1", traced: true))
        #expect(result.view == "w1")
        #expect(!result.trace.contains { $0.view == "w2" })
        #expect(result.trace.first == HitTestStep(view: "w1", kind: .enter(point: Point(x: 5, y: 5))))
    }
}
