import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Attacks on the work of one wakeup: subscriptions whose filters would be matched pattern by
/// pattern, thousands of recognizers on one view, and droppable messages larger than a client's
/// queue. While each runs, another client's tap gets its `hit` and its ping its reply within the
/// latency goal (100 ms and 50 ms of the daemon's own work: the CPU time of the loop's wakeups
/// between the input or request and the answer, which other processes on the machine do not
/// inflate), no client that reads is cut, and memory stays bounded.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileBudgetTests {
    /// How much slower than the optimised daemon the build under test runs the same work: an
    /// unoptimised (debug) build calls generic code through witness tables and checks every
    /// access, several times the optimised build's work for the same steps. The goals stay far
    /// below what any attack here cost before (seconds per tap).
    #if DEBUG
    static let buildFactor = 4.0
    #else
    static let buildFactor = 1.0
    #endif
    /// The latency goals, in milliseconds of the daemon's work.
    static let tapGoal = 100.0 * buildFactor
    static let pingGoal = 50.0 * buildFactor

    /// The kiosk layout as shipped.
    static func bundledKioskApp() throws -> Application {
        let document = try LayoutLoader.load(path: "config/kiosk.toml")
        return try document.makeApplication(file: "config/kiosk.toml")
    }

    /// The CPU time of this thread in milliseconds.
    static func cpuMilliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }

    /// Runs the loop, polling `client` between wakeups, until `done` holds; returns the CPU time
    /// the loop's wakeups took meanwhile (milliseconds), or `nil` if `done` never held.
    static func daemonMilliseconds(_ h: DaemonHarness, _ client: TestClient, until done: (TestClient) -> Bool) throws -> Double? {
        var spent = 0.0
        for _ in 0..<2000 {
            let start = cpuMilliseconds()
            _ = try h.loop.runOnce(timeoutMilliseconds: 5)
            spent += cpuMilliseconds() - start
            client.poll()
            if done(client) { return spent }
        }
        return nil
    }

    /// A tap's `hit` (and, when `lifted` is given, what its lift brings) and then a ping's reply
    /// reach `observer` within the goals.
    static func checkLatency(
        _ h: DaemonHarness, _ input: InputPipe, observer: TestClient, at point: Point, touch: UInt64, t: Double,
        lifted: @escaping (TestClient) -> Bool = { _ in true }, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let hitsBefore = observer.of(type: "hit").count
        input.send(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: touch, phase: .began, location: point)]))
        let tap = try #require(
            try daemonMilliseconds(h, observer) { $0.of(type: "hit").count > hitsBefore }, "the tap's hit arrives",
            sourceLocation: sourceLocation)
        input.send(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t + 0.05), contacts: [InputContact(id: touch, phase: .ended, location: point)]))
        let lift = try #require(try daemonMilliseconds(h, observer, until: lifted), "the lift is dispatched", sourceLocation: sourceLocation)
        let pingID = Int(touch) + 1_000_000
        observer.send(#"{"id":\#(pingID),"cmd":"ping"}"#)
        let ping = try #require(
            try daemonMilliseconds(h, observer) { $0.reply(id: pingID) != nil }, "the ping is answered", sourceLocation: sourceLocation)
        #expect(tap <= tapGoal, "a tap's hit took \(tap) ms of the daemon's work", sourceLocation: sourceLocation)
        #expect(lift <= tapGoal, "a tap's lift took \(lift) ms of the daemon's work", sourceLocation: sourceLocation)
        #expect(ping <= pingGoal, "a ping took \(ping) ms of the daemon's work", sourceLocation: sourceLocation)
    }

    /// `count` long non-ASCII patterns that match no view, half of them prefixes.
    static func patterns(_ count: Int, salt: Int) -> [String] {
        (0..<count).map { n in String(repeating: "ü", count: 120) + "\(salt).\(n)" + (n % 2 == 0 ? "*" : "") }
    }

    /// Connects a read-only client holding the most subscriptions, each with the most patterns.
    static func filterAttacker(_ h: DaemonHarness, salt: Int) throws -> TestClient {
        let client = try h.connectBare()
        client.keepsMessages = false
        let limit = h.daemon.server.limits.maximumSubscriptionsPerClient
        for s in 0..<limit {
            let list = patterns(Limits.maximumRequestListEntries, salt: salt * 100 + s).map { "\"\($0)\"" }.joined(separator: ",")
            client.queue(Array(#"{"id":\#(s),"cmd":"subscribe","topics":["hits","touches","actions","gestures"],"views":[\#(list)]}"#.utf8) + [10])
        }
        try h.drain(client)
        #expect(client.replyCodes == ["ok": limit], "\(client.replyCodes)")
        return client
    }

    @Test func subscriptionFiltersOfManyClientsDoNotDelayATap() throws {
        let h = try DaemonHarness(app: try Self.bundledKioskApp())
        let input = try InputPipe(h)
        let observer = try h.connect(topics: ["hits", "actions"])
        let memory = residentBytes()
        let attackers = try (0..<61).map { try Self.filterAttacker(h, salt: $0) }
        // tile.doors, and the header's info button.
        try Self.checkLatency(h, input, observer: observer, at: Point(x: 100, y: 200), touch: 1, t: 1)
        try Self.checkLatency(h, input, observer: observer, at: Point(x: 1230, y: 48), touch: 2, t: 2)
        try h.drain(observer)
        #expect(observer.of(type: "action").count >= 1, "the tile's tap recognizer acted")
        #expect(h.daemon.server.clientCount == 62 && attackers.count == 61)
        // The patterns the clients sent are kept, compiled: what that costs a real daemon is
        // asserted by `sigtermUnderTheHeaviestAttackExitsCleanlyAndSaysGoodbye`.
        h.expectBoundedMemory(since: memory, "filter attack")
        #expect(try h.answersPing())
    }

    @Test func oneFilteringClientOnADeepLayoutDoesNotDelayATap() throws {
        var app = kioskApp()
        var parent: ResponderID = "home.ok"
        let depth = Limits.maximumViewDepth - 3
        for n in 0..<depth {
            let id = ResponderID("deep.\(n)")
            try app.addView(id, parent: parent, ViewProperties(frame: Rect(x: 0, y: 0, width: 200, height: 100)))
            parent = id
        }
        let h = try DaemonHarness(app: app)
        let input = try InputPipe(h)
        let observer = try h.connect(topics: ["hits"])
        let attacker = try Self.filterAttacker(h, salt: 1)
        for k in 0..<5 { try Self.checkLatency(h, input, observer: observer, at: Point(x: 150, y: 150), touch: UInt64(k + 1), t: Double(k + 1)) }
        let hit = try #require(observer.of(type: "hit").last)
        #expect(hit["view"] as? String == "deep.\(depth - 1)", "the deepest view is hit: \(hit)")
        #expect(!attacker.closed)
    }

    /// `count` tap recognizers on home.ok, each chained to the one before when `chained`.
    static func recognizerApp(_ count: Int, chained: Bool) throws -> Application {
        var app = kioskApp()
        for n in 0..<count {
            try app.addGestureRecognizer(
                GestureRecognizerSpec(
                    id: ResponderID("tap.\(n)"), view: "home.ok", kind: .tap(taps: 1, touches: 1),
                    requiresFailureOf: chained && n > 0 ? [ResponderID("tap.\(n - 1)")] : [], action: "tap.\(n)"))
        }
        return app
    }

    @Test(arguments: [false, true])
    func thousandsOfRecognizersOnOneViewDoNotDelayATap(chained: Bool) throws {
        let count = Limits.maximumViews - 10
        let h = try DaemonHarness(app: try Self.recognizerApp(count, chained: chained))
        let input = try InputPipe(h)
        let observer = try h.connect(topics: ["hits", "actions"])
        let memory = residentBytes()
        for k in 0..<3 {
            // The tap's lift: the first recognizer acts, every other fails, within the same goal.
            try Self.checkLatency(
                h, input, observer: observer, at: Point(x: 150, y: 150), touch: UInt64(k + 1), t: Double(k + 1),
                lifted: { $0.of(type: "action").count > k })
        }
        try h.drain(observer)
        #expect(observer.of(type: "action").compactMap { $0["name"] as? String } == ["tap.0", "tap.0", "tap.0"])
        #expect(h.daemon.app.gestureState(of: "tap.1") == .possible, "reset for the next touch")
        h.expectBoundedMemory(since: memory, "recognizers on one view")
    }

    @Test func aDroppableMessageLargerThanTheQueueIsDroppedWithItsNotice() throws {
        // Views over one another that all let the point through: a touch-down's hit-test trace
        // visits every one of them, far more than a client's queue holds.
        var app = kioskApp()
        for n in 0..<(Limits.maximumViews - 10) {
            try app.addView(
                ResponderID("layer.\(n)"), parent: "home",
                ViewProperties(frame: Rect(x: 0, y: 0, width: 800, height: 90), hitTestPolicy: .passThrough))
        }
        let h = try DaemonHarness(app: app)
        let input = try InputPipe(h)
        let observer = try h.connect(topics: ["hits"])
        let reader = try h.connect(topics: ["hit_tests", "hits"])
        reader.keepsMessages = true
        let memory = residentBytes()
        for k in 0..<3 {
            try Self.checkLatency(h, input, observer: observer, at: Point(x: 50, y: 50), touch: UInt64(k + 1), t: Double(k + 1))
            try h.drain(observer, reader)
            #expect(h.daemon.server.totalQueuedBytes <= h.daemon.server.limits.maximumQueuedBytes)
        }
        #expect(!reader.closed && reader.of(type: "goodbye").isEmpty, "a client that reads promptly stays")
        #expect(reader.of(type: "hit_test").isEmpty, "the traces were never queued")
        let notices = reader.of(type: "dropped")
        #expect(notices.compactMap { $0["count"] as? Int }.reduce(0, +) == 3, "each trace is reported dropped: \(notices)")
        #expect(reader.of(type: "hit").count == 3, "the hits come through")
        // Each gap in the numbers is a trace the notice that follows it reports.
        let seqs = reader.messages.compactMap { $0["seq"] as? Int }
        let gaps = zip(seqs, seqs.dropFirst()).filter { $1 != $0 + 1 }.map { $0.0 + 1 }
        #expect(gaps == notices.compactMap { $0["first_seq"] as? Int }, "\(seqs)")
        #expect(h.daemon.server.statistics.droppedMessages == 3)
        h.expectBoundedMemory(since: memory, "oversized droppable message")
    }
}
