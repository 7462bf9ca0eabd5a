import Testing
import TouchCore

/// The core's time types: input time, spans and loop instants compare and add as their numbers
/// do, NaN included, and never trap.
@Suite(.timeLimit(.minutes(10))) struct TimeTests {
    @Test func inputTimeAndSpansAddAndSubtractAsSeconds() {
        let landed: InputTime = 10.25
        let lifted = landed + 0.35
        #expect(lifted == InputTime(seconds: 10.6))
        #expect(lifted - landed == TimeSpan(seconds: 10.6 - 10.25))
        #expect(landed - lifted < .zero, "a span may be negative")
        var t = landed
        t += 1
        #expect(t == 11.25)
        #expect(t - TimeSpan(seconds: 1) == landed)
        #expect(landed.justBefore < landed && !(landed.justBefore < landed.justBefore))
        #expect(InputTime.distantPast < landed && landed < .distantFuture)
    }

    @Test func aNaNTimeIsNeitherDueNorLate() {
        // A recognizer whose duration is NaN (no layout gives one; the core takes any value) has a
        // NaN deadline: it must never be due, or a timer loop would wait on it for ever.
        let never = InputTime(seconds: 7) + TimeSpan(seconds: .nan)
        for time: InputTime in [0, 7, .distantPast, .distantFuture] {
            #expect(!(never <= time) && !(never < time) && !(never >= time) && !(never > time))
        }
        let nanSpan = TimeSpan(seconds: .nan)
        #expect(!(nanSpan <= .zero) && !(nanSpan >= .zero))
    }

    @Test func spansAreTimerDelaysInWholeMicrosecondsRoundedUp() {
        #expect(TimeSpan(seconds: 0.000_000_1).microseconds == 1)
        #expect(TimeSpan(microseconds: 1_500_000) == 1.5)
        #expect(TimeSpan(seconds: -3).microseconds == 0)
        #expect(TimeSpan(seconds: .infinity).microseconds == nil)
        #expect(TimeSpan(seconds: -.infinity).microseconds == 0)
        #expect(TimeSpan(seconds: .greatestFiniteMagnitude).microseconds == TimeSpan.longestMicroseconds)
    }

    @Test func loopInstantsSaturateAndReadAsInputTime() {
        let start = LoopInstant(microseconds: 2_000_000)
        #expect(start.advanced(by: 0.5) == LoopInstant(microseconds: 2_500_000))
        #expect(start.advanced(by: TimeSpan(seconds: .infinity)) == nil)
        #expect(LoopInstant(microseconds: .max - 1).advanced(by: 1) == LoopInstant(microseconds: .max))
        #expect(start.span(since: LoopInstant(microseconds: 500_000)) == 1.5)
        #expect(LoopInstant.origin.span(since: start) == .zero, "never negative")
        #expect(start.inputTime == 2)
    }
}
