import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct HitTestingTests {
    @Test func seed001VisitingOrderIsReproducedExactly() throws {
        let tree = seedExperimentTree()
        // A point on blue, away from red: blue-local (30, 30).
        let result = try #require(tree.hitTest(Point(x: 70, y: 150), inWindow: "window", traced: true))
        #expect(result.view == "blue")
        let colours: Set<ResponderID> = ["orange", "black", "green", "blue", "red"]
        let log = result.trace.filter { colours.contains($0.view) }.map { step -> String in
            switch step.kind {
            case .enter: "\(step.view) enter"
            case .result(let hit, _): "\(step.view) result \(hit?.rawValue ?? "nil")"
            }
        }
        #expect(
            log == [
                "orange enter", "black enter", "black result nil", "green enter", "green result nil",
                "blue enter", "red enter", "red result nil", "blue result blue", "orange result blue",
            ])
        #expect(result.pointInView == Point(x: 30, y: 30))
    }

    @Test func traceStartsAtTheWindowAndGivesReasons() throws {
        let tree = seedExperimentTree()
        let result = try #require(tree.hitTest(Point(x: 70, y: 150), inWindow: "window", traced: true))
        #expect(result.trace.first == HitTestStep(view: "window", kind: .enter(point: Point(x: 70, y: 150))))
        #expect(result.trace.last == HitTestStep(view: "window", kind: .result("blue", .hitSubview)))
        #expect(result.trace.contains(HitTestStep(view: "black", kind: .result(nil, .outside))))
        #expect(result.trace.contains(HitTestStep(view: "blue", kind: .result("blue", .hitSelf))))
    }

    @Test func seed000BlueWithInteractionDisabledLeavesTheTouchToOrange() throws {
        // Seed 000: blue (with yellow inside) has userInteractionEnabled = NO; touching blue or yellow
        // gives the touch to orange.
        let tree = makeTree { tree in
            try tree.addView("white", parent: "window", view(rect(0, 0, 375, 667)))
            try tree.addView("orange", parent: "white", view(rect(20, 20, 300, 300)))
            try tree.addView("blue", parent: "orange", view(rect(50, 50, 200, 200)) { $0.isUserInteractionEnabled = false })
            try tree.addView("yellow", parent: "blue", view(rect(50, 50, 50, 50)))
        }
        let onBlue = try #require(tree.hitTest(Point(x: 80, y: 80), inWindow: "window", traced: true))
        #expect(onBlue.view == "orange")
        #expect(onBlue.trace.contains(HitTestStep(view: "blue", kind: .result(nil, .notInteractive))))
        #expect(!onBlue.trace.contains { $0.view == "yellow" }, "a skipped view's subtree is never entered")
        let onYellow = tree.hitTest(Point(x: 20 + 50 + 60, y: 20 + 50 + 60), inWindow: "window")
        #expect(onYellow?.view == "orange")
    }

    @Test func passThroughViewIsNeverTheResultButItsSubviewsAre() throws {
        // Seed 000 §3.3.2: touching viewB (a subview) gives viewB; touching viewA itself gives nothing
        // from viewA, so the view below it takes the touch.
        let tree = makeTree { tree in
            try tree.addView("below", parent: "window", view(rect(0, 0, 375, 667)))
            try tree.addView("viewA", parent: "window", view(rect(50, 50, 200, 200)) { $0.hitTestPolicy = .passThrough })
            try tree.addView("viewB", parent: "viewA", view(rect(10, 10, 50, 50)))
        }
        #expect(tree.hitTest(Point(x: 70, y: 70), inWindow: "window")?.view == "viewB")
        let onA = try #require(tree.hitTest(Point(x: 200, y: 200), inWindow: "window", traced: true))
        #expect(onA.view == "below")
        #expect(onA.trace.contains(HitTestStep(view: "viewA", kind: .result(nil, .passedThrough))))
    }

    @Test func redirectGivesTheNamedSubviewWhereverTheTouchLands() throws {
        // Seed 000: whiteView's hitTest returns subviews[0] (redView), even on greenView, which is on top.
        let tree = makeTree { tree in
            try tree.addView("white", parent: "window", view(rect(0, 0, 300, 300)) { $0.hitTestPolicy = .redirect("red") })
            try tree.addView("red", parent: "white", view(rect(0, 0, 100, 100)))
            try tree.addView("green", parent: "white", view(rect(150, 150, 100, 100)))
        }
        #expect(tree.hitTest(Point(x: 200, y: 200), inWindow: "window")?.view == "red")
        #expect(tree.hitTest(Point(x: 10, y: 290), inWindow: "window")?.view == "red")
        #expect(tree.hitTest(Point(x: 301, y: 10), inWindow: "window")?.view == "window", "outside white: no redirect")
    }

    @Test func redirectToAnIneligibleTargetFallsBackToDefault() throws {
        let tree = makeTree { tree in
            try tree.addView("white", parent: "window", view(rect(0, 0, 300, 300)) { $0.hitTestPolicy = .redirect("red") })
            try tree.addView("red", parent: "white", view(rect(0, 0, 100, 100)) { $0.isHidden = true })
            try tree.addView("green", parent: "white", view(rect(150, 150, 100, 100)))
        }
        let onGreen = try #require(tree.hitTest(Point(x: 200, y: 200), inWindow: "window", traced: true))
        #expect(onGreen.view == "green")
        #expect(onGreen.trace.contains(HitTestStep(view: "white", kind: .result("green", .hitSubview))), "the trace says a subview took it")
        let onWhite = try #require(tree.hitTest(Point(x: 10, y: 10), inWindow: "window", traced: true))
        #expect(onWhite.view == "white")
        #expect(onWhite.trace.contains(HitTestStep(view: "white", kind: .result("white", .hitSelf))))
    }

    @Test func pointsConvertBetweenAnyTwoViewsThroughFramesAndBoundsOrigins() throws {
        let tree = makeTree { tree in
            try tree.addView("a", parent: "window", view(rect(10, 20, 200, 200)) { $0.boundsOrigin = Point(x: 5, y: 5) })
            try tree.addView("a.1", parent: "a", view(rect(30, 40, 50, 50)))
            try tree.addView("b", parent: "window", view(rect(100, 0, 100, 100)))
        }
        // a.1's origin is at window (10 - 5 + 30, 20 - 5 + 40) = (35, 55); b's at (100, 0).
        #expect(tree.convert(Point(x: 1, y: 2), from: "a.1", to: "b") == Point(x: -64, y: 57))
        #expect(tree.convert(Point(x: -64, y: 57), from: "b", to: "a.1") == Point(x: 1, y: 2))
        #expect(tree.convert(Point(x: 1, y: 2), from: "a.1", to: nil) == Point(x: 36, y: 57), "nil is the window")
        #expect(tree.convert(Point(x: 36, y: 57), from: nil, to: "a") == Point(x: 31, y: 42))
        #expect(tree.convert(Point(x: 0, y: 0), from: "a.1", to: "nowhere") == nil)
    }

    @Test func captureReturnsItselfWithoutAskingSubviews() throws {
        let tree = makeTree { tree in
            try tree.addView("backdrop", parent: "window", view(rect(0, 0, 375, 667)) { $0.hitTestPolicy = .capture })
            try tree.addView("child", parent: "backdrop", view(rect(0, 0, 100, 100)))
        }
        let result = try #require(tree.hitTest(Point(x: 10, y: 10), inWindow: "window", traced: true))
        #expect(result.view == "backdrop")
        #expect(!result.trace.contains { $0.view == "child" })
    }

    @Test(arguments: [
        (Point(x: 100, y: 100), true), (Point(x: 90, y: 90), true), (Point(x: 129.9, y: 129.9), true),
        (Point(x: 89.9, y: 100), false), (Point(x: 130, y: 100), false), (Point(x: 100, y: 130), false),
    ])
    func buttonOf20PointsEnlargedBy10OnEachSide(point: Point, hits: Bool) {
        // Seed 000: a 20×20 button whose hit area is enlarged by 10 on every side.
        let tree = makeTree { tree in
            try tree.addView("button", parent: "window", view(rect(100, 100, 20, 20)) { $0.hitExpansion = EdgeInsets(all: 10) })
        }
        #expect((tree.hitTest(point, inWindow: "window")?.view == "button") == hits)
    }

    @Test func hiddenParentCutsOffItsWholeSubtree() {
        let tree = makeTree { tree in
            try tree.addView("parent", parent: "window", view(rect(0, 0, 200, 200)) { $0.isHidden = true })
            try tree.addView("child", parent: "parent", view(rect(0, 0, 100, 100)))
        }
        #expect(tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "window")
    }

    @Test(arguments: [(0.0, false), (0.005, false), (0.0099, false), (0.01, true), (0.5, true), (1.0, true)])
    func alphaThresholdFollowsUIKit(alpha: Double, hittable: Bool) {
        // UIKit ignores views with alpha below 0.01; exactly 0.01 can be hit (the seeds' `<= 0.01`
        // differs; touchd follows UIKit's documentation).
        let tree = makeTree { tree in
            try tree.addView("faint", parent: "window", view(rect(0, 0, 100, 100)) { $0.alpha = alpha })
        }
        #expect((tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "faint") == hittable)
    }

    @Test func childStickingOutOfItsParentIsNotHitOutsideTheParent() throws {
        let tree = makeTree { tree in
            try tree.addView("parent", parent: "window", view(rect(0, 0, 100, 100)))
            try tree.addView("child", parent: "parent", view(rect(50, 50, 100, 100)))
        }
        #expect(tree.hitTest(Point(x: 75, y: 75), inWindow: "window")?.view == "child")
        let outside = try #require(tree.hitTest(Point(x: 125, y: 125), inWindow: "window", traced: true))
        #expect(outside.view == "window")
        #expect(!outside.trace.contains { $0.view == "child" })
    }

    @Test func laterSiblingIsOnTop() {
        let tree = makeTree { tree in
            try tree.addView("first", parent: "window", view(rect(0, 0, 100, 100)))
            try tree.addView("second", parent: "window", view(rect(50, 50, 100, 100)))
        }
        #expect(tree.hitTest(Point(x: 60, y: 60), inWindow: "window")?.view == "second")
        #expect(tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "first")
    }

    @Test func boundsOriginShiftsTheSubviewsCoordinateSpace() throws {
        // A scrolled container: bounds origin (0, 100) shows content from y = 100.
        let tree = makeTree { tree in
            try tree.addView("scroll", parent: "window", view(rect(0, 50, 200, 200)) { $0.boundsOrigin = Point(x: 0, y: 100) })
            try tree.addView("row", parent: "scroll", view(rect(0, 100, 200, 40)))
        }
        let result = try #require(tree.hitTest(Point(x: 10, y: 60), inWindow: "window"))
        #expect(result.view == "row")
        #expect(result.pointInView == Point(x: 10, y: 10))
        #expect(tree.convert(Point(x: 10, y: 10), toWindowFrom: "row") == Point(x: 10, y: 60))
        #expect(tree.convert(Point(x: 10, y: 60), from: nil, to: "scroll") == Point(x: 10, y: 110))
    }

    @Test func windowsOfOneDisplayAreAskedFromTheTopLevelDown() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 300, height: 300)))
        try tree.addWindow("alert", WindowProperties(size: Size(width: 200, height: 200), level: 10))
        try tree.addWindow("other", WindowProperties(size: Size(width: 300, height: 300), level: 20, display: "second"))
        try tree.addView("content", parent: "main", view(rect(0, 0, 300, 300)))
        try tree.addView("panel", parent: "alert", view(rect(100, 100, 100, 100)))
        #expect(tree.windowsForHitTesting(onDisplay: "default") == ["alert", "main"])
        let onPanel = try #require(tree.hitTest(Point(x: 150, y: 150), onDisplayOf: "main"))
        #expect(onPanel.view == "panel")
        #expect(onPanel.window == "alert")
        // Outside the smaller alert window, the main window takes the touch.
        let below = try #require(tree.hitTest(Point(x: 250, y: 250), onDisplayOf: "main"))
        #expect(below.view == "content")
        #expect(below.window == "main")
    }
}

@Suite(.timeLimit(.minutes(10))) struct ViewDepthTests {
    /// A chain of `depth` views, each filling the previous one, in window "w".
    func chain(_ depth: Int) throws -> ViewTree {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        var parent: ResponderID = "w"
        for level in 1...depth {
            let id = ResponderID("v\(level)")
            try tree.addView(id, parent: parent, ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
            parent = id
        }
        return tree
    }

    @Test func theDeepestAllowedViewIsHitAndItsChainIsWhole() throws {
        let tree = try chain(ViewTree.maximumDepth)
        let deepest = ResponderID("v\(ViewTree.maximumDepth)")
        let result = try #require(tree.hitTest(Point(x: 5, y: 5), inWindow: "w", traced: true))
        #expect(result.view == deepest)
        #expect(tree.path(to: deepest).count == ViewTree.maximumDepth + 1)
    }

    @Test func aViewPastTheMaximumDepthIsRefused() throws {
        var tree = try chain(ViewTree.maximumDepth)
        #expect(throws: ViewTreeError.tooDeep(view: "too.deep", depth: ViewTree.maximumDepth + 1)) {
            try tree.addView("too.deep", parent: ResponderID("v\(ViewTree.maximumDepth)"), ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
        }
        #expect(tree.kind(of: "too.deep") == nil)
        // A sibling at an allowed depth still goes in.
        let parent = ResponderID("v\(ViewTree.maximumDepth - 1)")
        try tree.addView("fine", parent: parent, ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
        #expect(tree.superview(of: "fine") == parent)
    }

    /// Each view's scale is in its domain, but the product along a path may not pass the bound:
    /// neither by adding a view nor by changing a transform above others.
    @Test func aViewWhoseComposedScalePassesTheBoundIsRefused() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        let frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let enlarged = ViewProperties(frame: frame, transform: ViewTransform(scaleX: 1000, scaleY: 1000))
        try tree.addView("a", parent: "w", enlarged)
        try tree.addView("b", parent: "a", enlarged)
        #expect(throws: ViewTreeError.self) { try tree.addView("c", parent: "b", enlarged) }
        #expect(tree.kind(of: "c") == nil)
        try tree.addView("c", parent: "b", ViewProperties(frame: frame))
        #expect(throws: ViewTreeError.self) { try tree.updateView("c") { $0.transform = ViewTransform(scaleX: 0.5, scaleY: 2) } }
        #expect(tree.properties(of: "c")?.transform == .identity)
        // Above "c": the change would take "c" past the bound.
        #expect(throws: ViewTreeError.self) { try tree.updateView("a") { $0.transform = ViewTransform(rotation: 30, scaleX: 1000, scaleY: 1001) } }
        #expect(tree.properties(of: "a")?.transform == enlarged.transform)
        // A change within the bound, or one that leaves the scale alone, goes in.
        try tree.updateView("c") { $0.transform = ViewTransform(rotation: 45, scaleX: 0.5, scaleY: 1) }
        try tree.updateView("a") { $0.transform = ViewTransform(translation: Point(x: 5, y: 5), rotation: 90, scaleX: 1000, scaleY: 1000) }
        #expect(tree.properties(of: "a")?.transform.rotation == 90)
    }
}
