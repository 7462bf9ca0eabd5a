import Foundation
import Testing
import TouchCore
import TouchRender

/// A transformed view is drawn through its matrix into the window, with its bounds and hit area.
@Suite(.timeLimit(.minutes(10))) struct TransformPictureTests {
    @Test func aRotatedViewIsDrawnThroughItsMatrix() throws {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 400, height: 400)))
        try tree.addView("bar", parent: "main", ViewProperties(frame: Rect(x: 50, y: 100, width: 200, height: 20), transform: ViewTransform(rotation: 90)))
        try tree.addView("plain", parent: "main", ViewProperties(frame: Rect(x: 300, y: 300, width: 50, height: 50)))
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main").svg())
        let frames = svg.all("rect", class: "frame")
        let bar = try #require(frames.first { $0.parent?.attributes["data-view"] == "bar" })
        // Bounds (0, 0, 200, 20) turned about (150, 110): x' = -y + 160, y' = x + 10.
        #expect(bar.attributes["transform"] == "matrix(0 1 -1 0 160 10)")
        #expect(bar.rect == Rect(x: 0, y: 0, width: 200, height: 20))
        // Its upright box in window points is what the group's data says.
        #expect(rect(fromList: bar.parent?.attributes["data-frame"]) == Rect(x: 140, y: 10, width: 20, height: 200))
        let plain = try #require(frames.first { $0.parent?.attributes["data-view"] == "plain" })
        #expect(plain.attributes["transform"] == nil)
        #expect(plain.rect == Rect(x: 300, y: 300, width: 50, height: 50))
        let figures = try #require(ViewFigure.figures(of: tree, window: "main"))
        let figure = try #require(figures.first { $0.id == "bar" })
        // The box around the drawn view holds every point hit-testing gives to the view.
        for point in [Point(x: 141, y: 11), Point(x: 159, y: 209), Point(x: 150, y: 110)] {
            #expect(tree.hitTest(point, inWindow: "main")?.view == "bar")
            #expect(figure.frame.contains(point))
        }
    }
}
