import Testing
import TouchCore
import TouchSystem

/// The loop's one timer facility, driven by a manual clock: deadlines, order, cancelling, and
/// delays of any value.
@Suite(.timeLimit(.minutes(10))) struct LoopTimerTests {
    @Test func aTimerFiresOnceItsDeadlineHasPassedOnTheLoopsClock() throws {
        let clock = ManualClock(seconds: 100)
        let loop = try EventLoop(clock: clock)
        var fired = 0
        let timer = loop.schedule(after: 0.5) { fired += 1 }
        #expect(timer.deadline == LoopInstant(microseconds: 100_500_000))
        clock.advance(by: 0.4)
        loop.runDueTimers()
        #expect(fired == 0)
        clock.advance(by: 0.1)
        loop.runDueTimers()
        #expect(fired == 1)
        #expect(!timer.isScheduled)
        loop.runDueTimers()
        #expect(fired == 1, "once per scheduling")
        timer.schedule(after: 1)
        clock.advance(by: 1)
        loop.runDueTimers()
        #expect(fired == 2, "a timer is scheduled again without a new one")
    }

    @Test func dueTimersRunEarliestFirstAndMayCancelOrMoveEachOther() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        var order: [String] = []
        var late: TimerHandle?
        var moved: TimerHandle?
        loop.schedule(after: 0.3) { order.append("c") }
        loop.schedule(after: 0.1) {
            order.append("a")
            late?.cancel()
            moved?.schedule(after: 5)
        }
        loop.schedule(after: 0.2) { order.append("b") }
        late = loop.schedule(after: 0.25) { order.append("cancelled") }
        moved = loop.schedule(after: 0.26) { order.append("moved") }
        clock.advance(by: 1)
        loop.runDueTimers()
        #expect(order == ["a", "b", "c"])
        #expect(moved?.isScheduled == true)
    }

    @Test func delaysOfAnyValueNeverTrap() throws {
        let clock = ManualClock(seconds: 10)
        let loop = try EventLoop(clock: clock)
        var fired: [String] = []
        let cases: [(String, TimeSpan)] = [

            ("zero", 0), ("negative", -5), ("minus infinity", TimeSpan(seconds: -.infinity)), ("an hour", 3_600), ("1e300", 1e300),
            ("infinity", TimeSpan(seconds: .infinity)), ("nan", TimeSpan(seconds: .nan)), ("greatest", TimeSpan(seconds: .greatestFiniteMagnitude)),
        ]
        var timers: [String: TimerHandle] = [:]
        for (name, delay) in cases { timers[name] = loop.schedule(after: delay) { fired.append(name) } }
        #expect(timers["infinity"]?.isScheduled == false, "infinity is never")
        #expect(timers["nan"]?.isScheduled == false, "NaN is never")
        #expect(timers["1e300"]?.deadline == LoopInstant(microseconds: 10_000_000 + TimeSpan.longestMicroseconds))
        #expect(timers["greatest"]?.deadline == LoopInstant(microseconds: 10_000_000 + TimeSpan.longestMicroseconds))
        loop.runDueTimers()
        #expect(fired == ["zero", "negative", "minus infinity"])
        clock.advance(by: 3_600)
        loop.runDueTimers()
        #expect(fired.last == "an hour")
        // Far past every deadline: the clock saturates instead of overflowing.
        clock.now = LoopInstant(microseconds: Int64.max - 1)
        clock.advance(by: 1e300)
        loop.runDueTimers()
        #expect(fired.count == 6)
        #expect(clock.now.microseconds == Int64.max)
    }

    @Test func aTimerFiresOnTheRealClockThroughTheLoopsDescriptor() throws {
        let loop = try EventLoop()
        var fired = false
        loop.schedule(after: 0.001) { fired = true }
        // A bound on the wait, not a timing assertion: the timer must fire at some wakeup.
        for _ in 0..<1_000 where !fired { try loop.runOnce(timeoutMilliseconds: 1_000) }
        #expect(fired)
    }

    @Test func aCancelledTimerLeavesTheLoopAsleep() throws {
        let loop = try EventLoop()
        var fired = false
        let timer = loop.schedule(after: 0.001) { fired = true }
        timer.cancel()
        #expect(try loop.runOnce(timeoutMilliseconds: 50) == 0)
        #expect(loop.wakeups == 0)
        #expect(!fired)
    }

    @Test func spansConvertWithoutTrapping() {
        #expect(TimeSpan(seconds: 0.000_000_1).microseconds == 1, "rounded up: never early")
        #expect(TimeSpan(seconds: 1.5).microseconds == 1_500_000)
        #expect(TimeSpan(seconds: -1).microseconds == 0)
        #expect(TimeSpan(seconds: .nan).microseconds == nil)
        #expect(TimeSpan(seconds: .infinity).microseconds == nil)
        #expect(TimeSpan(seconds: 1e300).microseconds == TimeSpan.longestMicroseconds)
        let late = LoopInstant(microseconds: Int64.max - 5)
        #expect(late.advanced(by: 1) == LoopInstant(microseconds: Int64.max))
        #expect(late.advanced(by: TimeSpan(seconds: .nan)) == nil)
        #expect(LoopInstant(microseconds: Int64.min).microseconds(since: LoopInstant(microseconds: Int64.max)) == 0)
        #expect(LoopInstant(microseconds: Int64.max).microseconds(since: LoopInstant(microseconds: Int64.min)) == Int64.max)
        #expect(LoopInstant(microseconds: 5).microseconds(since: LoopInstant(microseconds: 3)) == 2)
        #expect(LoopInstant(microseconds: 2_500_000).span(since: LoopInstant(microseconds: 1_000_000)) == 1.5)
    }
}
