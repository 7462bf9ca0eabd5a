import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
import TouchSystem

/// The daemon's display timer on a manual clock: moves wait for their window's tick, the timer is
/// set only while they wait, and each subscription gets the form of `touch` message it chose.
@Suite(.timeLimit(.minutes(10))) struct DisplayTimerTests {
    func app() -> Application {
        var tree = ViewTree()
        try! tree.addWindow("main", WindowProperties(size: Size(width: 800, height: 480), refreshRate: 60))
        try! tree.addView("home", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 800, height: 480)))
        return Application(tree: tree, handlers: HandlerTable([Handler(responder: "home", trigger: .touchesEnded, action: "up")]))
    }

    func frame(_ t: Double, _ phase: TouchPhase, x: Double) -> QueuedEvent {
        .touches(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: x, y: 100))]))
    }

    /// One input frame a wakeup, the clock following the input's (1 ms apart, read at once).
    func read(_ h: DaemonHarness, _ clock: ManualClock, _ event: QueuedEvent) {
        clock.now = LoopInstant(microseconds: Int64((event.timestamp.seconds * 1_000_000).rounded()))
        h.loop.runDueTimers()
        h.daemon.enqueue(event)
        h.loop.runDeferred()
    }

    @Test func theInputRateFormsGetEachMoveAsItIsReadAndNothingTwice() throws {
        let clock = ManualClock(seconds: 50)
        let h = try DaemonHarness(app: app(), clock: clock)
        let coalesced = try h.connect(topics: ["touches"])
        let input = try h.connect(topics: ["touches"], extra: #","touch_samples":"input""#)
        let frames = try h.connect(topics: ["touches"], extra: #","touch_samples":"frames""#)
        read(h, clock, frame(50, .began, x: 100))
        for i in 1...5 {
            read(h, clock, frame(50 + Double(i) / 1000, .moved, x: 100 + Double(i)))
            try h.drain(coalesced, input, frames)
            #expect(input.of(type: "touch").count == 1 + i, "move \(i) went out as it was read")
            #expect((input.of(type: "touch").last?["location"] as? [String: Any])?["x"] as? Double == 100 + Double(i))
            #expect(frames.of(type: "touch_frame").count == 1 + i)
            #expect((frames.of(type: "touch_frame").last?["touches"] as? [[Any]])?.first?[2] as? Double == 100 + Double(i))
        }
        #expect(coalesced.of(type: "touch").count == 1, "the display-rate form waits for the tick")
        #expect(h.daemon.displayTimerDeadline != nil, "the application still waits for the tick")
        clock.now = try #require(h.daemon.displayTimerDeadline)
        h.loop.runDueTimers()
        read(h, clock, frame(50.030, .moved, x: 120))
        read(h, clock, frame(50.031, .ended, x: 121))
        try h.drain(coalesced, input, frames)
        #expect(coalesced.of(type: "touch").map { $0["phase"] as? String } == ["began", "moved", "moved", "ended"])
        #expect(input.of(type: "touch").map { ($0["location"] as? [String: Any])?["x"] as? Double } == [100, 101, 102, 103, 104, 105, 120, 121])
        #expect(input.of(type: "touch").map { $0["phase"] as? String } == ["began"] + Array(repeating: "moved", count: 6) + ["ended"])
        #expect(frames.of(type: "touch_frame").count == 8 && frames.of(type: "touch").isEmpty)
        #expect(input.of(type: "touch_frame").isEmpty)
    }

    /// A frame read once the tick is due but before its timer ran (one wakeup for both): the
    /// input's rate sends its sample as it came, ahead of the tick's dispatch of the moves before
    /// it (the frame waits for the next tick), and nothing goes out twice.
    @Test func aFrameReadWithItsTickGoesOutAtTheInputsRateFirst() throws {
        let clock = ManualClock(seconds: 50)
        let h = try DaemonHarness(app: app(), clock: clock)
        let coalesced = try h.connect(topics: ["touches"])
        let input = try h.connect(topics: ["touches"], extra: #","touch_samples":"input""#)
        // One client with both forms: the order of the two in its stream.
        let both = try h.connect(topics: ["touches"], extra: #","touch_samples":"input""#)
        both.send(#"{"id":1,"cmd":"subscribe","topics":["touches"]}"#)
        try h.settle()
        read(h, clock, frame(50, .began, x: 100))
        for i in 1...5 { read(h, clock, frame(50 + Double(i) / 1000, .moved, x: 100 + Double(i))) }
        let deadline = try #require(h.daemon.displayTimerDeadline)
        clock.now = LoopInstant(microseconds: deadline.microseconds + 500)
        h.daemon.enqueue(frame(Double(deadline.microseconds + 500) / 1_000_000, .moved, x: 120))
        h.loop.runDeferred()
        try h.drain(coalesced, input, both)
        #expect(input.of(type: "touch").map { ($0["location"] as? [String: Any])?["x"] as? Double } == [100, 101, 102, 103, 104, 105, 120])
        let tick = coalesced.of(type: "touch").filter { $0["phase"] as? String == "moved" }
        #expect(tick.count == 1 && (tick.first?["location"] as? [String: Any])?["x"] as? Double == 105, "the tick's move, in the same wakeup")
        let stream = both.of(type: "touch")
        let arrival = stream.firstIndex { ($0["location"] as? [String: Any])?["x"] as? Double == 120 }
        let dispatched = stream.firstIndex { $0["coalesced"] != nil }
        #expect(arrival != nil && dispatched != nil && arrival! < dispatched!, "the frame's sample before the tick's dispatch")
        h.loop.runDueTimers()
        read(h, clock, frame(Double(deadline.microseconds + 1_500) / 1_000_000, .ended, x: 121))
        try h.drain(coalesced, input, both)
        #expect(input.of(type: "touch").map { ($0["location"] as? [String: Any])?["x"] as? Double } == [100, 101, 102, 103, 104, 105, 120, 121])
        #expect(coalesced.of(type: "touch").map { $0["phase"] as? String } == ["began", "moved", "moved", "ended"])
    }

    @Test func movesGoOutAtTheDisplayTickWithTheirSamples() throws {
        let clock = ManualClock(seconds: 50)
        let h = try DaemonHarness(app: app(), clock: clock)
        let coalesced = try h.connect(topics: ["touches", "actions"])
        let input = try h.connect(topics: ["touches"], extra: #","touch_samples":"input""#)
        let latest = try h.connect(topics: ["touches"], extra: #","touch_samples":"latest""#)
        read(h, clock, frame(50, .began, x: 100))
        #expect(h.daemon.displayTimerDeadline == nil, "nothing waits")
        for i in 1...10 { read(h, clock, frame(50 + Double(i) / 1000, .moved, x: 100 + Double(i))) }
        try h.drain(coalesced, input, latest)
        #expect(coalesced.of(type: "touch").map { $0["phase"] as? String } == ["began"], "the moves wait for the tick")
        // 50.010 is before the tick at 3001/60 = 50.01666...
        let deadline = try #require(h.daemon.displayTimerDeadline)
        #expect(deadline.microseconds == Int64((3001.0 / 60 * 1_000_000).rounded(.up)) || deadline.microseconds == Int64((3001.0 / 60 * 1_000_000).rounded(.down)))
        clock.now = deadline
        h.loop.runDueTimers()
        try h.drain(coalesced, input, latest)
        let moves = coalesced.of(type: "touch").filter { $0["phase"] as? String == "moved" }
        #expect(moves.count == 1)
        #expect((moves.first?["coalesced"] as? [[Double]])?.map { $0[1] } == (1...9).map { 100 + Double($0) })
        #expect(latest.of(type: "touch").count == 2 && latest.of(type: "touch").allSatisfy { $0["coalesced"] == nil })
        #expect(input.of(type: "touch").map { ($0["location"] as? [String: Any])?["x"] as? Double } == (0...10).map { 100 + Double($0) })
        #expect(h.daemon.displayTimerDeadline == nil, "no timer once nothing waits: an idle daemon never wakes")
        read(h, clock, frame(50.030, .moved, x: 120))
        read(h, clock, frame(50.031, .ended, x: 121))
        try h.drain(coalesced, input, latest)
        #expect(coalesced.of(type: "touch").map { $0["phase"] as? String } == ["began", "moved", "moved", "ended"], "the lift takes the move before it along")
        #expect(coalesced.of(type: "action").map { $0["name"] as? String } == ["up"])
        #expect(h.daemon.displayTimerDeadline == nil)
    }

    @Test func aRequestSeesTheMovesWaitingForTheTick() throws {
        let clock = ManualClock(seconds: 50)
        let h = try DaemonHarness(app: app(), clock: clock)
        let client = try h.connect(topics: ["touches"])
        read(h, clock, frame(50, .began, x: 100))
        read(h, clock, frame(50.001, .moved, x: 101))
        client.send(#"{"id":7,"cmd":"ping"}"#)
        try h.drain(client)
        let replySeq = client.reply(id: 7)?["seq"] as? Int ?? 0
        let moveSeq = client.of(type: "touch").last?["seq"] as? Int ?? .max
        #expect(client.of(type: "touch").map { $0["phase"] as? String } == ["began", "moved"])
        #expect(moveSeq < replySeq, "the reply follows every message about the input before it")
    }

    /// A source whose timeline passes at a quarter of the loop's speed (a replay slowed down).
    final class SlowSource: InputSource {
        func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {}
        func stop() {}
        func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {}
        var deviceDescriptions: [DeviceListing] { [] }
        var presentDevices: [(id: String, description: DeviceListing)] { [] }
        var now: InputTime { 0 }
        var timeScale: Double { 0.25 }
    }

    @Test func theTickOfASlowedReplayComesAtTheReplaysPace() throws {
        let clock = ManualClock(seconds: 1_000)
        let h = try DaemonHarness(app: app(), clock: clock, sources: [SlowSource()])
        h.daemon.enqueue(frame(50, .began, x: 100))
        h.loop.runDeferred()
        h.daemon.enqueue(frame(50.010, .moved, x: 101))
        h.loop.runDeferred()
        // 6.67 ms of the recording to the tick at 50.01666... take four times as long on the loop.
        let deadline = try #require(h.daemon.displayTimerDeadline)
        let expected = 1_000_000_000 + (3001.0 / 60 - 50.010) / 0.25 * 1_000_000
        #expect(abs(Double(deadline.microseconds) - expected) <= 1, "\(deadline) against \(expected)")
        #expect(abs(h.daemon.inputNow().seconds - 50.010) < 1e-9)
        clock.advance(by: 0.004)
        #expect(abs(h.daemon.inputNow().seconds - 50.011) < 1e-9, "input time passes at the source's pace")
    }
}
