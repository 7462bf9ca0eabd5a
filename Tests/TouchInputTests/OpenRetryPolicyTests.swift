import TouchInput
import Testing

@Suite(.timeLimit(.minutes(10))) struct OpenRetryPolicyTests {
    @Test func delaysDoubleUpToTheCapThenAttemptsRunOut() {
        let policy = OpenRetryPolicy(firstDelay: 0.05, factor: 2, maximumDelay: 0.3, maximumAttempts: 6)
        let delays = (1...6).map { policy.delay(afterAttempt: $0) }
        #expect(delays == [0.05, 0.1, 0.2, 0.3, 0.3, nil])
        #expect(abs(policy.totalWait.seconds - 0.95) < 1e-9)
    }

    @Test func theDefaultRetriesForSeveralSecondsAndStops() {
        let policy = OpenRetryPolicy()
        #expect(policy.delay(afterAttempt: 1) == 0.05)
        #expect(policy.delay(afterAttempt: policy.maximumAttempts) == nil)
        #expect(policy.totalWait > 5 && policy.totalWait < 60, "\(policy.totalWait)")
    }
}
