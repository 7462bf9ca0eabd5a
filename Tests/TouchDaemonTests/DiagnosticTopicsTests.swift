import Foundation
import Testing
import TouchCore
import TouchDaemon

/// The `calls` and `hit_tests` topics cost nothing unless someone subscribes: the daemon records
/// responder calls and traces hit-tests only while a client has them, and only that client gets them.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DiagnosticTopicsTests {
    func touchDown(_ h: DaemonHarness, id: UInt64, at t: Double) {
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: id, phase: .began, location: Point(x: 200, y: 250))]))
    }

    @Test func recordingIsOnOnlyWhileAClientSubscribes() throws {
        let h = try DaemonHarness(app: kioskApp())
        let plain = try h.connect(topics: ["hits"])
        let everything = try h.connectBare()
        everything.send(#"{"id":1,"cmd":"subscribe"}"#)
        try h.drain(plain, everything)
        #expect(h.daemon.app.recordsResponderCalls == false && h.daemon.app.tracesHitTests == false, "a subscription without topics does not ask for them")
        let tracer = try h.connect(topics: ["calls", "hit_tests"])
        try h.drain(tracer)
        #expect(h.daemon.app.recordsResponderCalls && h.daemon.app.tracesHitTests)
        touchDown(h, id: 1, at: 1)
        try h.drain(plain, everything, tracer)
        #expect(!tracer.of(type: "call").isEmpty && tracer.of(type: "event").count == 1 && tracer.of(type: "hit_test").count == 1)
        #expect(plain.of(type: "call").isEmpty && everything.of(type: "call").isEmpty && everything.of(type: "hit_test").isEmpty)
        #expect(everything.of(type: "hit").count == 1)
        // The tracer leaves: recording stops.
        tracer.hangUp()
        try h.drain(plain)
        #expect(h.daemon.app.recordsResponderCalls == false && h.daemon.app.tracesHitTests == false)
        // Unsubscribing does the same.
        let again = try h.connect(topics: ["calls"])
        try h.drain(again)
        #expect(h.daemon.app.recordsResponderCalls)
        again.send(#"{"id":9,"cmd":"unsubscribe","subscription":1}"#)
        try h.drain(again)
        #expect(again.code(id: 9) == "ok")
        #expect(h.daemon.app.recordsResponderCalls == false)
    }
}
