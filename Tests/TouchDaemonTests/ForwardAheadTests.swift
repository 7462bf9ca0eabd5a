import Testing
import TouchCore
import TouchDaemon

/// The daemon plays a forwarded finger's moves on its virtual touchscreen as each frame is read,
/// before the wakeup's dispatch, and the dispatch does not play them again; the clients still get
/// the touches from the dispatch.
@Suite struct ForwardAheadTests {
    /// What the sinks are told, in order.
    final class Recorder: ReportSink {
        var log: [String] = []
        func applicationChanged(_ app: Application) {}
        func stop() {}
        func deliver(_ report: DispatchReport) {
            guard !report.forwarded.isEmpty else { return }
            log.append("dispatched " + report.forwarded.map { "\($0.touch) \($0.phase.rawValue)" }.joined(separator: ", "))
        }
        func deliverAhead(_ forwarded: [ForwardedTouch]) {
            log.append("ahead " + forwarded.map { "\($0.touch) \($0.phase.rawValue) \(Int($0.location.x))" }.joined(separator: ", "))
        }
    }

    /// One 1000 × 1000 window "main" filled by "app", which forwards what touchd does not take.
    func app() -> Application {
        var tree = ViewTree()
        try? tree.addWindow("main", WindowProperties(size: Size(width: 1000, height: 1000)))
        try? tree.addView("app", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 1000, height: 1000)))
        var app = Application(tree: tree)
        app.forwardModes = ["app": .unclaimed]
        return app
    }

    func frame(_ t: Double, _ phase: TouchPhase, x: Double) -> QueuedEvent {
        .touches(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: x, y: 500))]))
    }

    @Test func aForwardedFingersMovesArePlayedAsTheyAreReadBeforeTheWakeupsDispatch() throws {
        let recorder = Recorder()
        let h = try DaemonHarness(app: app(), sinks: [recorder])
        let c = try h.connect(topics: ["touches"])
        h.daemon.enqueue(frame(1, .began, x: 100))
        #expect(recorder.log.isEmpty, "a touch-down waits for its dispatch")
        try h.settle()
        #expect(recorder.log == ["dispatched 1 began"])
        // One read: two moves and the lift, each played as it is read.
        h.daemon.enqueue(frame(1.01, .moved, x: 110))
        h.daemon.enqueue(frame(1.02, .moved, x: 120))
        h.daemon.enqueue(frame(1.03, .ended, x: 120))
        #expect(recorder.log == ["dispatched 1 began", "ahead 1 moved 110", "ahead 1 moved 120", "ahead 1 ended 120"])
        try h.settle()
        #expect(recorder.log.count == 4, "the dispatch plays nothing again: \(recorder.log)")
        try h.drain(c)
        let phases = c.of(type: "touch").compactMap { $0["phase"] as? String }
        #expect(phases == ["began", "moved", "moved", "ended"], "the clients get every touch from the dispatch")
    }
}
