import PropertyBased
import Testing
import TouchCore
#if canImport(Glibc)
import Glibc
#endif

/// How many generated cases each property runs: 300, or `TOUCHD_PROPERTY_COUNT` for a deeper run.
let propertyCount = getenv("TOUCHD_PROPERTY_COUNT").flatMap { Int(String(cString: $0)) } ?? 300

/// Invariants that must hold for any input, checked on generated trees and touch streams.
@Suite(.timeLimit(.minutes(10))) struct PropertyTests {
    /// A deterministic stream of numbers from the generated seed list.
    struct Dice {
        var numbers: [Int]
        var i = 0
        mutating func next(_ bound: Int) -> Int {
            defer { i += 1 }
            return numbers.isEmpty ? 0 : numbers[i % numbers.count] % max(bound, 1)
        }
    }

    /// A random tree of up to ~30 views with random frames, visibility, interaction and policies.
    /// Each recognizer's states, one list per cycle between resets. A record lists every touch
    /// the recognizer has seen since its last reset, so a cycle is the run of records that share
    /// their first touch (a timer's record after the last finger lifted included).
    func gestureCycles(_ records: [GestureRecord]) -> [ResponderID: [[GestureState]]] {
        var cycles: [ResponderID: [[GestureState]]] = [:]
        var firstTouch: [ResponderID: TouchID] = [:]
        for record in records {
            guard let first = record.touches.first else { continue }
            if firstTouch[record.recognizer] == first {
                cycles[record.recognizer]![cycles[record.recognizer]!.count - 1].append(record.state)
            } else {
                firstTouch[record.recognizer] = first
                cycles[record.recognizer, default: []].append([record.state])
            }
        }
        return cycles
    }

    static func randomTree(_ dice: inout Dice) -> ViewTree {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 400, height: 400)))
        var ids: [ResponderID] = ["window"]
        let count = 1 + dice.next(30)
        for n in 0..<count {
            let id = ResponderID("v\(n)")
            let parent = ids[dice.next(ids.count)]
            var props = ViewProperties(
                frame: Rect(x: Double(dice.next(300)) - 20, y: Double(dice.next(300)) - 20,
                            width: Double(dice.next(250)), height: Double(dice.next(250))))
            props.isHidden = dice.next(6) == 0
            props.isUserInteractionEnabled = dice.next(6) != 0
            props.alpha = [1, 0.5, 0.01, 0.005, 0][dice.next(5)]
            props.hitExpansion = EdgeInsets(all: Double(dice.next(3) * 5))
            props.boundsOrigin = Point(x: Double(dice.next(3) * 10), y: 0)
            switch dice.next(8) {
            case 0: props.hitTestPolicy = .passThrough
            case 1: props.hitTestPolicy = .capture
            default: break
            }
            try! tree.addView(id, parent: parent, props)
            ids.append(id)
        }
        // Some redirects to real descendants.
        for id in ids.dropFirst() where dice.next(10) == 0 {
            let descendants = tree.views(in: "window").filter { $0 != id && tree.isDescendant($0, of: id) }
            if !descendants.isEmpty {
                let target = descendants[dice.next(descendants.count)]
                try! tree.updateView(id) { $0.hitTestPolicy = .redirect(target) }
            }
        }
        return tree
    }

    /// Handlers on random views and the window: some consume every touch method (an override that
    /// never calls `super`), others only watch and pass the calls on.
    static func randomHandlers(_ dice: inout Dice, tree: ViewTree) -> [Handler] {
        let responders = ["window"] + tree.views(in: "window")
        var handlers: [Handler] = []
        for _ in 0..<dice.next(6) {
            let responder = responders[dice.next(responders.count)]
            let consumes = dice.next(2) == 0
            for trigger in HandlerTrigger.touchMethods {
                handlers.append(Handler(responder: responder, trigger: trigger, action: "\(responder).\(trigger.methodName)", passesOn: !consumes))
            }
        }
        return handlers
    }

    /// Up to four recognizers of random kinds and options on random views.
    static func randomRecognizers(_ dice: inout Dice, tree: ViewTree) -> [GestureRecognizerSpec] {
        let views = tree.views(in: "window")
        guard !views.isEmpty else { return [] }
        var specs: [GestureRecognizerSpec] = []
        for n in 0..<dice.next(5) {
            let kinds: [GestureKind] = [
                .tap(taps: 1 + dice.next(2), touches: 1), .defaultLongPress(), .defaultPan(),
                .swipe(directions: [.left, .right], touches: 1, minimumDistanceMillimetres: 5, maximumDuration: 0.5),
                .pinch(threshold: 1.1), .rotation(thresholdRadians: 0.2),
            ]
            var spec = GestureRecognizerSpec(id: ResponderID("g\(n)"), view: views[dice.next(views.count)], kind: kinds[dice.next(kinds.count)])
            spec.cancelsTouchesInView = dice.next(3) != 0
            spec.delaysTouchesBegan = dice.next(3) == 0
            spec.delaysTouchesEnded = dice.next(3) != 0
            if n > 0 && dice.next(3) == 0 { spec.requiresFailureOf = [ResponderID("g\(dice.next(n))")] }
            if n > 0 && dice.next(3) == 0 { spec.recognizesSimultaneouslyWith = [ResponderID("g\(dice.next(n))")] }
            specs.append(spec)
        }
        return specs
    }

    /// The next frame of a random stream of five contacts over the 400×400 window, `time` advanced
    /// by 1–50 ms: contacts land, move, stand still, lift or are cancelled; some moves are garbage
    /// (for contacts that are not down). `down` holds the contacts down.
    static func randomFrame(_ dice: inout Dice, down: inout Set<UInt64>, time t: inout Double) -> InputFrame {
        t += Double(1 + dice.next(50)) / 1000
        var contacts: [InputContact] = []
        for id in UInt64(0)..<5 {
            let p = Point(x: Double(dice.next(420)) - 10, y: Double(dice.next(420)) - 10)
            let roll = dice.next(10)
            if down.contains(id) {
                let phase: TouchPhase = roll == 0 ? .ended : roll == 1 ? .cancelled : roll < 6 ? .moved : .stationary
                contacts.append(InputContact(id: id, phase: phase, location: p))
                if phase.isFinal { down.remove(id) }
            } else if roll < 3 {
                contacts.append(InputContact(id: id, phase: .began, location: p))
                down.insert(id)
            } else if roll == 9 {
                contacts.append(InputContact(id: id, phase: .moved, location: p))
            }
        }
        return InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)
    }

    /// A fixed case found by the generator: a touch whose end a recognizer held when its view was removed.
    @Test func aHeldEndIsCancelledWhenItsViewIsRemoved() throws {
        let tree = makeTree { try $0.addView("v0", parent: "window", view(rect(0, 0, 200, 200))) }
        let double = GestureRecognizerSpec(id: "g", view: "v0", kind: .tap(taps: 2, touches: 1))
        var app = Application(tree: tree, gestureRecognizers: [double])
        _ = app.send(frame(1, contact(1, .began, 50, 50)))
        let up = app.send(frame(1.05, contact(1, .ended, 50, 50)))
        #expect(!up.flatMap(\.calls).contains { $0.trigger == .touchesEnded }, "held by the double tap")
        let removal = try #require(try app.removeView("v0", timestamp: 1.1))
        #expect(removal.calls.first == ResponderCall(responder: "v0", trigger: .touchesCancelled, touches: [1]))
        #expect(app.flushTimers()?.calls.isEmpty ?? true, "and never delivered again")
    }

    @Test func aHitIsAlwaysAVisibleInteractiveDescendantOfTheWindowOrNothing() async {
        await propertyCheck(count: propertyCount, input: Gen.int(in: 0...1_000_000).array(of: 20...200)) { numbers in
            var dice = Dice(numbers: numbers)
            let tree = Self.randomTree(&dice)
            for _ in 0..<20 {
                let point = Point(x: Double(dice.next(460)) - 30, y: Double(dice.next(460)) - 30)
                guard let result = tree.hitTest(point, inWindow: "window", traced: true), let hit = result.view else {
                    continue
                }
                #expect(tree.window(of: hit) == "window")
                for step in tree.path(to: hit) {
                    let props = tree.properties(of: step)!
                    #expect(!props.isHidden, "hit \(hit) through hidden \(step)")
                    #expect(props.isUserInteractionEnabled, "hit \(hit) through non-interactive \(step)")
                    #expect(props.alpha >= 0.01, "hit \(hit) through transparent \(step)")
                }
                // The trace is balanced: every enter has its result, in nested order.
                var depth = 0
                for step in result.trace {
                    if case .enter = step.kind { depth += 1 } else { depth -= 1 }
                    #expect(depth >= 0)
                }
                #expect(depth == 0)
                #expect(tree.hitTest(point, inWindow: "window")?.view == hit, "tracing does not change the answer")
            }
        }
    }

    @Test func everyTouchThatBeginsEndsOrIsCancelledExactlyOnce() async {
        await propertyCheck(count: propertyCount, input: Gen.int(in: 0...1_000_000).array(of: 10...300)) { numbers in
            var dice = Dice(numbers: numbers)
            let tree = Self.randomTree(&dice)
            let handlers = HandlerTable(Self.randomHandlers(&dice, tree: tree))
            var app = Application(
                tree: tree, handlers: handlers, gestureRecognizers: Self.randomRecognizers(&dice, tree: tree),
                settings: ApplicationSettings(queueCapacity: 4 + dice.next(8), coalescingThreshold: 1 + dice.next(4)))
            var down: Set<UInt64> = []
            var reports: [DispatchReport] = []
            var t = 0.0
            for _ in 0..<(numbers.count / 3) {
                let f = Self.randomFrame(&dice, down: &down, time: &t)
                // Sometimes queue several frames before dispatching, so that the queue merges moves.
                if dice.next(3) == 0 {
                    if app.enqueue(f) == .full { reports += app.dispatchAll(); reports += app.send(f) }
                } else {
                    reports += app.send(f)
                }
                if dice.next(40) == 0, let victim = app.tree.views(in: "window").first {
                    if let r = try? app.removeView(victim, timestamp: InputTime(seconds: t)) { reports.append(r) }
                }
            }
            reports += app.dispatchAll()
            if let r = app.cancelAllTouches(timestamp: InputTime(seconds: t + 1)) { reports.append(r) }
            if let r = app.flushTimers() { reports.append(r) }

            let began = reports.flatMap(\.hits).map(\.touch)
            #expect(Set(began).count == began.count, "touch ids are never reused")
            var finals: [TouchID: Int] = [:]
            for touch in reports.flatMap(\.changedTouches) where touch.phase.isFinal { finals[touch.id, default: 0] += 1 }
            for id in began { #expect(finals[id] == 1, "touch \(id) finished \(finals[id] ?? 0) times") }
            #expect(finals.count == began.count)
            #expect(app.activeTouches.isEmpty)
            // No recognizer both recognizes (or begins) and fails between two resets.
            for (id, cycles) in gestureCycles(reports.flatMap(\.gestures)) {
                for cycle in cycles {
                    #expect(!((cycle.contains(.recognized) || cycle.contains(.began)) && cycle.contains(.failed)), "\(id): \(cycle)")
                }
            }
            // A touch's touchesBegan goes up its view's chain to the first responder that consumes it;
            // exactly those responders get exactly one final call for it, a touchesCancelled when the
            // touch itself was cancelled.
            let calls = reports.flatMap(\.calls)
            let lastPhase = Dictionary(reports.flatMap(\.changedTouches).map { ($0.id, $0.phase) }, uniquingKeysWith: { _, last in last })
            let viewOf = Dictionary(reports.flatMap(\.hits).map { ($0.touch, $0.view) }, uniquingKeysWith: { first, _ in first })
            for id in began {
                let sawBegin = calls.filter { $0.trigger == .touchesBegan && $0.touches.contains(id) }.map(\.responder)
                let finals = calls.filter { ($0.trigger == .touchesEnded || $0.trigger == .touchesCancelled) && $0.touches.contains(id) }
                if let view = viewOf[id] ?? nil, !sawBegin.isEmpty {
                    var expected: [ResponderID] = []
                    for responder in tree.responderChain(from: view) {
                        expected.append(responder)
                        if handlers.handlers(for: responder).contains(where: { $0.trigger == .touchesBegan && !$0.passesOn }) { break }
                    }
                    #expect(sawBegin == expected, "touch \(id): began at \(sawBegin), its chain to the first consumer is \(expected)")
                }
                #expect(finals.map(\.responder) == sawBegin, "touch \(id): began at \(sawBegin), finished at \(finals.map(\.responder))")
                if lastPhase[id] == .cancelled {
                    #expect(finals.allSatisfy { $0.trigger == .touchesCancelled }, "touch \(id) was cancelled: \(finals)")
                }
            }
        }
    }
}
