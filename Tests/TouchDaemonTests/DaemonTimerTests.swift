import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchSystem

/// The daemon's timers on a manual clock: recognizer deadlines of any length, a recording played
/// at its own pace, and a daemon with nothing to do arming nothing.
@Suite(.timeLimit(.minutes(10))) struct DaemonTimerTests {
    func longPressApp(duration: Double) -> Application {
        Application(
            tree: kioskTree(),
            gestureRecognizers: [
                GestureRecognizerSpec(
                    id: "home.hold", view: "home", kind: .longPress(minimumDuration: TimeSpan(seconds: duration), allowableMovementMillimetres: 10, touches: 1),
                    action: "hold")
            ])
    }

    func press(_ daemon: Daemon, id: UInt64, phase: TouchPhase, t: Double) {
        daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: id, phase: phase, location: Point(x: 700, y: 400))]))
    }

    @Test func aLongPressBeginsWhenTheLoopsClockPassesItsDuration() throws {
        let clock = ManualClock(seconds: 1_000)
        let h = try DaemonHarness(app: longPressApp(duration: 0.5), clock: clock)
        let client = try h.connect(topics: ["gestures", "actions"])
        press(h.daemon, id: 1, phase: .began, t: 7)
        clock.advance(by: 0.4)
        h.loop.runDueTimers()
        try h.drain(client)
        #expect(client.of(type: "gesture").isEmpty, "not yet")
        clock.advance(by: 0.2)
        h.loop.runDueTimers()
        try h.drain(client)
        #expect(client.of(type: "gesture").map { $0["state"] as? String } == ["began"])
        #expect(client.of(type: "action").map { $0["name"] as? String } == ["hold"])
    }

    @Test(arguments: [1e300, Double.greatestFiniteMagnitude, .infinity, .nan, 3_600, 0])
    func aRecognizerDeadlineOfAnyLengthNeverStopsTheDaemon(duration: Double) throws {
        let clock = ManualClock(seconds: 1_000)
        let h = try DaemonHarness(app: longPressApp(duration: duration), clock: clock)
        let client = try h.connect(topics: ["gestures", "touches"])
        // The first touch arms the timer for the recognizer's deadline, whatever it is.
        press(h.daemon, id: 1, phase: .began, t: 7)
        clock.advance(by: 1)
        h.loop.runDueTimers()
        press(h.daemon, id: 1, phase: .ended, t: 8)
        try h.drain(client)
        let phases = client.of(type: "touch").compactMap { $0["phase"] as? String }
        #expect(phases.first == "began", "the daemon went on: \(phases)")
        #expect(phases.last == "ended" || phases.last == "cancelled", "\(phases)")
    }

    @Test func anIdleDaemonArmsNoTimer() throws {
        let h = try DaemonHarness(app: kioskApp())
        let client = try h.connect()
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        try h.drain(client)
        let wakeups = h.loop.wakeups
        // Nothing is scheduled: the loop sleeps through a wait with nothing ready.
        #expect(try h.loop.runOnce(timeoutMilliseconds: 100) == 0)
        #expect(h.loop.wakeups == wakeups)
    }

    /// Two taps 0.4 s apart in a recording: played on a manual clock at twice the speed, each
    /// event is dispatched once the clock has moved on by its time, halved.
    @Test func aRecordingPlaysAtItsOwnPaceOnTheLoopsClock() throws {
        let path = temporaryPath("taps") + ".evemu"
        try Self.twoTaps.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let layout = try LayoutLoader.parse("[[window]]\nid = \"main\"\nsize = [800, 480]\n", file: "test.toml")
        let replay = try RecordingReplay(path: path, descriptionPath: nil, layout: layout, tree: kioskTree(), window: "main")
        let clock = ManualClock(seconds: 200)
        let source = RecordingSource(replay: replay, speed: 2, clock: clock)
        let h = try DaemonHarness(app: kioskApp(), clock: clock, sources: [source])
        let client = try h.connect(topics: ["touches"])
        func step(_ seconds: Double) throws -> [String] {
            clock.advance(by: TimeSpan(seconds: seconds))
            h.loop.runDueTimers()
            try h.drain(client)
            return client.of(type: "touch").map { "\($0["touch"] as? Int ?? 0) \($0["phase"] as? String ?? "")" }
        }
        #expect(try step(0) == ["1 began"], "the first touch-down plays at once")
        #expect(try step(0.005) == ["1 began", "1 ended"], "the lift 10 ms later, at twice the speed")
        #expect(try step(0.19).count == 2, "the second tap is 0.4 s after the first: 0.2 s at twice the speed")
        #expect(try step(0.006) == ["1 began", "1 ended", "2 began"])
        #expect(try step(0.005) == ["1 began", "1 ended", "2 began", "2 ended"])
        #expect(h.observer.devicesAdded.count == 1 && h.observer.devicesRemoved.count == 1, "the replayed device went when the recording ended")
        #expect(abs(h.daemon.inputNow().seconds - 10.41) < 1e-6, "input time is the recording's")
    }

    /// A replay the daemon has fallen behind (here: the clock jumps a minute ahead) is played a
    /// bounded number of events a turn, so a signal or a client waiting in the same wakeup is not
    /// held behind the whole backlog; every tap still arrives, in order.
    @Test func aReplayFallenBehindIsPlayedABoundedPartATurn() throws {
        let header = Self.twoTaps.split(separator: "\n").prefix { !$0.hasPrefix("E:") }.joined(separator: "\n")
        var lines: [String] = []
        for tap in 0..<500 {
            let t = 10 + Double(tap) * 0.05
            lines += [
                String(format: "E: %.6f 0003 0039 %04d", t, tap + 1), String(format: "E: %.6f 0003 0035 0100", t),
                String(format: "E: %.6f 0003 0036 0100", t), String(format: "E: %.6f 0000 0000 0000", t),
                String(format: "E: %.6f 0003 0039 -001", t + 0.01), String(format: "E: %.6f 0000 0000 0000", t + 0.01),
            ]
        }
        let path = temporaryPath("backlog") + ".evemu"
        try (header + "\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let layout = try LayoutLoader.parse("[[window]]\nid = \"main\"\nsize = [800, 480]\n", file: "test.toml")
        let replay = try RecordingReplay(path: path, descriptionPath: nil, layout: layout, tree: kioskTree(), window: "main")
        let clock = ManualClock(seconds: 200)
        let source = RecordingSource(replay: replay, speed: 1, clock: clock)
        // The client's queue takes the whole backlog: the test reads it only between turns.
        let h = try DaemonHarness(app: kioskApp(), limits: ClientLimits(maximumQueuedBytes: 64 << 20), clock: clock, sources: [source])
        let client = try h.connect(topics: ["touches"])
        clock.advance(by: 60)
        // One turn: the timer's batch (each tap is two frames).
        let before = h.daemon.framesIn
        h.loop.runDueTimers()
        let firstTurn = h.daemon.framesIn - before
        #expect(firstTurn > 0 && firstTurn < 1_000, "one turn played \(firstTurn) of the 1,000 overdue frames")
        for _ in 0..<20 {
            clock.advance(by: 0.000_001)
            h.loop.runDueTimers()
            try h.drain(client)
        }
        let began = client.of(type: "touch").filter { $0["phase"] as? String == "began" }.compactMap { $0["touch"] as? Int }
        #expect(began == Array(1...500), "every tap, in order")
    }

    /// A client that subscribes to `devices` while the replayed device is present hears of it
    /// first; once the recording has ended, the device is gone from the `devices` reply and the
    /// status line.
    @Test func aDevicesSubscriberHearsOfThePresentDeviceAndAnEndedReplayListsNone() throws {
        let path = temporaryPath("taps") + ".evemu"
        try Self.twoTaps.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let layout = try LayoutLoader.parse("[[window]]\nid = \"main\"\nsize = [800, 480]\n", file: "test.toml")
        let replay = try RecordingReplay(path: path, descriptionPath: nil, layout: layout, tree: kioskTree(), window: "main")
        let clock = ManualClock(seconds: 200)
        let h = try DaemonHarness(app: kioskApp(), clock: clock, sources: [RecordingSource(replay: replay, clock: clock)])
        #expect(h.daemon.statusText.hasPrefix("1 device, "))
        let late = try h.connect(topics: ["devices"])
        let present = late.of(type: "device")
        #expect(present.count == 1)
        #expect(present.first?["event"] as? String == "added" && present.first?["already_present"] as? Bool == true, "\(present)")
        #expect(present.first?["device"] as? String == "replay:timer test")
        // What the protocol lists for a device, as a live one's says (a recording has no node).
        let description = present.first?["description"] as? [String: Any] ?? [:]
        #expect(description["name"] as? String == "timer test" && description["kind"] as? String == "touchscreen", "\(description)")
        #expect(description["matched"] as? String == "mapped onto window main" && description["source"] as? String == "recording", "\(description)")
        // The announcement comes before the reply to the subscription.
        #expect(late.messages.compactMap { $0["type"] as? String } == ["hello", "device", "reply"])
        // A second subscription with the topic tells nothing again.
        late.send(#"{"id":1,"cmd":"subscribe","topics":["devices","hits"]}"#)
        try h.drain(late)
        #expect(late.of(type: "device").count == 1)

        clock.advance(by: 1)
        h.loop.runDueTimers()
        try h.drain(late)
        #expect(late.of(type: "device").map { $0["event"] as? String } == ["added", "removed"])
        #expect(h.daemon.describeDevices() == .array([]), "the ended replay's device is no longer listed")
        #expect(h.daemon.statusText.hasPrefix("0 devices, "), "\(h.daemon.statusText)")
        let after = try h.connect(topics: ["devices"])
        #expect(after.of(type: "device").isEmpty)
    }

    /// A keyboard recording played by the daemon's recording source (as `run --replay` does)
    /// reaches the first responder as presses, through a `keys` entry that names no window.
    @Test func aKeyboardRecordingPlaysAsPresses() throws {
        let path = temporaryPath("keys") + ".evemu"
        try Self.enterKey.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let layout = try LayoutLoader.parse("[[window]]\nid = \"main\"\nsize = [800, 480]\n[[device]]\nmatch.kind = \"keys\"\n", file: "test.toml")
        let replay = try RecordingReplay(path: path, descriptionPath: nil, layout: layout, tree: kioskTree(), window: nil)
        let clock = ManualClock(seconds: 200)
        let source = RecordingSource(replay: replay, clock: clock)
        let h = try DaemonHarness(app: kioskApp(), clock: clock, sources: [source])
        let client = try h.connect(topics: ["presses"])
        clock.advance(by: 0)
        h.loop.runDueTimers()
        try h.drain(client)
        #expect(client.of(type: "press").map { $0["phase"] as? String } == ["began"])
        clock.advance(by: 0.2)
        h.loop.runDueTimers()
        try h.drain(client)
        #expect(client.of(type: "press").map { "\($0["key"] as? String ?? "") \($0["phase"] as? String ?? "")" } == ["KEY_ENTER began", "KEY_ENTER ended"])
        #expect(h.observer.devicesRemoved.count == 1, "the replayed keyboard went when the recording ended")
    }

    static let enterKey = """
        N: timer keys
        I: 0003 0001 0002 0001
        P: 00 00 00 00 00 00 00 00
        B: 00 03 00 00 00 00 00 00 00
        B: 01 00 00 00 10 00 00 00 00
        E: 5.000000 0001 001c 0001
        E: 5.000000 0000 0000 0000
        E: 5.100000 0001 001c 0000
        E: 5.100000 0000 0000 0000

        """

    static let twoTaps = """
        N: timer test
        I: 0003 0001 0001 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1279 0 0 0
        A: 01 0 799 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 1279 0 0 0
        A: 36 0 799 0 0 0
        A: 39 0 65535 0 0 0
        E: 10.000000 0003 002f 0000
        E: 10.000000 0003 0039 0001
        E: 10.000000 0003 0035 0100
        E: 10.000000 0003 0036 0100
        E: 10.000000 0000 0000 0000
        E: 10.010000 0003 0039 -001
        E: 10.010000 0000 0000 0000
        E: 10.400000 0003 0039 0002
        E: 10.400000 0003 0035 0100
        E: 10.400000 0003 0036 0100
        E: 10.400000 0000 0000 0000
        E: 10.410000 0003 0039 -001
        E: 10.410000 0000 0000 0000

        """
}
