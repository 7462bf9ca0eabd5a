import Foundation
import Testing
import TouchCore
import TouchRender

/// A hit-test drawn as a picture: the views it visited, in order, each with its answer.
@Suite(.timeLimit(.minutes(10))) struct HitTestPictureTests {
    static func steps(_ tree: ViewTree, _ point: Point) throws -> (HitTestResult, [SVGElement]) {
        let result = try #require(tree.hitTest(point, inWindow: "main", traced: true))
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main").svg(hitTest: result))
        let group = try #require(svg.descendants.first { $0["id"] == "hit-test" })
        #expect(group["data-hit"] == (result.view?.rawValue ?? ""))
        #expect(svg.descendants.contains { $0["id"] == "hit-point" })
        return (result, group.all("g", class: "hit-step"))
    }

    /// The answers the trace gives, by view.
    static func outcomes(_ result: HitTestResult) -> [(String, HitTestOutcome)] {
        result.trace.compactMap { step in
            if case .result(_, let outcome) = step.kind { (step.view.rawValue, outcome) } else { nil }
        }
    }

    @Test func aTouchOnTheTitleLandsOnTheHeaderPastTheRejectedViews() throws {
        let (_, app) = try WindowPictureTests.kiosk()
        let (result, steps) = try Self.steps(app.tree, Point(x: 300, y: 50))
        #expect(result.view == "header")
        let byView = Dictionary(uniqueKeysWithValues: steps.map { ($0["data-view"]!, $0) })
        let expected: [(String, String, String)] = [
            ("main", "hit-subview", "path"), ("dialog.root", "hidden", "rejected"), ("home.root", "hit-subview", "path"),
            ("grid", "outside", "rejected"), ("header", "hit-self", "hit"), ("header.info", "outside", "rejected"),
            ("header.title", "not-interactive", "rejected"),
        ]
        #expect(steps.map { $0["data-view"]! } == expected.map(\.0), "in the order hit-testing entered them")
        #expect(steps.map { $0["data-order"]! } == (1...expected.count).map(String.init))
        for (view, outcome, role) in expected {
            #expect(byView[view]?["data-outcome"] == outcome, "\(view)")
            #expect(byView[view]?["data-role"] == role, "\(view)")
        }
        // Each reason is the trace's own wording.
        for (view, outcome) in Self.outcomes(result) {
            #expect(byView[view]?["data-reason"] == outcome.description)
        }
        #expect(byView["header.title"]?["data-reason"] == "user interaction disabled")
        // Views the trace never entered are not marked.
        #expect(byView["tile.doors"] == nil && byView["dialog.ok"] == nil)
        // The highlight is drawn on the view's frame.
        let frame = try #require(byView["header.info"]?.children.first { $0.name == "rect" })
        #expect(approximatelyEqual(frame.rect, Rect(x: 1220, y: 38, width: 20, height: 20)))
        #expect(frame["stroke-dasharray"] != nil, "rejected views are dashed")
    }

    @Test func withTheDialogShownTheBackdropCapturesTheTouch() throws {
        let (_, app) = try WindowPictureTests.kiosk()
        var tree = app.tree
        try tree.updateView("dialog.root") { $0.isHidden = false }
        let (result, steps) = try Self.steps(tree, Point(x: 100, y: 700))
        #expect(result.view == "dialog.backdrop")
        let outcome = Dictionary(uniqueKeysWithValues: steps.map { ($0["data-view"]!, $0["data-outcome"]!) })
        #expect(outcome["dialog.panel"] == "outside")
        #expect(outcome["dialog.backdrop"] == "captured")
        #expect(outcome["dialog.root"] == "hit-subview")
        #expect(outcome["home.root"] == nil, "never asked: the dialog above took the point")
        #expect(steps.first { $0["data-view"] == "dialog.backdrop" }?["data-role"] == "hit")
    }

    @Test func aPassThroughViewHandsThePointBackToTheWindow() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addView("pass", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try tree.updateView("pass") { $0.hitTestPolicy = .passThrough }
        let (result, steps) = try Self.steps(tree, Point(x: 50, y: 50))
        #expect(result.view == "main")
        let pass = steps.first { $0["data-view"] == "pass" }
        #expect(pass?["data-outcome"] == "passed-through")
        #expect(pass?["data-role"] == "rejected")
        #expect(pass?["data-reason"] == "pass-through: never itself")
        #expect(steps.first { $0["data-view"] == "main" }?["data-role"] == "hit")
    }

    @Test func aViewWhoseHitTestReturnsNothingIsRejectedWithoutAskingItsSubviews() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addView("none", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try tree.addView("inner", parent: "none", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try tree.updateView("none") { $0.hitTestPolicy = .refuse }
        let (result, steps) = try Self.steps(tree, Point(x: 50, y: 50))
        #expect(result.view == "main")
        let refused = steps.first { $0["data-view"] == "none" }
        #expect(refused?["data-outcome"] == "refused")
        #expect(refused?["data-role"] == "rejected")
        #expect(steps.first { $0["data-view"] == "inner" } == nil, "never asked")
        let figures = try #require(ViewFigure.figures(of: tree, window: "main"))
        #expect(figures.first { $0.id == "none" }?.conditions.contains(.refuse) == true)
        #expect(figures.first { $0.id == "inner" }?.conditions.contains(.insideRefuse) == true)
    }
}
