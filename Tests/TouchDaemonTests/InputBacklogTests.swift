import Foundation
import Testing
import TouchCore
import TouchDaemon

/// Input that arrives together (one read of a device that fell behind) goes through the application
/// event queue's backlog policy before it is dispatched. The kiosk tree's window is made in code
/// with no refresh rate: every input frame is dispatched as it comes, so only the backlog merges.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InputBacklogTests {
    func frame(_ t: Double, _ phase: TouchPhase, x: Double) -> QueuedEvent {
        .touches(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: x, y: 150))]))
    }

    @Test func framesQueuedInOneWakeupMergeTheirMovesAndKeepEverySample() throws {
        let h = try DaemonHarness(app: kioskApp())
        let client = try h.connect(topics: ["touches", "actions"])
        // A touch-down, 20 moves and a lift, all read in one wakeup.
        h.daemon.enqueue(frame(1.000, .began, x: 110))
        for i in 1...20 { h.daemon.enqueue(frame(1.000 + Double(i) / 1000, .moved, x: 110 + Double(i))) }
        h.daemon.enqueue(frame(1.021, .ended, x: 130))
        #expect(h.daemon.app.queue.count > 0, "nothing is dispatched before the wakeup ends")
        h.loop.runDeferred()
        try h.drain(client)
        let touches = client.of(type: "touch")
        let phases = touches.map { $0["phase"] as? String ?? "" }
        // Once 8 events wait, each further move merges into the waiting move before it.
        #expect(phases == ["began"] + Array(repeating: "moved", count: 7) + ["ended"], "\(phases)")
        let merged = try #require(touches.dropLast().last)
        #expect((merged["location"] as? [String: Any])?["x"] as? Double == 130)
        let samples = try #require(merged["coalesced"] as? [[Double]])
        // The merged move carries every earlier sample since the last one that was not merged, as
        // [time, x, y, force, major_radius].
        let xs: [Double] = (7...19).map { 110 + Double($0) }
        let times: [Double] = (7...19).map { 1 + Double($0) / 1000 }
        #expect(samples.map { $0[1] } == xs)
        #expect(samples.map { $0[0] } == times)
        #expect(client.of(type: "action").map { $0["name"] as? String } == ["ok"])
    }

    @Test func aRequestSeesTheInputThatArrivedBeforeIt() throws {
        let h = try DaemonHarness(app: kioskApp())
        let client = try h.connect(topics: ["touches", "actions"])
        h.daemon.enqueue(frame(1.000, .began, x: 110))
        h.daemon.enqueue(frame(1.010, .ended, x: 110))
        // The request arrives in the same wakeup: the queued tap is dispatched first, on the tree
        // as it was, and only then is home.ok hidden.
        client.send(#"{"id":5,"cmd":"set","view":"home.ok","properties":{"hidden":true}}"#)
        try h.drain(client)
        #expect(client.of(type: "action").map { $0["name"] as? String } == ["ok"])
        #expect(client.reply(id: 5)?["ok"] as? Bool == true)
        let actionSeq = client.of(type: "action").first?["seq"] as? Int ?? .max
        let replySeq = client.reply(id: 5)?["seq"] as? Int ?? 0
        #expect(actionSeq < replySeq)
    }
}
