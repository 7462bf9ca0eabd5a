import Testing
@testable import TouchDevices
import TouchCore
import TouchEvdev
import TouchInput
import TouchSystem

/// The one device watcher, on a loop with a manual clock: a node that cannot be opened is tried
/// again as the retry policy says, then given up; closing the watcher leaves nothing behind.
@Suite(.timeLimit(.minutes(10))) struct DeviceWatcherTests {
    @Test func aNodeThatCannotBeOpenedIsRetriedAsThePolicySaysThenGivenUp() throws {
        let clock = ManualClock(seconds: 10)
        let loop = try EventLoop(clock: clock)
        let policy = OpenRetryPolicy(firstDelay: 0.05, factor: 2, maximumDelay: 0.15, maximumAttempts: 4)
        var failures: [(attempt: Int, retryIn: TimeSpan?)] = []
        let watcher = try DeviceWatcher(loop: loop, retryPolicy: policy) { _, event in
            if case .openFailed(_, let error, let attempt, let retryIn) = event {
                #expect(error.isMissing, "\(error)")
                failures.append((attempt, retryIn))
            }
        }
        watcher.start()
        let node = UdevInputDevice(syspath: "", devnode: "/nonexistent/input/event99", properties: ["ID_INPUT_TOUCHSCREEN": "1"])
        #expect(node.mayBeTouchDevice)
        watcher.add(node)
        #expect(failures.map(\.attempt) == [1])
        for (tried, delay) in [0.05, 0.1, 0.15].enumerated() {
            clock.advance(by: TimeSpan(seconds: delay - 0.001))
            loop.runDueTimers()
            #expect(failures.count == tried + 1, "not before its time")
            clock.advance(by: 0.001)
            loop.runDueTimers()
            #expect(failures.count == tried + 2)
        }
        #expect(failures.map(\.attempt) == [1, 2, 3, 4])
        #expect(failures.map(\.retryIn) == [0.05, 0.1, 0.15, nil])
        #expect(watcher.devices.isEmpty)
        clock.advance(by: 3_600)
        loop.runDueTimers()
        #expect(failures.count == 4, "given up: no more attempts")
    }

    @Test func closingTheWatcherCancelsItsRetriesAndStopsFollowingHotplug() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        var attempts = 0
        let watcher = try DeviceWatcher(loop: loop) { _, event in if case .openFailed = event { attempts += 1 } }
        watcher.start()
        if let monitor = watcher.monitor { #expect(loop.isRegistered(monitor.fileDescriptor)) }
        watcher.add(UdevInputDevice(syspath: "", devnode: "/nonexistent/input/event98"))
        #expect(attempts == 1)
        watcher.closeAll()
        if let monitor = watcher.monitor { #expect(!loop.isRegistered(monitor.fileDescriptor)) }
        clock.advance(by: 60)
        loop.runDueTimers()
        #expect(attempts == 1, "the retry was cancelled")
    }
}
