import Testing
import TouchCore
import TouchInput

/// The log is protected from a storm of anomalies.
@Suite(.timeLimit(.minutes(10))) struct AnomalyLogLimiterTests {
    @Test func aStormIsCutToABurstPerWindowAndTheRestCounted() {
        var limiter = AnomalyLogLimiter(burst: 3, window: 10)
        var logged: [String] = []
        for i in 0..<100 { logged += limiter.admit("a\(i)", at: LoopInstant(microseconds: Int64(i) * 10_000)) }
        #expect(logged == ["a0", "a1", "a2"])
        logged = limiter.admit("late", at: LoopInstant(microseconds: 11_000_000))
        #expect(logged == ["97 more anomalies were not logged (at most 3 are logged every 10 s)", "late"])
        #expect(limiter.admit("next", at: LoopInstant(microseconds: 11_500_000)) == ["next"])
    }
}
