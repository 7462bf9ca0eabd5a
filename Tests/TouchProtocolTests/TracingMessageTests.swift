import Foundation
import Testing
import TouchCore
import TouchProtocol

/// The `calls` and `hit_tests` topics: what the seeds log, as messages, and `touchd replay --calls`'s
/// lines. They come only from reports recorded with calls or traced hit-tests.
@Suite(.timeLimit(.minutes(10))) struct TracingMessageTests {
    /// A window with `outer` and `inner` inside it; `inner` keeps touchesBegan, `outer` passes it on.
    func app(recording: Bool, tracing: Bool) -> Application {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 200, height: 200)))
        try! tree.addView("outer", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 200, height: 200)))
        try! tree.addView("side", parent: "outer", ViewProperties(frame: Rect(x: 150, y: 150, width: 50, height: 50)))
        try! tree.addView("inner", parent: "outer", ViewProperties(frame: Rect(x: 10, y: 10, width: 50, height: 50)))
        var app = Application(
            tree: tree,
            handlers: HandlerTable([
                Handler(responder: "inner", trigger: .touchesEnded, action: "inner.ended", passesOn: false),
                Handler(responder: "outer", trigger: .touchesBegan, action: "outer.began"),
            ]))
        app.recordsResponderCalls = recording
        app.tracesHitTests = tracing
        return app
    }

    func tap(_ app: inout Application) -> [DispatchReport] {
        app.send(InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 20, y: 20))]))
            + app.send(InputFrame(device: "d", window: "w", timestamp: 1.1, contacts: [InputContact(id: 1, phase: .ended, location: Point(x: 20, y: 20))]))
    }

    @Test func callsArriveWithTheEventAndWhetherEachWasPassedOn() throws {
        var a = app(recording: true, tracing: false)
        let messages = tap(&a).flatMap(MessageEncoder.messages(for:)).filter { $0.topic == .calls }
        let lines = messages.map { $0.line(seq: 1) }
        #expect(lines.first == #"{"seq":1,"type":"event","time":1,"event":"touches","all_touches":[{"touch":1,"phase":"began","view":"inner","window":"w"}]}"# + "\n")
        #expect(lines.contains(#"{"seq":1,"type":"call","time":1,"responder":"inner","method":"touchesBegan","touches":[1],"passed_on":true}"# + "\n"))
        #expect(lines.contains(#"{"seq":1,"type":"call","time":1.1,"responder":"inner","method":"touchesEnded","touches":[1],"passed_on":false}"# + "\n"))
        #expect(!lines.contains { $0.contains(#""responder":"outer","method":"touchesEnded""#) }, "inner kept touchesEnded")
        // A call message is about its responder: a subscription filtered to a view gets its calls.
        let onlyOuter = Subscription(id: 1, topics: [.calls], views: ["outer"])
        #expect(messages.filter(onlyOuter.matches).map { $0.body.contains(#""responder":"outer""#) || $0.body.contains(#""type":"event""#) }.allSatisfy { $0 })
    }

    @Test func withoutRecordingThereAreNoCallsAndNoTrace() {
        var a = app(recording: false, tracing: false)
        let topics = Set(tap(&a).flatMap(MessageEncoder.messages(for:)).compactMap(\.topic))
        #expect(!topics.contains(.calls) && !topics.contains(.hitTests))
    }

    @Test func aTouchDownsHitTestIsTracedInTheSeedsOrder() throws {
        var a = app(recording: false, tracing: true)
        let messages = tap(&a).flatMap(MessageEncoder.messages(for:)).filter { $0.topic == .hitTests }
        #expect(messages.count == 1, "one per touch-down")
        let body = try #require(messages.first?.body)
        // Subviews are asked from the topmost down: inner (added last) before side.
        let order = ["\"view\":\"w\",\"step\":\"enter\"", "\"view\":\"outer\",\"step\":\"enter\"", "\"view\":\"inner\",\"step\":\"enter\"",
                     "\"view\":\"inner\",\"step\":\"result\",\"result\":\"inner\"", "\"view\":\"outer\",\"step\":\"result\",\"result\":\"inner\""]
        var position = body.startIndex
        for step in order {
            let found = try #require(body.range(of: step, range: position..<body.endIndex), "\(step) in order in \(body)")
            position = found.upperBound
        }
        #expect(!body.contains("\"view\":\"side\""), "side is never asked: inner took the point first")
    }

    @Test func theCallLogReadsAsTheSeedsLog() {
        var a = app(recording: true, tracing: false)
        let lines = tap(&a).flatMap(CallLog.lines(for:))
        #expect(lines == [
            "1.000 event touches: touch 1 began on inner",
            "1.000 inner touchesBegan [1] passes it on",
            "1.000 outer touchesBegan [1] passes it on",
            "1.000 action outer.began from outer",
            "1.000 w touchesBegan [1] passes it on",
            "1.000 application touchesBegan [1] passes it on",
            "1.000 app_delegate touchesBegan [1] passes it on",
            "1.100 event touches: touch 1 ended on inner",
            "1.100 inner touchesEnded [1] keeps it",
            "1.100 action inner.ended from inner",
        ])
    }
}
