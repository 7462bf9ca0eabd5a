import Testing
import TouchCore

/// The touches the moves waiting for their display tick will move, as the input's rate forms send
/// them ahead of the tick.
@Suite struct WaitingMoveTouchesTests {
    func app() -> Application {
        var tree = ViewTree()
        try! tree.addWindow("main", WindowProperties(size: Size(width: 800, height: 480), refreshRate: 60))
        try! tree.addView("pad", parent: "main", ViewProperties(frame: Rect(x: 100, y: 50, width: 600, height: 400)))
        return Application(tree: tree)
    }

    func frame(_ t: Double, _ contacts: [(UInt64, TouchPhase, Double)]) -> InputFrame {
        InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: contacts.map {
            InputContact(id: $0.0, phase: $0.1, location: Point(x: $0.2, y: 200), majorRadius: 4, force: 0.25 * Double($0.0), maximumPossibleForce: 1)
        })
    }

    @Test func theyAreTheTouchesTheTickWillDispatch() throws {
        var app = app()
        _ = app.send(frame(10, [(1, .began, 200), (2, .began, 300)]))
        #expect(app.waitingMoveTouches().isEmpty, "nothing waits")
        _ = app.send(frame(10.001, [(1, .moved, 201), (2, .moved, 300)]))
        _ = app.send(frame(10.002, [(1, .moved, 202), (2, .stationary, 300)]))
        let waiting = app.waitingMoveTouches()
        #expect(waiting.count == 1)
        // Finger 2 stood still in both frames, but its samples make it move at the tick, as here.
        #expect(waiting.first?.map(\.id) == [1, 2])
        let touch = try #require(waiting.first?.first)
        #expect(touch.id == 1 && touch.phase == .moved && touch.view == "pad" && touch.window == "main")
        #expect(touch.timestamp == 10.002 && touch.locationInWindow == Point(x: 202, y: 200))
        #expect(touch.previousLocationInWindow == Point(x: 200, y: 200), "where it was last dispatched")
        #expect(touch.locationInView == Point(x: 102, y: 150) && touch.previousLocationInView == Point(x: 100, y: 150))
        #expect(touch.coalescedSamples.map(\.locationInWindow) == [Point(x: 201, y: 200)])
        #expect(touch.coalescedSamples.map(\.locationInView) == [Point(x: 101, y: 150)])
        #expect(touch.force == 0.25)

        let dispatched = app.dispatchAll()
        #expect(dispatched.first?.changedTouches.map(\.id) == [1, 2])
        let moved = try #require(dispatched.first?.changedTouches.first)
        #expect(moved.locationInWindow == touch.locationInWindow && moved.previousLocationInWindow == touch.previousLocationInWindow)
        #expect(moved.locationInView == touch.locationInView && moved.coalescedSamples == touch.coalescedSamples, "as the tick made it")
        #expect(app.waitingMoveTouches().isEmpty)
    }

    @Test func whatWasSentIsLeftOutAndTheSampleBeforeIsThePrevious() throws {
        var app = app()
        _ = app.send(frame(10, [(1, .began, 200), (2, .began, 300)]))
        _ = app.send(frame(10.001, [(1, .moved, 201), (2, .moved, 301)]))
        _ = app.send(frame(10.002, [(1, .moved, 202), (2, .moved, 302)]))
        _ = app.send(frame(10.003, [(1, .moved, 203), (2, .moved, 303)]))
        let waiting = app.waitingMoveTouches { $0 == 1 ? 10.002 : 10.003 }
        #expect(waiting.first?.map(\.id) == [1], "finger 2 has nothing new")
        let touch = try #require(waiting.first?.first)
        #expect(touch.coalescedSamples.isEmpty && touch.locationInWindow == Point(x: 203, y: 200))
        #expect(touch.previousLocationInWindow == Point(x: 202, y: 200) && touch.previousLocationInView == Point(x: 102, y: 150))
        let fromFirst = try #require(app.waitingMoveTouches { $0 == 1 ? 10.001 : .distantFuture }.first?.first)
        #expect(fromFirst.coalescedSamples.map(\.locationInWindow) == [Point(x: 202, y: 200)])
        #expect(fromFirst.previousLocationInWindow == Point(x: 201, y: 200))
    }

    @Test func aTouchThatStoodStillSinceItsDispatchIsLeftOut() {
        var app = app()
        _ = app.send(frame(10, [(1, .began, 200), (2, .began, 300)]))
        _ = app.send(frame(10.001, [(1, .moved, 201), (2, .stationary, 300)]))
        #expect(app.waitingMoveTouches().first?.map(\.id) == [1])
    }

    @Test func aContactWithNoTouchDownIsLeftOut() {
        var app = app()
        _ = app.send(frame(10, [(1, .began, 200)]))
        _ = app.send(frame(10.001, [(1, .moved, 210)]))
        _ = app.send(frame(10.002, [(1, .ended, 210)]))
        #expect(app.waitingMoveTouches().isEmpty, "the lift made the move due")
        var other = self.app()
        _ = other.send(frame(10.001, [(7, .moved, 210)]))
        #expect(other.waitingMoveTouches() == [[]], "a move of no touch waits, but moves nothing")
    }
}

/// The waiting moves' new samples without whole touches (what goes out as frames arrive): the
/// same touches, times, places and samples as the waiting touches, with their places in the view
/// when asked for.
@Suite struct WaitingMoveSamplesTests {
    @Test(arguments: [-Double.infinity, 10.001, 10.002, 10.003], [false, true])
    func theyAreTheWaitingTouchesSamples(sentThrough: Double, inView: Bool) {
        var app = WaitingMoveTouchesTests().app()
        let frame = WaitingMoveTouchesTests().frame
        _ = app.send(frame(10, [(1, .began, 200), (2, .began, 300), (3, .began, 400)]))
        _ = app.send(frame(10.001, [(1, .moved, 201), (2, .moved, 301), (3, .stationary, 400)]))
        _ = app.send(frame(10.002, [(1, .moved, 202), (2, .stationary, 301), (3, .stationary, 400)]))
        _ = app.send(frame(10.003, [(1, .moved, 203), (2, .moved, 303), (3, .stationary, 400)]))
        let sent: (TouchID) -> InputTime = { $0 == 1 ? InputTime(seconds: sentThrough) : .distantPast }
        let touches = app.waitingMoveTouches(sentThrough: sent)
        let samples = app.waitingMoveSamples(sentThrough: sent, inView: inView)
        #expect(!touches.isEmpty && touches.map { $0.map(\.id) } == samples.map { $0.map(\.id) })
        for (move, light) in zip(touches, samples) {
            for (touch, sample) in zip(move, light) {
                #expect(sample.device == touch.device && sample.window == touch.window && sample.view == touch.view)
                #expect(sample.phase == touch.phase && sample.timestamp == touch.timestamp)
                #expect(sample.locationInWindow == touch.locationInWindow && sample.previousLocationInWindow == touch.previousLocationInWindow)
                #expect(sample.force == touch.force && sample.majorRadius == touch.majorRadius)
                #expect(Array(sample.coalescedSamples.map(\.locationInWindow)) == touch.coalescedSamples.map(\.locationInWindow))
                #expect(Array(sample.coalescedSamples.map(\.timestamp)) == touch.coalescedSamples.map(\.timestamp))
                #expect(sample.tapCount == touch.tapCount && sample.majorRadiusTolerance == touch.majorRadiusTolerance)
                #expect(sample.maximumPossibleForce == touch.maximumPossibleForce)
                if inView {
                    #expect(touch.locationInView != nil, "the touches are in a view")
                    #expect(sample.locationInView == touch.locationInView && sample.previousLocationInView == touch.previousLocationInView)
                    #expect(Array(sample.coalescedSamples.map(\.locationInView)) == touch.coalescedSamples.map(\.locationInView))
                } else {
                    #expect(sample.locationInView == nil && sample.previousLocationInView == nil)
                    #expect(sample.coalescedSamples.allSatisfy { $0.locationInView == nil })
                }
            }
        }
    }
}
