import PropertyBased
import Testing
@testable import TouchCore

/// Turning off the recording of responder calls (what the daemon does) must change nothing but the
/// records themselves: the same hits, touches, actions, gestures and counters, event for event.
@Suite(.timeLimit(.minutes(10))) struct DispatchRecordingTests {
    typealias Dice = PropertyTests.Dice

    /// A report without what only a recording application fills in.
    static func unrecorded(_ report: DispatchReport) -> DispatchReport {
        var r = report
        r.calls = []
        r.log = []
        r.unhandled = []
        r.event.allTouches = []
        return r
    }

    /// Handlers for only some touch methods (or none), so that calls with and without handlers meet.
    static func someHandlers(_ dice: inout Dice, tree: ViewTree) -> [Handler] {
        let methods = HandlerTrigger.touchMethods.filter { _ in dice.next(2) == 0 }
        return PropertyTests.randomHandlers(&dice, tree: tree).filter { methods.contains($0.trigger) }
    }

    @Test func reportsDifferOnlyInTheRecordedCalls() async {
        await propertyCheck(count: propertyCount, input: Gen.int(in: 0...1_000_000).array(of: 10...300)) { numbers in
            var dice = Dice(numbers: numbers)
            let tree = PropertyTests.randomTree(&dice)
            let handlers = HandlerTable(Self.someHandlers(&dice, tree: tree))
            let recognizers = dice.next(2) == 0 ? [] : PropertyTests.randomRecognizers(&dice, tree: tree)
            var recording = Application(tree: tree, handlers: handlers, gestureRecognizers: recognizers)
            var quiet = recording
            quiet.recordsResponderCalls = false
            var down: Set<UInt64> = []
            var t = 0.0
            for _ in 0..<(numbers.count / 3) {
                let f = PropertyTests.randomFrame(&dice, down: &down, time: &t)
                let full = recording.send(f)
                let plain = quiet.send(f)
                #expect(full.map(Self.unrecorded) == plain, "frame at \(t)")
                #expect(plain.allSatisfy { $0.calls.isEmpty && $0.log.isEmpty && $0.unhandled.isEmpty })
            }
            #expect(recording.flushTimers().map(Self.unrecorded) == quiet.flushTimers())
            #expect(recording.cancelAllTouches(timestamp: InputTime(seconds: t + 1)).map(Self.unrecorded) == quiet.cancelAllTouches(timestamp: InputTime(seconds: t + 1)))
            // Unhandled calls are counted the same whether they were made or skipped.
            #expect(recording.statistics == quiet.statistics)
        }
    }

    /// A finished touch leaves nothing behind in the recognizers' bookkeeping, with or without
    /// recognizers: a daemon that runs for months must not keep a record per touch it ever saw.
    @Test func finishedTouchesLeaveNoDeliveryRecords() {
        let tree = makeTree { try $0.addView("v0", parent: "window", view(rect(0, 0, 200, 200))) }
        let tap = GestureRecognizerSpec(id: "g", view: "v0", kind: .tap(taps: 2, touches: 1))
        for recognizers in [[], [tap]] {
            for records in [true, false] {
                var app = Application(tree: tree, gestureRecognizers: recognizers)
                app.recordsResponderCalls = records
                var t = 1.0
                for n in 0..<50 {
                    let x = Double(10 + n % 5 * 30)
                    _ = app.send(frame(t, contact(1, .began, x, 50), contact(2, .began, 300, 300)))
                    _ = app.send(frame(t + 0.01, contact(1, .moved, x + 1, 51), contact(2, .moved, 301, 300)))
                    _ = app.send(frame(t + 0.02, contact(1, n % 3 == 0 ? .cancelled : .ended, x + 1, 51), contact(2, .ended, 301, 300)))
                    t += 0.2
                }
                _ = app.flushTimers()
                #expect(app.activeTouches.isEmpty)
                #expect(app.gestures.deliveredBegan.isEmpty, "recognizers: \(recognizers.count), recording: \(records)")
                #expect(app.gestures.claimed.isEmpty, "recognizers: \(recognizers.count), recording: \(records)")
                #expect(app.statistics.touchesBegan == 100)
            }
        }
    }
}
