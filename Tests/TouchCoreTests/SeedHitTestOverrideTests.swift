import Testing
import TouchCore

/// Seed 000's `hitTest(_:with:)` overrides, exactly: `return self;` on a subview, `return
/// self.subviews[0];` on a superview ("不管点击哪里": wherever the touch lands), and the window's
/// special cases (`return nil` sends touches to the window below, `return self` keeps them all).
@Suite(.timeLimit(.minutes(10))) struct SeedHitTestOverrideTests {
    /// whiteView with redView (added first) and greenView (added last, on top), as seed 000 draws it.
    func whiteRedGreen(white policy: HitTestPolicy = .default, red change: (inout ViewProperties) -> Void = { _ in }) -> ViewTree {
        makeTree { tree in
            try tree.addView("white", parent: "window", view(rect(50, 50, 250, 250)) { $0.hitTestPolicy = policy })
            try tree.addView("red", parent: "white", view(rect(0, 0, 100, 100), change))
            try tree.addView("green", parent: "white", view(rect(150, 150, 100, 100)))
        }
    }

    @Test func captureAnswersEveryPointThatReachesItInsideItOrNot() throws {
        // redView's `return self;`: its superview asks it about every point, inside red or not.
        let tree = whiteRedGreen { $0.hitTestPolicy = .capture }
        // On green (on top, asked first): green.
        #expect(tree.hitTest(Point(x: 250, y: 250), inWindow: "window")?.view == "green")
        // On white, outside red: white asks red, which answers itself.
        let outside = try #require(tree.hitTest(Point(x: 180, y: 60), inWindow: "window", traced: true))
        #expect(outside.view == "red")
        #expect(outside.trace.contains(HitTestStep(view: "red", kind: .result("red", .captured))))
        #expect(outside.pointInView == Point(x: 130, y: 10), "the point in red's coordinates lies outside red")
        // Outside white, white is never asked about its subviews: the window takes it.
        #expect(tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "window")
        // The seed's caveat: green, on top, still takes what lands on it, so `return self` cannot make
        // red the view "wherever the touch lands"; the superview's `return self.subviews[0]` can.
    }

    @Test func aHiddenOrNonInteractiveCapturingViewIsSkippedLikeAnyOther() {
        for change in [{ (p: inout ViewProperties) in p.isHidden = true }, { $0.isUserInteractionEnabled = false }, { $0.alpha = 0 }] {
            let tree = whiteRedGreen { p in
                p.hitTestPolicy = .capture
                change(&p)
            }
            #expect(tree.hitTest(Point(x: 180, y: 60), inWindow: "window")?.view == "white")
        }
    }

    @Test func redirectAnywhereSendsEveryTouchToTheSubviewEvenAHiddenOne() throws {
        // whiteView's `return self.subviews[0];`, red hidden: red gets the touch wherever it lands.
        let tree = whiteRedGreen(white: .redirectAnywhere("red")) { $0.isHidden = true }
        for point in [Point(x: 250, y: 250), Point(x: 60, y: 60), Point(x: 200, y: 60), Point(x: 10, y: 10), Point(x: 370, y: 660)] {
            let result = try #require(tree.hitTest(point, inWindow: "window", traced: true))
            #expect(result.view == "red", "at \(point)")
            #expect(result.trace.contains(HitTestStep(view: "white", kind: .result("red", .redirected))))
            #expect(!result.trace.contains { $0.view == "green" }, "nothing else is asked")
        }
        // The plain redirect keeps to white's area and skips an unseen target.
        let plain = whiteRedGreen(white: .redirect("red")) { $0.isHidden = true }
        #expect(plain.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "window")
        #expect(plain.hitTest(Point(x: 250, y: 250), inWindow: "window")?.view == "green")
    }

    @Test func redirectAnywhereToAViewThatLeftBehavesAsTheDefault() throws {
        var tree = whiteRedGreen(white: .redirectAnywhere("red"))
        try tree.removeView("red")
        #expect(tree.hitTest(Point(x: 250, y: 250), inWindow: "window")?.view == "green")
        #expect(tree.hitTest(Point(x: 60, y: 60), inWindow: "window")?.view == "white")
        #expect(tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "window")
    }

    @Test func theSubviewIndexAnswersAsTheScanForViewsThatAnswerOutsideThemselves() throws {
        // Enough siblings for the spatial index: a capturing one and a redirecting-anywhere one among them.
        var tree = ViewTree()
        try tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000)))
        try tree.addView("wide", parent: "window", view(rect(0, 0, 1000, 1000)))
        for n in 0..<100 {
            try tree.addView(ResponderID("tile\(n)"), parent: "wide", view(rect(Double(n % 10) * 100, Double(n / 10) * 100, 50, 50)))
            if n == 40 { try tree.addView("catcher", parent: "wide", view(rect(900, 900, 10, 10)) { $0.hitTestPolicy = .capture }) }
        }
        var scanning = tree
        scanning.usesSubviewIndex = false
        for point in [Point(x: 5, y: 5), Point(x: 75, y: 75), Point(x: 975, y: 975), Point(x: 925, y: 925), Point(x: 905, y: 905), Point(x: 450, y: 450)] {
            #expect(tree.hitTest(point, inWindow: "window")?.view == scanning.hitTest(point, inWindow: "window")?.view, "at \(point)")
        }
        // Tiles added after the catcher are above it; below it, the catcher takes every gap.
        #expect(tree.hitTest(Point(x: 75, y: 75), inWindow: "window")?.view == "catcher")
        #expect(tree.hitTest(Point(x: 925, y: 925), inWindow: "window")?.view == "tile99")
        #expect(tree.hitTest(Point(x: 975, y: 975), inWindow: "window")?.view == "catcher")
    }

    /// Two windows of one display: `top` above `bottom`, each with a view.
    func twoWindows(top change: (inout WindowProperties) -> Void) throws -> ViewTree {
        var tree = ViewTree()
        var top = WindowProperties(size: Size(width: 300, height: 300), level: 10)
        change(&top)
        try tree.addWindow("bottom", WindowProperties(size: Size(width: 400, height: 400), isKey: true))
        try tree.addWindow("top", top)
        try tree.addView("under", parent: "bottom", view(rect(0, 0, 400, 400)))
        try tree.addView("panel", parent: "top", view(rect(100, 100, 100, 100)))
        return tree
    }

    @Test func aWindowThatReturnsNilSendsTheTouchToTheWindowBelow() throws {
        for (change, asked) in [
            ({ (w: inout WindowProperties) in w.hitTestPolicy = .refuse }, true), ({ $0.isHidden = true }, false),
            ({ $0.isUserInteractionEnabled = false }, true),
        ] {
            let tree = try twoWindows(top: change)
            let result = try #require(tree.hitTest(Point(x: 150, y: 150), onDisplayOf: "bottom", traced: true))
            #expect(result.view == "under")
            #expect(result.window == "bottom")
            // The top window is asked first, unless it is hidden: UIKit never asks a hidden window.
            #expect(result.trace.first?.view == (asked ? "top" : "bottom"))
        }
        // The default: the top window takes what lands inside it, on a view or not.
        let plain = try twoWindows { _ in }
        #expect(plain.hitTest(Point(x: 150, y: 150), onDisplayOf: "bottom")?.view == "panel")
        #expect(plain.hitTest(Point(x: 50, y: 50), onDisplayOf: "bottom")?.view == "top")
        #expect(plain.hitTest(Point(x: 350, y: 350), onDisplayOf: "bottom")?.view == "under")
    }

    @Test func aWindowThatReturnsItselfTakesEveryTouch() throws {
        // "Only the window handles events": the window's `return self`.
        let tree = try twoWindows { $0.hitTestPolicy = .capture }
        for point in [Point(x: 150, y: 150), Point(x: 50, y: 50), Point(x: 350, y: 350)] {
            let result = try #require(tree.hitTest(point, onDisplayOf: "bottom"))
            #expect(result.view == "top" && result.window == "top", "at \(point)")
        }
    }

    @Test func aPassThroughWindowLetsTouchesOnNoViewFallThrough() throws {
        let tree = try twoWindows { $0.hitTestPolicy = .passThrough }
        #expect(tree.hitTest(Point(x: 150, y: 150), onDisplayOf: "bottom")?.view == "panel")
        #expect(tree.hitTest(Point(x: 50, y: 50), onDisplayOf: "bottom")?.view == "under")
    }
}
