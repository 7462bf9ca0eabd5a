import Testing
import TouchCore
import TouchDaemon

/// Anomalies the application meets while dispatching are handed out to be logged (the log's
/// protection from a storm of them is tested with `AnomalyLogLimiter` in TouchInputTests).
@Suite(.serialized, .timeLimit(.minutes(10))) struct AnomalyLoggingTests {
    @Test func theDaemonHandsOutTheApplicationsAnomalies() throws {
        let h = try DaemonHarness(app: kioskApp())
        let p = Point(x: 150, y: 150)
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: p)]))
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 2, contacts: [InputContact(id: 1, phase: .began, location: p)]))
        #expect(h.observer.anomalies == ["device d: contact 1 began twice"])
        #expect(h.daemon.app.statistics.anomalies == 1)
    }
}
