import Testing
import TouchCore

/// Seed 001's `next` override and seed 003's first custom `hitTest(_:with:)`.
@Suite(.timeLimit(.minutes(10))) struct SeedLastRowsTests {
    /// Seed 001: "你可以自定义UIResponder的子类重写(override)它的get方法" — a responder subclass
    /// overrides `next` to send unhandled events elsewhere. Blue's `next` is the view controller:
    /// orange and root are left out of its chain, and red's chain goes through blue's override.
    @Test func aNextResponderOverrideChangesTheChain() throws {
        var tree = seedExperimentTree()
        try tree.updateView("blue") { $0.nextResponder = "ViewController" }
        #expect(tree.nextResponder(of: "blue") == "ViewController")
        #expect(tree.responderChain(from: "red") == ["red", "blue", "ViewController", "window", "application", "app_delegate"])
        #expect(tree.responderChain(from: "black") == ["black", "orange", "root", "ViewController", "window", "application", "app_delegate"])
    }

    /// Seed 001's log with blue's `next` overridden: the unhandled touch skips orange.
    @Test func theTouchCallsFollowTheOverride() throws {
        var tree = seedExperimentTree()
        try tree.updateView("blue") { $0.nextResponder = "ViewController" }
        var app = Application(tree: tree)
        let reports = app.send(frame(1.0, contact(1, .began, 70, 150))) + app.send(frame(1.05, contact(1, .ended, 70, 150)))
        #expect(
            calls(reports, among: ["blue", "orange", "ViewController", "app_delegate"]) == [
                "blue - touchesBegan", "ViewController - touchesBegan", "app_delegate - touchesBegan",
                "blue - touchesEnded", "ViewController - touchesEnded", "app_delegate - touchesEnded",
            ])
    }

    /// A touch on a rotated view is located in the view's own coordinates.
    @Test func aTouchOnATransformedViewIsInTheViewsCoordinates() throws {
        var tree = seedExperimentTree()
        // Blue (20, 20, 150, 150) in orange, turned a quarter about its center and scaled twice.
        try tree.updateView("blue") { $0.transform = ViewTransform(rotation: 90, scaleX: 2, scaleY: 2) }
        var app = Application(tree: tree)
        // Orange's (95, 55) is 40 above blue's center (95, 95): turned back a quarter and halved, it is
        // 20 left of the center of blue's bounds (75, 75).
        let reports = app.send(frame(1.0, contact(1, .began, 20 + 95, 100 + 55)))
        let hit = try #require(reports.first?.hits.first)
        #expect(hit.view == "blue")
        #expect(hit.pointInView == Point(x: 55, y: 75))
        let touch = try #require(reports.first?.event.allTouches.first)
        #expect(touch.location(in: "blue", of: app.tree) == Point(x: 55, y: 75))
    }

    @Test func aControllersOverrideAndAnOverrideToAResponderThatLeft() throws {
        var tree = seedExperimentTree()
        try tree.addView("side", parent: "window", view(rect(0, 0, 10, 10)))
        try tree.addView("panel.root", parent: "side", view(rect(0, 0, 10, 10)))
        try tree.addController("panel", ControllerProperties(view: "panel.root", nextResponder: "orange"))
        #expect(
            tree.responderChain(from: "panel.root")
                == ["panel.root", "panel", "orange", "root", "ViewController", "window", "application", "app_delegate"])
        // Once orange is gone, the controller's own next responder (its root view's superview) is back.
        try tree.removeView("orange")
        #expect(tree.responderChain(from: "panel.root") == ["panel.root", "panel", "side", "window", "application", "app_delegate"])
    }

    @Test func aCycleOfOverridesEndsTheChainInsteadOfLooping() throws {
        var tree = seedExperimentTree()
        try tree.updateView("orange") { $0.nextResponder = "red" }
        #expect(tree.responderChain(from: "red") == ["red", "blue", "orange"])
    }

    /// Seed 003, "hitTest Hacking the responder chain": the scroll view covers the button; topView's
    /// `hitTest` returns `underButton` when `[underButton pointInside:buttonPoint]`, else
    /// `[super hitTest:point withEvent:event]`.
    func topView() -> ViewTree {
        makeTree { tree in
            try tree.addView("topView", parent: "window", view(rect(0, 0, 320, 480)) { $0.hitTestPolicy = .redirectInsideTarget("underButton") })
            try tree.addView("underButton", parent: "topView", view(rect(100, 200, 120, 44)))
            try tree.addView("scrollView", parent: "topView", view(rect(0, 0, 320, 480)))
        }
    }

    @Test func theCoveredButtonTakesThePointsInsideIt() throws {
        let tree = topView()
        let onButton = try #require(tree.hitTest(Point(x: 150, y: 220), inWindow: "window", traced: true))
        #expect(onButton.view == "underButton")
        #expect(onButton.pointInView == Point(x: 50, y: 20))
        // `super.hitTest` first (the scroll view answers), then the button test.
        #expect(
            onButton.trace.map(\.description) == [
                "window - hitTest enter (150, 220)", "topView - hitTest enter (150, 220)", "scrollView - hitTest enter (150, 220)",
                "scrollView - hitTest result: scrollView (no subview took it: itself)", "topView - hitTest result: underButton (redirect)",
                "window - hitTest result: underButton (a subview took it)",
            ])
        // Elsewhere, the default answer: the scroll view.
        #expect(tree.hitTest(Point(x: 10, y: 10), inWindow: "window")?.view == "scrollView")
        // The button's bottom edge is outside it (CGRectContainsPoint).
        #expect(tree.hitTest(Point(x: 150, y: 244), inWindow: "window")?.view == "scrollView")
    }

    @Test func aHiddenButtonIsNotReturnedAndTheButtonsExpansionCounts() throws {
        var tree = topView()
        try tree.updateView("underButton") { $0.hitExpansion = EdgeInsets(all: 10) }
        #expect(tree.hitTest(Point(x: 150, y: 250), inWindow: "window")?.view == "underButton", "inside the expanded area")
        try tree.updateView("underButton") { $0.isHidden = true }
        #expect(tree.hitTest(Point(x: 150, y: 220), inWindow: "window")?.view == "scrollView")
        // Many siblings (the subview index) give the same answers.
        var wide = topView()
        for n in 0..<40 { try wide.addView(ResponderID("tile\(n)"), parent: "window", view(rect(Double(n) * 400, 0, 10, 10))) }
        #expect(wide.hitTest(Point(x: 150, y: 220), inWindow: "window")?.view == "underButton")
    }
}
