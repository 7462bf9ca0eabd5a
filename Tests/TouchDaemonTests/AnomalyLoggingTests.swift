import TouchInput
import Testing
import TouchCore
import TouchDaemon

/// Anomalies the application meets while dispatching are handed out to be logged, and the log is
/// protected from a storm of them.
@Suite(.serialized) struct AnomalyLoggingTests {
    @Test func theDaemonHandsOutTheApplicationsAnomalies() throws {
        let h = try DaemonHarness(app: kioskApp())
        var seen: [String] = []
        h.daemon.onAnomaly = { seen.append($0) }
        let p = Point(x: 150, y: 150)
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: p)]))
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 2, contacts: [InputContact(id: 1, phase: .began, location: p)]))
        #expect(seen == ["device d: contact 1 began twice"])
        #expect(h.daemon.app.statistics.anomalies == 1)
    }

    @Test func aStormIsCutToABurstPerWindowAndTheRestCounted() {
        var limiter = AnomalyLogLimiter(burst: 3, window: 10)
        var logged: [String] = []
        for i in 0..<100 { logged += limiter.admit("a\(i)", at: Double(i) * 0.01) }
        #expect(logged == ["a0", "a1", "a2"])
        logged = limiter.admit("late", at: 11)
        #expect(logged == ["97 more anomalies were not logged (at most 3 are logged every 10 s)", "late"])
        #expect(limiter.admit("next", at: 11.5) == ["next"])
    }
}
