import Testing
import TouchCore

/// Moves at the display's rate: a window's `refreshRate` holds move-only frames until its next
/// display tick and merges them there; everything else is dispatched at once, in order.
@Suite(.timeLimit(.minutes(10))) struct DisplayRateTests {
    func app(refreshRate: Double, handlers: [Handler] = []) -> Application {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000), refreshRate: refreshRate))
        try! tree.addView("pad", parent: "window", ViewProperties(frame: Rect(x: 100, y: 50, width: 800, height: 800)))
        return Application(tree: tree, handlers: HandlerTable(handlers))
    }

    func fingers(_ t: Double, _ phase: TouchPhase, x: Double, count: Int = 2) -> InputFrame {
        frame(t, (0..<count).map { i in contact(UInt64(i + 1), phase, x, 100 + Double(i) * 50) })
    }

    func frame(_ t: Double, _ contacts: [InputContact]) -> InputFrame {
        InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)
    }

    /// A stroke of two fingers at 1 kHz: down at 10.000, moving every millisecond, up after `moves`.
    func stroke(moves: Int) -> [InputFrame] {
        [fingers(10, .began, x: 200)] + (1...moves).map { fingers(10 + Double($0) / 1000, .moved, x: 200 + Double($0)) }
            + [fingers(10 + Double(moves + 1) / 1000, .ended, x: 200 + Double(moves))]
    }

    @Test func movesWaitForTheTickAndArriveMergedWithEverySample() throws {
        var app = app(refreshRate: 60)
        #expect(app.send(fingers(10, .began, x: 200)).count == 1, "a touch-down is dispatched at once")
        // 10.001 ... 10.005: the next tick is 601/60 = 10.01666...
        for i in 1...5 { #expect(app.send(fingers(10 + Double(i) / 1000, .moved, x: 200 + Double(i))).isEmpty) }
        let tick = try #require(app.nextDisplayTick)
        #expect(abs(tick.seconds - 601.0 / 60) < 1e-9)
        #expect(!app.queue.hasEventDue(by: 10.005) && app.queue.hasEventDue(by: tick))
        #expect(app.dispatchDue(by: tick - 0.001).isEmpty, "not before the tick")
        let reports = app.dispatchDue(by: tick)
        #expect(reports.count == 1)
        let moved = try #require(reports.first).changedTouches
        #expect(moved.map(\.phase) == [.moved, .moved])
        #expect(moved.map(\.locationInWindow.x) == [205, 205])
        #expect(moved.map(\.timestamp) == [10.005, 10.005], "the newest sample's time, not the tick's")
        #expect(moved[0].coalescedSamples.map(\.locationInWindow.x) == [201, 202, 203, 204])
        #expect(moved[0].coalescedSamples.map(\.locationInView) == [201, 202, 203, 204].map { Point(x: $0 - 100, y: 50) })
        #expect(moved[0].previousLocationInWindow.x == 200, "the previous location is the previous dispatch's")
        #expect(app.nextDisplayTick == nil)
    }

    @Test func aLiftDispatchesAtOnceAfterTheMovesBeforeIt() throws {
        var app = app(refreshRate: 60, handlers: [Handler(responder: "pad", trigger: .touchesEnded, action: "up")])
        var reports: [DispatchReport] = []
        for f in stroke(moves: 5) { reports += app.send(f) }
        #expect(reports.map { $0.changedTouches.map(\.phase) } == [[.began, .began], [.moved, .moved], [.ended, .ended]])
        #expect(reports[1].changedTouches[0].coalescedSamples.count == 4)
        #expect(reports.flatMap(\.actions).map(\.name) == ["up"])
        #expect(app.queue.isEmpty && app.nextDisplayTick == nil)
    }

    @Test func movesOfDifferentTicksAreNotMergedAndNoSampleIsLost() throws {
        var app = app(refreshRate: 60)
        var reports: [DispatchReport] = []
        // 100 ms of moves: samples 10.001 ... 10.100 cover the ticks 601/60 ... 606/60.
        for f in stroke(moves: 100) { reports += app.send(f) }
        let moves = reports.filter { $0.changedTouches.first?.phase == .moved }
        #expect(moves.count == 6, "one event per display tick: \(moves.map(\.event.timestamp))")
        let samples = moves.map { $0.changedTouches[0].coalescedSamples.count + 1 }.reduce(0, +)
        #expect(samples == 100)
        for report in moves {
            let tick = (report.event.timestamp.seconds * 60).rounded(.up)
            #expect(report.changedTouches[0].coalescedSamples.allSatisfy { ($0.timestamp.seconds * 60).rounded(.up) == tick }, "samples of one tick")
        }
    }

    /// The merged samples' lists are used again once their touches settled: a list the caller let
    /// go is emptied and refilled at a later tick, one it still holds is never changed.
    @Test func sampleListsUsedAgainNeverChangeWhatACallerHolds() throws {
        var app = app(refreshRate: 60)
        // Every third tick's report is kept, with what its samples were when it came.
        var held: [(report: DispatchReport, xs: [Double])] = []
        var seen = 0
        for f in stroke(moves: 1_000) {
            for report in app.send(f) where report.changedTouches.first?.phase == .moved {
                let touch = report.changedTouches[0]
                let tick = (report.event.timestamp.seconds * 60).rounded(.up)
                let xs = touch.coalescedSamples.map(\.locationInWindow.x)
                // Every sample since the last dispatch, one a millisecond, before the touch's own.
                #expect(xs == xs.indices.map { touch.locationInWindow.x - Double(xs.count - $0) })
                #expect(touch.coalescedSamples.allSatisfy { ($0.timestamp.seconds * 60).rounded(.up) == tick })
                seen += xs.count + 1
                if Int(tick) % 3 == 0 { held.append((report, xs)) }
            }
        }
        #expect(seen == 1_000)
        #expect(held.count > 15)
        for (report, xs) in held {
            #expect(report.changedTouches[0].coalescedSamples.map(\.locationInWindow.x) == xs, "at \(report.event.timestamp)")
        }
    }

    @Test func aRefreshRateOfZeroDispatchesEveryFrame() {
        var app = app(refreshRate: 0)
        var reports: [DispatchReport] = []
        for f in stroke(moves: 20) { reports += app.send(f) }
        #expect(reports.count == 22)
        #expect(reports.allSatisfy { $0.changedTouches.allSatisfy(\.coalescedSamples.isEmpty) })
        #expect(app.nextDisplayTick == nil)
    }

    @Test func keysAndOtherDevicesKeepTheirPlaceInTheQueue() throws {
        var app = app(refreshRate: 60)
        _ = app.send(fingers(10, .began, x: 200))
        _ = app.enqueue(.touches(fingers(10.001, .moved, x: 201)))
        _ = app.enqueue(.touches(InputFrame(device: "other", window: "window", timestamp: 10.002, contacts: [contact(9, .began, 500, 500)])))
        _ = app.enqueue(.touches(fingers(10.003, .moved, x: 203)))
        #expect(app.queue.count == 3, "the move after the other device's touch-down is not merged across it")
        #expect(app.queue.hasEventDue(by: 10.003), "the touch-down makes the move before it due")
        let reports = app.dispatchDue(by: 10.003)
        #expect(reports.map { $0.changedTouches.map(\.device) } == [["dev", "dev"], ["other"]])
        #expect(app.queue.count == 1)
        #expect(app.dispatchDue(by: 10.02).first?.changedTouches.first?.locationInWindow.x == 203)
    }

    /// A frame read only after its tick went out (it was stamped just before the tick) waits for
    /// the next tick, as UIKit delivers a touch that missed a display frame with the next one.
    @Test func aFrameThatMissedItsTickWaitsForTheNext() throws {
        var app = app(refreshRate: 60)
        _ = app.send(fingers(10, .began, x: 200))
        _ = app.enqueue(.touches(fingers(10.010, .moved, x: 210)))
        let tick = 601.0 / 60
        #expect(app.dispatchDue(by: InputTime(seconds: tick + 0.00002)).count == 1, "the timer fires just after the tick")
        _ = app.enqueue(.touches(fingers(tick - 0.00001, .moved, x: 211)))
        #expect(app.dispatchDue(by: InputTime(seconds: tick + 0.00003)).isEmpty)
        let next = try #require(app.nextDisplayTick)
        #expect(abs(next.seconds - 602.0 / 60) < 1e-9)
    }

    /// The same stream gives the same events however late the ticks are dispatched (a daemon's
    /// timer is never early but may be late, and input keeps coming meanwhile): what is merged
    /// depends on the timestamps alone.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8]) func lateTicksGiveTheSameEvents(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let frames = stroke(moves: 80)
        var stepped = app(refreshRate: 60)
        var steppedReports: [DispatchReport] = []
        for f in frames { steppedReports += stepped.send(f) }
        var late = app(refreshRate: 60)
        var lateReports: [DispatchReport] = []
        for f in frames {
            // Queued as they come; only now and then is what is due by then dispatched.
            _ = late.enqueue(.touches(f))
            if Int.random(in: 0..<4, using: &generator) == 0 { lateReports += late.dispatchDue(by: f.timestamp) }
        }
        lateReports += late.dispatchAll()
        func summary(_ reports: [DispatchReport]) -> [[String]] {
            reports.map { $0.changedTouches.map { "\($0.phase) \($0.timestamp) \($0.locationInWindow.x) \($0.coalescedSamples.count)" } }
        }
        #expect(summary(lateReports) == summary(steppedReports), "seed \(seed)")
    }
}
