import Testing
import TouchCore

/// A touch-down frame's hit records are handed on as soon as its hit-tests are done: after every
/// report before it, before any of its views, recognizers and controls is called (the daemon writes
/// the frame's `hit` messages then). The reports themselves are unchanged.
@Suite(.timeLimit(.minutes(10))) struct HitsFirstTests {
    func app() -> Application {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000), refreshRate: 60))
        var pad = ViewProperties(frame: Rect(x: 100, y: 50, width: 800, height: 800))
        pad.isMultipleTouchEnabled = true
        try! tree.addView("pad", parent: "window", pad)
        return Application(tree: tree, handlers: HandlerTable([Handler(responder: "pad", trigger: .touchesBegan, action: "down")]))
    }

    @Test func hitsComeAfterTheReportsBeforeThemAndBeforeTheirOwnReport() throws {
        var app = app()
        _ = app.send(frame(10, contact(1, .began, 200, 100)))
        // A move waiting for its tick, then a second finger lands: both are due now.
        _ = app.enqueue(frame(10.001, contact(1, .moved, 201, 100)))
        _ = app.enqueue(frame(10.002, contact(1, .moved, 202, 100), contact(2, .began, 300, 100)))
        var steps: [String] = []
        var handed: [HitRecord] = []
        var reports: [DispatchReport] = []
        app.dispatchDue(
            by: 10.002,
            hitsReady: { hits in
                steps.append("hits \(hits.map(\.touch))")
                handed += hits
            },
            dispatched: { report in
                steps.append("report \(report.changedTouches.map(\.id)) actions \(report.actions.map(\.name))")
                reports.append(report)
            })
        #expect(steps == ["report [1] actions []", "hits [2]", "report [1, 2] actions [\"down\"]"])
        #expect(handed == reports[1].hits, "the report still carries its hits")
        #expect(handed.first?.view == "pad" && handed.first?.pointInView == Point(x: 200, y: 50))
    }

    @Test func theArrayFormsDispatchTheSame() throws {
        var streamed = app()
        var collected = app()
        let frames = [
            frame(10, contact(1, .began, 200, 100)), frame(10.001, contact(1, .moved, 210, 100)),
            frame(10.03, contact(1, .moved, 220, 100), contact(2, .began, 300, 300)), frame(10.04, contact(1, .ended, 220, 100)),
        ]
        var byStream: [DispatchReport] = []
        for f in frames {
            _ = streamed.enqueue(f)
            _ = collected.enqueue(f)
        }
        streamed.flush(at: 11, hitsReady: { _ in }, dispatched: { byStream.append($0) })
        let byArray = collected.flush(at: 11)
        #expect(byStream.map(\.changedTouches) == byArray.map(\.changedTouches))
        #expect(byStream.map(\.hits) == byArray.map(\.hits))
        #expect(byStream.map { $0.actions.map(\.name) } == byArray.map { $0.actions.map(\.name) })
    }
}
