import Testing
import TouchCore

/// Forwarded touches ahead of their dispatch (``Application/forwardAhead(_:)``): the moves and
/// lifts that no dispatch can change go on as their frame arrives, and the dispatch does not
/// play them again, so each touch's steps on its virtual touchscreen are those of the dispatch
/// alone.
@Suite(.timeLimit(.minutes(10))) struct ForwardingAheadTests {
    /// The tree of ``ForwardingTests``: `app` fills a 1000 × 1000 window, `child` inside it at the
    /// bottom right, `corner` a sibling above it in the top left; the window at `refreshRate`.
    func application(
        modes: [ResponderID: ForwardMode] = ["app": .unclaimed], handlers: [Handler] = [], recognizers: [GestureRecognizerSpec] = [],
        refreshRate: Double = 0
    ) -> Application {
        var tree = ViewTree()
        do {
            try tree.addWindow(
                "window", WindowProperties(size: Size(width: 1000, height: 1000), isKey: true, pointsPerMillimetre: 4, refreshRate: refreshRate))
            try tree.addView("app", parent: "window", view(rect(0, 0, 1000, 1000)))
            try tree.addView("child", parent: "app", view(rect(800, 800, 200, 200)))
            try tree.addView("corner", parent: "window", view(rect(0, 0, 100, 100)))
        } catch {
            Issue.record("fixture tree: \(error)")
        }
        var app = Application(tree: tree, handlers: HandlerTable(handlers), gestureRecognizers: recognizers)
        app.forwardModes = modes
        return app
    }

    /// What went on, as the daemon plays it: a frame's steps ahead of it as it arrives, then its
    /// dispatch's (and the ticks' before it).
    struct Played {
        var ahead: [ForwardedTouch] = []
        var all: [ForwardedTouch] = []
    }

    /// Sends `frames` as the daemon does with `ahead`, or as the dispatch alone plays them; then
    /// dispatches what waits and fires the timers left.
    func play(_ app: inout Application, _ frames: [InputFrame], ahead: Bool) -> Played {
        var played = Played()
        for frame in frames {
            // The ticks before the frame come first, as the daemon's display timer fires them.
            for report in app.dispatchDue(by: frame.timestamp.justBefore) { played.all += report.forwarded }
            if ahead {
                let steps = app.forwardAhead(frame)
                played.ahead += steps
                played.all += steps
            }
            for report in app.send(frame) { played.all += report.forwarded }
        }
        for report in app.dispatchAll() { played.all += report.forwarded }
        if let report = app.flushTimers() { played.all += report.forwarded }
        return played
    }

    func steps(_ touches: [ForwardedTouch]) -> [String] {
        touches.map { "\($0.touch) \($0.phase.rawValue) \(Int($0.location.x)),\(Int($0.location.y))" }
    }

    /// Each touch's steps, in order.
    func byTouch(_ touches: [ForwardedTouch]) -> [TouchID: [String]] {
        Dictionary(grouping: touches, by: \.touch).mapValues(steps)
    }

    /// A finger down at (x, y), moved right by 10 points a frame `moves` times, lifted.
    func drag(id: UInt64 = 1, x: Double, y: Double, t: Double = 1, moves: Int = 2, step: Double = 0.05) -> [InputFrame] {
        var frames = [frame(t, contact(id, .began, x, y))]
        for k in 1...moves { frames.append(frame(t + Double(k) * step, contact(id, .moved, x + Double(10 * k), y))) }
        frames.append(frame(t + Double(moves + 1) * step, contact(id, .ended, x + Double(10 * moves), y)))
        return frames
    }

    @Test func theMovesAndLiftOfATouchNothingCanClaimGoAheadOfTheirDispatch() {
        var app = application()
        let played = play(&app, drag(x: 500, y: 500), ahead: true)
        #expect(steps(played.ahead) == ["1 moved 510,500", "1 moved 520,500", "1 ended 520,500"])
        #expect(steps(played.all) == ["1 began 500,500", "1 moved 510,500", "1 moved 520,500", "1 ended 520,500"])
        var alone = application()
        #expect(steps(play(&alone, drag(x: 500, y: 500), ahead: false).all) == steps(played.all))
    }

    @Test func nothingGoesAheadWhereNothingIsForwarded() {
        var app = application(modes: ["app": .none])
        #expect(play(&app, drag(x: 500, y: 500), ahead: true).all.isEmpty)
        var consumed = application(handlers: [Handler(responder: "app", trigger: .touchesBegan, action: "mine", passesOn: false)])
        #expect(play(&consumed, drag(x: 500, y: 500), ahead: true).all.isEmpty, "a consumed touch-down keeps the touch")
    }

    /// A recognizer that might still claim the touch (`cancels_touches_in_view`) keeps its steps
    /// at dispatch, where it may cancel it instead; once it failed, the rest goes ahead.
    @Test func aRecognizerThatMightClaimTheTouchKeepsItsStepsAtDispatchUntilItFails() {
        // Allowable movement 10 mm = 40 points: the fifth move (50 points) fails the long press.
        let hold = GestureRecognizerSpec(
            id: "hold", view: "app", kind: .longPress(minimumDuration: 0.5, allowableMovementMillimetres: 10, touches: 1), action: "held")
        var app = application(recognizers: [hold])
        let played = play(&app, drag(x: 500, y: 500, moves: 7, step: 0.01), ahead: true)
        #expect(steps(played.ahead) == ["1 moved 560,500", "1 moved 570,500", "1 ended 570,500"])
        var alone = application(recognizers: [hold])
        #expect(steps(play(&alone, drag(x: 500, y: 500, moves: 7, step: 0.01), ahead: false).all) == steps(played.all))
    }

    @Test func aTouchARecognizerClaimsIsCancelledAsWithoutGoingAhead() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")
        var app = application(recognizers: [hold])
        // Held still past the long press's half second, then moved and lifted.
        let frames = [frame(1, contact(1, .began, 500, 500)), frame(1.6, contact(1, .moved, 501, 500)), frame(1.7, contact(1, .ended, 501, 500))]
        let played = play(&app, frames, ahead: true)
        #expect(played.ahead.isEmpty)
        #expect(steps(played.all) == ["1 began 500,500", "1 cancelled 500,500"])
    }

    /// A recognizer that lets the views keep the touch (`cancels_touches_in_view = false`) cannot
    /// change its moves; one that holds lifts back (`delays_touches_ended`) keeps its lift at
    /// dispatch.
    @Test(arguments: [true, false])
    func aRecognizerThatLetsTheTouchBeKeepsOnlyTheLiftItMayHoldBack(delaysEnded: Bool) {
        let double = GestureRecognizerSpec(
            id: "double", view: "app", kind: .tap(taps: 2, touches: 1), cancelsTouchesInView: false, delaysTouchesEnded: delaysEnded)
        var app = application(recognizers: [double])
        let played = play(&app, drag(x: 500, y: 500), ahead: true)
        #expect(steps(played.ahead) == ["1 moved 510,500", "1 moved 520,500"] + (delaysEnded ? [] : ["1 ended 520,500"]))
        var alone = application(recognizers: [double])
        #expect(steps(play(&alone, drag(x: 500, y: 500), ahead: false).all) == steps(played.all))
    }

    @Test func everyMoveGoesAheadWhereTheModeIsAll() {
        let hold = GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")
        var app = application(modes: ["app": .all], recognizers: [hold])
        let played = play(&app, drag(x: 500, y: 500), ahead: true)
        #expect(steps(played.ahead) == ["1 moved 510,500", "1 moved 520,500", "1 ended 520,500"])
    }

    /// A touch-down or lift queued before the frame may change what the recognizers do: while one
    /// waits, nothing goes ahead.
    @Test func nothingGoesAheadOfAnEventStillInTheQueue() {
        var app = application()
        _ = app.send(frame(1, contact(1, .began, 500, 500)))
        #expect(app.enqueue(frame(1.01, contact(1, .moved, 510, 500), contact(2, .began, 200, 200))) == .queued)
        #expect(app.forwardAhead(frame(1.02, contact(1, .moved, 520, 500), contact(2, .moved, 210, 200))).isEmpty)
        _ = app.dispatchAll()
        #expect(steps(app.forwardAhead(frame(1.03, contact(1, .moved, 530, 500), contact(2, .moved, 220, 200)))) == [
            "1 moved 530,500", "2 moved 220,200",
        ])
    }

    /// Moves waiting in the queue (a backlog, several frames from one read) cannot change what the
    /// recognizers may do with a touch: the next frame goes ahead of them. A queued move older than
    /// one that went ahead is not played after it (the finger would go back).
    @Test func aFrameGoesAheadOfMovesStillInTheQueue() {
        var app = application()
        _ = app.send(frame(1, contact(1, .began, 500, 500)))
        #expect(app.enqueue(frame(1.01, contact(1, .moved, 510, 500))) == .queued)
        #expect(steps(app.forwardAhead(frame(1.02, contact(1, .moved, 520, 500)))) == ["1 moved 520,500"])
        #expect(app.enqueue(frame(1.02, contact(1, .moved, 520, 500))) == .queued)
        #expect(steps(app.forwardAhead(frame(1.03, contact(1, .moved, 530, 500)))) == ["1 moved 530,500"])
        #expect(app.enqueue(frame(1.03, contact(1, .moved, 530, 500))) == .queued)
        #expect(app.dispatchAll().flatMap(\.forwarded).isEmpty)
        #expect(steps(app.send(frame(1.04, contact(1, .moved, 540, 500))).flatMap(\.forwarded)) == ["1 moved 540,500"], "not gone ahead: at dispatch")
    }

    /// At a display rate the application gets the moves at the tick, but a forwarded touch's go on
    /// one by one as they come; the tick plays none again.
    @Test func atADisplayRateEachMoveGoesOnAsItComesAndTheTickRepeatsNone() {
        var app = application(refreshRate: 60)
        let frames = drag(x: 500, y: 500, moves: 20, step: 0.001)
        let played = play(&app, frames, ahead: true)
        #expect(played.ahead.count == 21, "20 moves and the lift")
        #expect(steps(played.all) == ["1 began 500,500"] + (1...20).map { "1 moved \(500 + 10 * $0),500" } + ["1 ended 700,500"])
        var alone = application(refreshRate: 60)
        let dispatched = play(&alone, frames, ahead: false).all
        #expect(dispatched.count < played.all.count, "the ticks merge moves")
        #expect(steps(dispatched).first == "1 began 500,500")
        #expect(steps(dispatched).last == "1 ended 700,500")
    }

    /// A stationary contact is no step.
    @Test func aContactThatStandsStillDoesNotGoAhead() {
        var app = application()
        _ = app.send(frame(1, contact(1, .began, 500, 500)))
        #expect(app.forwardAhead(frame(1.01, contact(1, .moved, 500, 500))).isEmpty)
    }

    /// Random streams of up to three fingers over random settings: every touch's steps on the
    /// virtual touchscreen are the same with and without going ahead (at a display rate of 0; at
    /// 60 Hz, the same touch-downs, lifts and cancellations, and every move the ticks play among
    /// those that went on).
    @Test(arguments: 0..<200)
    func goingAheadChangesNoTouchsStepsOnRandomStreams(seed: Int) {
        var dice = SeededDice(seed: UInt64(seed))
        let setting = dice.next(6)
        let modes: [ResponderID: ForwardMode] =
            setting == 5 ? ["window": .unclaimed, "corner": .all] : [dice.next(2) == 0 ? "app" : "window": .unclaimed]
        var recognizers: [GestureRecognizerSpec] = []
        var handlers: [Handler] = []
        switch setting {
        case 0: break
        case 1: recognizers = [GestureRecognizerSpec(id: "hold", view: "app", kind: .defaultLongPress(), action: "held")]
        case 2:
            recognizers = [
                GestureRecognizerSpec(id: "double", view: "app", kind: .tap(taps: 2, touches: 1), cancelsTouchesInView: dice.next(2) == 0)
            ]
        case 3: recognizers = [GestureRecognizerSpec(id: "pan", view: "child", kind: .defaultPan(), delaysTouchesBegan: dice.next(2) == 0)]
        case 4: handlers = [Handler(responder: "child", trigger: .touchesBegan, action: "mine", passesOn: false)]
        default:
            recognizers = [GestureRecognizerSpec(id: "swipe", view: "corner", kind: .swipe(directions: [.left, .right], touches: 1, minimumDistanceMillimetres: 5, maximumDuration: 0.5))]
        }
        let frames = randomStream(&dice)
        for rate in [0.0, 60] {
            var ahead = application(modes: modes, handlers: handlers, recognizers: recognizers, refreshRate: rate)
            var alone = application(modes: modes, handlers: handlers, recognizers: recognizers, refreshRate: rate)
            let played = play(&ahead, frames, ahead: true)
            let withAhead = byTouch(played.all)
            if setting == 0 && rate == 0 {
                // Nothing can take a touch, and each frame is dispatched before the next comes:
                // every step but the touch-downs goes ahead.
                #expect(steps(played.ahead) == steps(played.all.filter { $0.phase != .began }), "seed \(seed)")
            }
            let without = byTouch(play(&alone, frames, ahead: false).all)
            if rate == 0 {
                #expect(withAhead == without, "seed \(seed), setting \(setting)")
            } else {
                #expect(withAhead.mapValues { $0.filter { !$0.contains("moved") } } == without.mapValues { $0.filter { !$0.contains("moved") } })
                for (touch, dispatched) in without {
                    let went = Set(withAhead[touch] ?? [])
                    #expect(dispatched.allSatisfy(went.contains), "seed \(seed), touch \(touch)")
                }
            }
        }
    }

    /// Up to three fingers landing, moving by up to 30 points a frame (sometimes not at all) and
    /// lifting over about 80 frames at 1 to 30 ms apart.
    func randomStream(_ dice: inout SeededDice) -> [InputFrame] {
        var frames: [InputFrame] = []
        var down: [UInt64: Point] = [:]
        var next: UInt64 = 1
        var t = 1.0
        for _ in 0..<80 {
            t += Double(1 + dice.next(30)) / 1000
            var contacts: [InputContact] = []
            for id in down.keys.sorted() {
                guard let p = down[id] else { continue }
                switch dice.next(20) {
                case 0:
                    contacts.append(contact(id, .ended, p.x, p.y))
                    down[id] = nil
                case 1:
                    contacts.append(contact(id, .moved, p.x, p.y))
                default:
                    let moved = Point(x: min(999, max(0, p.x + Double(dice.next(61) - 30))), y: min(999, max(0, p.y + Double(dice.next(61) - 30))))
                    contacts.append(contact(id, .moved, moved.x, moved.y))
                    down[id] = moved
                }
            }
            if down.count < 3 && dice.next(8) == 0 {
                let p = Point(x: Double(dice.next(1000)), y: Double(dice.next(1000)))
                contacts.append(contact(next, .began, p.x, p.y))
                down[next] = p
                next += 1
            }
            if !contacts.isEmpty { frames.append(InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)) }
        }
        t += 0.01
        let lifts = down.keys.sorted().compactMap { id in down[id].map { contact(id, .ended, $0.x, $0.y) } }
        if !lifts.isEmpty { frames.append(InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: lifts)) }
        return frames
    }
}

/// A small deterministic generator (SplitMix64) for the random streams.
struct SeededDice {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(max(bound, 1)))
    }
}
