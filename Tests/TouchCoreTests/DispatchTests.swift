import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct DispatchTests {
    let seedResponders: Set<ResponderID> = ["blue", "orange", "ViewController", "app_delegate"]

    @Test func aTapOnBlueRunsTheChainLikeSeed001() {
        var app = Application(tree: seedExperimentTree())
        let reports = app.send(frame(1.0, contact(1, .began, 70, 150))) + app.send(frame(1.05, contact(1, .ended, 70, 150)))
        #expect(
            calls(reports, among: seedResponders) == [
                "blue - touchesBegan", "orange - touchesBegan", "ViewController - touchesBegan", "app_delegate - touchesBegan",
                "blue - touchesEnded", "orange - touchesEnded", "ViewController - touchesEnded", "app_delegate - touchesEnded",
            ])
        #expect(reports[0].hits.count == 1)
        let hit = reports[0].hits[0]
        #expect(hit.view == "blue")
        #expect(hit.viewPath == ["window", "root", "orange", "blue"])
        #expect(hit.pointInView == Point(x: 30, y: 30))
        #expect(reports[0].unhandled.count == 1, "nothing consumed it: dropped at the end of the chain")
    }

    @Test func aHitSaysTheViewsPathAsTheTreeIsNowAfterAViewWithItsNameMoved() throws {
        var app = Application(tree: seedExperimentTree())
        var hits: [HitRecord] = []
        for (t, x) in [(1.0, 70.0), (1.2, 80.0)] {
            hits += app.send(frame(t, contact(UInt64(t * 10), .began, x, 150))).flatMap(\.hits)
            _ = app.send(frame(t + 0.05, contact(UInt64(t * 10), .ended, x, 150)))
        }
        #expect(hits.map(\.viewPath) == [["window", "root", "orange", "blue"], ["window", "root", "orange", "blue"]])
        // "blue" goes, and a view of that name comes back straight under the root, where the
        // old one was.
        _ = try app.removeView("blue", timestamp: 2)
        try app.addView("blue", parent: "root", view(rect(40, 120, 150, 150)))
        let hit = try #require(app.send(frame(3, contact(30, .began, 70, 150))).first?.hits.first)
        #expect(hit.view == "blue")
        #expect(hit.viewPath == ["window", "root", "blue"])
    }

    /// Up to 16 touches down are found by going through them, past that through tables: crossing
    /// that number both ways, each finger stays its own touch.
    @Test func fingersStayTheirTouchesAsMoreThanSixteenComeAndGo() {
        var tree = seedExperimentTree()
        try? tree.updateView("root") { $0.isMultipleTouchEnabled = true }
        var app = Application(tree: tree)
        var touchOf: [UInt64: TouchID] = [:]
        var t = 1.0
        var down: [UInt64] = []
        func send(_ contacts: [InputContact]) {
            t += 0.01
            for report in app.send(InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)) {
                for touch in report.changedTouches {
                    if touch.phase == .began {
                        #expect(touchOf[touch.contact] == nil, "contact \(touch.contact) began twice")
                        touchOf[touch.contact] = touch.id
                    } else {
                        #expect(touchOf[touch.contact] == touch.id, "contact \(touch.contact) changed touches")
                    }
                    let expected = contacts.first { $0.id == touch.contact }?.location
                    #expect(touch.locationInWindow == expected, "contact \(touch.contact) at its own place")
                    if touch.phase.isFinal { touchOf[touch.contact] = nil }
                }
            }
        }
        func place(_ id: UInt64, _ step: Int) -> Point { Point(x: 10 + Double(id % 30) * 10 + Double(step), y: 10 + Double(id / 30) * 10) }
        // 24 land one by one, each frame moving all the others.
        for round in 0..<3 {
            let base = UInt64(round * 100)
            for k in 0..<24 {
                let id = base + UInt64(k)
                down.append(id)
                send(down.map { InputContact(id: $0, phase: $0 == id ? .began : .moved, location: place($0, k)) })
            }
            // Every other one lifts, then the rest, from the middle out.
            for id in down.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) + down.enumerated().filter({ $0.offset % 2 == 1 }).map(\.element).reversed() {
                send(down.map { InputContact(id: $0, phase: $0 == id ? .ended : .moved, location: place($0, 30)) })
                down.removeAll { $0 == id }
            }
            #expect(touchOf.isEmpty, "round \(round): every touch ended")
            #expect(app.activeTouches.isEmpty)
        }
    }

    @Test func handlersEmitAndPassOnByDefaultAndConsumeWhenTold() {
        let handlers = HandlerTable([
            Handler(responder: "blue", trigger: .touchesBegan, action: "blue.began"),
            Handler(responder: "orange", trigger: .touchesBegan, action: "orange.began", payload: .object([("n", 1)]), passesOn: false),
            Handler(responder: "ViewController", trigger: .touchesBegan, action: "never"),
            Handler(responder: "orange", trigger: .touchesEnded, action: "orange.ended"),
        ])
        var app = Application(tree: seedExperimentTree(), handlers: handlers)
        let began = app.send(frame(1.0, contact(1, .began, 70, 150)))
        #expect(began.flatMap(\.actions).map(\.name) == ["blue.began", "orange.began"])
        #expect(began[0].calls.map(\.responder) == ["blue", "orange"], "orange consumed it")
        #expect(began[0].actions[1].payload == .object([("n", 1)]))
        #expect(began[0].actions[1].view == "blue")
        #expect(began[0].unhandled.isEmpty)
        let ended = app.send(frame(1.1, contact(1, .ended, 70, 150)))
        #expect(ended.flatMap(\.actions).map(\.name) == ["orange.ended"])
        #expect(ended[0].calls.last?.responder == "app_delegate")
    }

    @Test func twoFingersLandingInOneFrameOnOneViewGiveOneCallWithTwoTouches() {
        var tree = seedExperimentTree()
        try? tree.updateView("blue") { $0.isMultipleTouchEnabled = true }
        var app = Application(tree: tree)
        let r = app.send(frame(1.0, contact(1, .began, 60, 140), contact(2, .began, 80, 160)))
        let blueCalls = r[0].calls.filter { $0.responder == "blue" }
        #expect(blueCalls.count == 1)
        #expect(blueCalls[0].touches.count == 2)
        #expect(r[0].hits.count == 2)
    }

    @Test func twoFingersLandingOneAfterTheOtherGiveTwoCalls() {
        var tree = seedExperimentTree()
        try? tree.updateView("blue") { $0.isMultipleTouchEnabled = true }
        var app = Application(tree: tree)
        let first = app.send(frame(1.0, contact(1, .began, 60, 140)))
        let second = app.send(frame(1.02, contact(1, .stationary, 60, 140), contact(2, .began, 80, 160)))
        #expect(first[0].calls.filter { $0.responder == "blue" }.map(\.touches.count) == [1])
        #expect(second[0].calls.filter { $0.responder == "blue" }.map(\.touches.count) == [1])
        #expect(second[0].event.allTouches.count == 2)
    }

    @Test func anEventGivesTheTouchesOfAViewAndOfAWindow() throws {
        var tree = seedExperimentTree()
        try tree.updateView("blue") { $0.isMultipleTouchEnabled = true }
        var app = Application(tree: tree)
        // Two fingers on blue, one on green (window (220, 120) to (320, 220)).
        let r = app.send(frame(1.0, contact(1, .began, 60, 140), contact(2, .began, 80, 160), contact(3, .began, 250, 150)))
        let event = r[0].event
        #expect(event.type == .touches)
        #expect(event.timestamp == 1.0)
        #expect(event.allTouches.map(\.id) == [1, 2, 3])
        #expect(event.touches(for: "blue").map(\.id) == [1, 2])
        #expect(event.touches(for: "green").map(\.id) == [3])
        #expect(event.touches(for: "orange").isEmpty, "a touch belongs to its hit-test view only")
        #expect(event.touches(forWindow: "window").map(\.id) == [1, 2, 3])
        #expect(event.touches(forWindow: "elsewhere").isEmpty)
    }

    @Test func stationaryTouchesAreInAllTouchesButNotInTouchesMoved() throws {
        var tree = seedExperimentTree()
        try tree.updateView("blue") { $0.isMultipleTouchEnabled = true }
        var app = Application(tree: tree)
        _ = app.send(frame(1.0, contact(1, .began, 60, 140), contact(2, .began, 80, 160)))
        let r = app.send(frame(1.01, contact(1, .moved, 62, 141), contact(2, .stationary, 80, 160)))
        let moved = r[0].calls.filter { $0.responder == "blue" }
        #expect(moved.count == 1)
        #expect(moved[0].trigger == .touchesMoved)
        #expect(moved[0].touches == [1])
        #expect(r[0].event.allTouches.map(\.phase) == [.moved, .stationary])
        let t = try #require(r[0].event.allTouches.first)
        #expect(t.previousLocationInWindow == Point(x: 60, y: 140))
        #expect(t.location(in: "blue", of: app.tree) == Point(x: 22, y: 21))
        #expect(t.previousLocation(in: "blue", of: app.tree) == Point(x: 20, y: 20))
        #expect(t.location(in: nil, of: app.tree) == Point(x: 62, y: 141))
    }

    @Test func touchesOnDifferentViewsInOneFrameGiveOneCallPerView() {
        var app = Application(tree: seedExperimentTree())
        // blue at (70,150); green at window (20+200+10, 100+20+10) = (230,130)
        let r = app.send(frame(1.0, contact(1, .began, 70, 150), contact(2, .began, 230, 130)))
        let firstCalls = r[0].calls.filter { ["blue", "green"].contains($0.responder) }
        #expect(firstCalls.map(\.responder) == ["blue", "green"])
        #expect(r[0].calls.filter { $0.responder == "orange" }.count == 2, "each call walks its own chain")
    }

    @Test func aViewWithoutMultipleTouchGetsOnlyItsFirstTouch() {
        var app = Application(tree: seedExperimentTree())
        let r1 = app.send(frame(1.0, contact(1, .began, 60, 140)))
        let r2 = app.send(frame(1.1, contact(1, .stationary, 60, 140), contact(2, .began, 80, 160)))
        #expect(r1[0].hits[0].delivery == .delivered)
        #expect(r2[0].hits[0].delivery == .multipleTouchDisabled)
        #expect(r2[0].calls.isEmpty)
        let r3 = app.send(frame(1.2, contact(1, .ended, 60, 140), contact(2, .ended, 80, 160)))
        #expect(r3[0].calls.filter { $0.responder == "blue" }.map(\.touches) == [[1]])
        // Two at once on such a view: only the first is delivered.
        let r4 = app.send(frame(2.0, contact(3, .began, 60, 140), contact(4, .began, 80, 160)))
        #expect(r4[0].hits.map(\.delivery) == [.delivered, .multipleTouchDisabled])
        #expect(r4[0].calls.filter { $0.responder == "blue" }.map(\.touches) == [[3]])
    }

    @Test func eachOfManyWindowsCountsItsOwnDeliveredTouchesAsTheyComeAndGo() throws {
        // More windows than keep an entry once their touches have lifted: entries go and come back.
        // Each window has two views without multiple touch, left and right.
        let windows = 12
        var tree = ViewTree()
        for k in 0..<windows {
            try tree.addWindow(ResponderID("w\(k)"), WindowProperties(size: Size(width: 100, height: 100), display: "d\(k)"))
            try tree.addView(ResponderID("left\(k)"), parent: ResponderID("w\(k)"), view(rect(0, 0, 50, 100)))
            try tree.addView(ResponderID("right\(k)"), parent: ResponderID("w\(k)"), view(rect(50, 0, 50, 100)))
        }
        var app = Application(tree: tree)
        var t = 1.0
        func send(_ id: UInt64, _ phase: TouchPhase, x: Double, in k: Int) -> DispatchReport? {
            t += 0.01
            return app.send(frame(t, contact(id, phase, x, 50), device: "dev\(k)", window: ResponderID("w\(k)"))).first
        }
        func land(_ id: UInt64, x: Double = 25, in k: Int) -> TouchDelivery? { send(id, .began, x: x, in: k)?.hits.first?.delivery }
        func lift(_ id: UInt64, x: Double = 25, in k: Int) { _ = send(id, .ended, x: x, in: k) }
        for round in 0..<3 {
            let base = UInt64(round * 100)
            for k in 0..<windows { #expect(land(base + UInt64(k), in: k) == .delivered, "round \(round), window \(k)") }
            for k in [0, windows - 1] {
                // A second finger on the other view is delivered; on the same view it is not.
                #expect(land(base + 50, x: 75, in: k) == .delivered)
                #expect(land(base + 51, in: k) == .multipleTouchDisabled)
                lift(base + 51, in: k)
                lift(base + 50, x: 75, in: k)
                // The first finger is still down: its window still counts it.
                #expect(land(base + 52, in: k) == .multipleTouchDisabled, "round \(round), window \(k)")
                lift(base + 52, in: k)
            }
            for k in 0..<windows { lift(base + UInt64(k), in: k) }
            #expect(app.activeTouches.isEmpty)
        }
    }

    @Test func aWindowWithMoreTouchedViewsThanItListsStillCountsEachView() throws {
        // 24 views without multiple touch side by side, each touched at once: more views than a
        // window lists before it keeps a table, then back to none and to the list.
        let views = 24
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 240, height: 100)))
        for k in 0..<views { try tree.addView(ResponderID("v\(k)"), parent: "w", view(rect(Double(k) * 10, 0, 10, 100))) }
        var app = Application(tree: tree)
        var t = 1.0
        func send(_ id: UInt64, _ phase: TouchPhase, on k: Int) -> TouchDelivery? {
            t += 0.01
            return app.send(frame(t, contact(id, phase, Double(k) * 10 + 5, 50), window: "w")).first?.hits.first?.delivery
        }
        for round in 0..<2 {
            let base = UInt64(round * 100)
            for k in 0..<views { #expect(send(base + UInt64(k), .began, on: k) == .delivered, "round \(round), view \(k)") }
            // Every view counts its touch, the first listed and the last tabled alike.
            for k in [0, 15, 16, views - 1] {
                #expect(send(base + 50, .began, on: k) == .multipleTouchDisabled, "round \(round), view \(k)")
                _ = send(base + 50, .ended, on: k)
            }
            // A view whose touch lifted takes a new one.
            _ = send(base + 3, .ended, on: 3)
            #expect(send(base + 60, .began, on: 3) == .delivered)
            _ = send(base + 60, .ended, on: 3)
            for k in 0..<views where k != 3 { _ = send(base + UInt64(k), .ended, on: k) }
            #expect(app.activeTouches.isEmpty)
            // Back to the list: one view, two fingers.
            #expect(send(base + 70, .began, on: 7) == .delivered)
            #expect(send(base + 71, .began, on: 7) == .multipleTouchDisabled)
            _ = send(base + 71, .ended, on: 7)
            _ = send(base + 70, .ended, on: 7)
        }
    }

    @Test func exclusiveTouchBlocksOtherViewsOfTheWindow() throws {
        var tree = seedExperimentTree()
        try tree.updateView("green") { $0.isExclusiveTouch = true }
        var app = Application(tree: tree)
        // Green tracks a touch: a touch on blue is not delivered.
        _ = app.send(frame(1.0, contact(1, .began, 230, 130)))
        let blocked = app.send(frame(1.1, contact(1, .stationary, 230, 130), contact(2, .began, 70, 150)))
        #expect(blocked[0].hits[0].delivery == .exclusiveTouchElsewhere)
        _ = app.send(frame(1.2, contact(1, .ended, 230, 130), contact(2, .ended, 70, 150)))
        // Blue tracks a touch: a touch on exclusive green is not delivered.
        _ = app.send(frame(2.0, contact(3, .began, 70, 150)))
        let blocked2 = app.send(frame(2.1, contact(3, .stationary, 70, 150), contact(4, .began, 230, 130)))
        #expect(blocked2[0].hits[0].delivery == .exclusiveTouchElsewhere)
        // Without exclusive touch, both are delivered.
        var plain = Application(tree: seedExperimentTree())
        _ = plain.send(frame(1.0, contact(1, .began, 230, 130)))
        #expect(plain.send(frame(1.1, contact(1, .stationary, 230, 130), contact(2, .began, 70, 150)))[0].hits[0].delivery == .delivered)
    }

    @Test func exclusiveTouchIsKeptTrackOfAsViewsAreChangedAndRemoved() throws {
        // A touch-down looks at the other touched views only while some view is exclusive-touch:
        // the tree's count of them must follow every change, or a touch would be let through.
        var tree = seedExperimentTree()
        try tree.updateView("green") { $0.isExclusiveTouch = true }
        try tree.updateView("black") { $0.isExclusiveTouch = true }
        var app = Application(tree: tree)
        _ = try app.removeView("black", timestamp: InputTime(seconds: 0.5))
        try app.updateView("green") { $0.alpha = 0.9 }
        try app.updateView("orange") { $0.isExclusiveTouch = false }
        let green = (x: 230.0, y: 130.0), blue = (x: 70.0, y: 150.0)
        /// A first finger lands at `a`, a second at `b` while it rests, both lift: the second's delivery.
        func secondLanding(at t: Double, ids: UInt64, _ a: (x: Double, y: Double), then b: (x: Double, y: Double)) -> TouchDelivery? {
            _ = app.send(frame(t, contact(ids, .began, a.x, a.y)))
            let second = app.send(frame(t + 0.1, contact(ids, .stationary, a.x, a.y), contact(ids + 1, .began, b.x, b.y)))
            _ = app.send(frame(t + 0.2, contact(ids, .ended, a.x, a.y), contact(ids + 1, .ended, b.x, b.y)))
            return second.first?.hits.first?.delivery
        }
        #expect(secondLanding(at: 1, ids: 1, green, then: blue) == .exclusiveTouchElsewhere)
        // Exclusive touch moved from green to blue between events.
        try app.updateView("green") { $0.isExclusiveTouch = false }
        try app.updateView("blue") { $0.isExclusiveTouch = true }
        #expect(secondLanding(at: 2, ids: 3, blue, then: green) == .exclusiveTouchElsewhere)
        // None left: both delivered.
        try app.updateView("blue") { $0.isExclusiveTouch = false }
        #expect(secondLanding(at: 3, ids: 5, blue, then: green) == .delivered)
        #expect(app.activeTouches.isEmpty)
    }

    @Test func theHitViewIsFixedForTheTouchsLife() throws {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        let r = app.send(frame(1.1, contact(1, .moved, 300, 600)))
        let touch = try #require(r[0].changedTouches.first)
        #expect(touch.view == "blue")
        #expect(r[0].calls.first?.responder == "blue")
        #expect(touch.location(in: "blue", of: app.tree) == Point(x: 260, y: 480))
    }

    @Test func aTouchOutsideEveryViewStillBelongsToTheWindow() {
        var tree = ViewTree()
        try? tree.addWindow("window", WindowProperties(size: Size(width: 100, height: 100)))
        var app = Application(tree: tree)
        let r = app.send(frame(1.0, contact(1, .began, 500, 500)))
        #expect(r[0].hits[0].view == nil)
        #expect(r[0].hits[0].delivery == .noView)
        #expect(r[0].calls.isEmpty)
        #expect(app.send(frame(1.1, contact(1, .ended, 500, 500)))[0].changedTouches.map(\.phase) == [.ended])
        #expect(app.activeTouches.isEmpty)
    }

    @Test func touchPropertiesComeFromTheInput() throws {
        var app = Application(tree: seedExperimentTree())
        let c = InputContact(
            id: 7, phase: .began, location: Point(x: 70, y: 150), majorRadius: 5.5, majorRadiusTolerance: 0.5,
            force: 1.2, maximumPossibleForce: 6.67)
        let r = app.send(InputFrame(device: "pad", window: "window", timestamp: 12.5, contacts: [c]))
        let t = try #require(r[0].changedTouches.first)
        #expect(t.majorRadius == 5.5)
        #expect(t.majorRadiusTolerance == 0.5)
        #expect(t.force == 1.2)
        #expect(t.maximumPossibleForce == 6.67)
        #expect(t.timestamp == 12.5)
        #expect(t.device == "pad")
        #expect(t.contact == 7)
        #expect(t.window == "window")
        #expect(t.phase == .began)
    }

    @Test func removingAViewCancelsItsTouchesThroughTheChainTheyBeganIn() throws {
        let handlers = HandlerTable([Handler(responder: "orange", trigger: .touchesCancelled, action: "orange.cancelled")])
        var app = Application(tree: seedExperimentTree(), handlers: handlers)
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        let report = try #require(try app.removeView("orange", timestamp: 1.5))
        #expect(report.calls.map(\.responder).prefix(3) == ["blue", "orange", "root"])
        #expect(report.calls.allSatisfy { $0.trigger == .touchesCancelled })
        #expect(report.actions.map(\.name) == ["orange.cancelled"])
        #expect(app.activeTouches.isEmpty)
        #expect(app.tree.kind(of: "blue") == nil)
        // The finger's later moves and lift are ignored, and are no fault of the device: touchd
        // cancelled its touch, the finger stayed down.
        let moved = app.send(frame(1.55, contact(1, .moved, 72, 150)))
        let later = app.send(frame(1.6, contact(1, .ended, 72, 150)))
        #expect(moved.allSatisfy { $0.calls.isEmpty && $0.anomalies.isEmpty }, "\(moved.map(\.anomalies))")
        #expect(later.allSatisfy { $0.calls.isEmpty && $0.anomalies.isEmpty }, "\(later.map(\.anomalies))")
        // Once lifted, the contact is a stray again; landing, it is a new touch.
        let stray = app.send(frame(1.7, contact(1, .moved, 72, 150)))
        #expect(stray.flatMap(\.anomalies) == ["device dev: contact 1 moved without a touch-down"])
        let again = app.send(frame(1.8, contact(1, .began, 300, 600)))
        #expect(again.flatMap(\.changedTouches).map(\.phase) == [.began])
    }

    @Test func aContactCancelledAndLandingAgainBeforeItsLiftIsANewTouch() throws {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        _ = try app.removeView("orange", timestamp: 1.5)
        // The device lost the lift (a dropped report): the contact lands again.
        let again = app.send(frame(1.6, contact(1, .began, 300, 600)))
        #expect(again.flatMap(\.changedTouches).map(\.phase) == [.began])
        #expect(again.allSatisfy { $0.anomalies.isEmpty })
        let lifted = app.send(frame(1.7, contact(1, .ended, 300, 600)))
        #expect(lifted.flatMap(\.changedTouches).map(\.phase) == [.ended])
    }

    @Test func cancelAllTouchesCancelsEveryLiveTouchOnce() {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150), contact(2, .began, 230, 130)))
        let report = app.cancelAllTouches(timestamp: 2.0)
        #expect(report?.changedTouches.map(\.phase) == [.cancelled, .cancelled])
        #expect(app.cancelAllTouches(timestamp: 2.1) == nil)
        #expect(app.statistics.touchesCancelled == 2)
    }

    @Test func deviceRemovalCancelsOnlyThatDevicesTouches() {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150), device: "a"))
        _ = app.send(frame(1.0, contact(1, .began, 230, 130), device: "b"))
        let report = app.cancelTouches(ofDevice: "a", timestamp: 1.5)
        #expect(report?.changedTouches.map(\.device) == ["a"])
        #expect(app.activeTouches.map(\.device) == ["b"])
    }

    @Test func anomaliesAreReportedNotFatal() {
        var app = Application(tree: seedExperimentTree())
        let r = app.send(frame(1.0, contact(9, .moved, 70, 150), contact(9, .began, 70, 150)))
        #expect(r[0].anomalies.count == 2, "a move without touch-down, then the same contact twice")
        let dup = app.send(frame(1.0, contact(1, .began, 70, 150), contact(1, .began, 70, 150)))
        #expect(dup[0].anomalies.count == 1)
    }
}
