import Testing

@testable import TouchCore

/// Each kind's own machine in isolation, over its transition table (the doc comment beside its
/// `State`), then on seeded random touches. One point per millimetre, so that distances read as
/// points.
@Suite(.timeLimit(.minutes(10))) struct RecognizerMachineTests {
    static let t = TapSettings()  // 0.35 s between taps, 7 mm apart, 0.75 s long, 7 mm of slop

    // MARK: - Tap

    func doubleTap() -> TapRecognizer { TapRecognizer(taps: 2, fingers: 1, settings: Self.t, pointsPerMillimetre: 1) }

    @Test func tapTransitions() {
        let down: MachineInput = .touches(1, [touch(1, .began, 10, 10)])
        let lift: MachineInput = .touches(1.1, [touch(1, .ended, 10, 10)])
        let second: MachineInput = .touches(1.3, [touch(2, .began, 12, 10)])
        let first = Point(x: 10, y: 10)
        let rows: [MachineRow<TapRecognizer>] = [
            MachineRow(name: "a finger lands", prelude: [], input: down, outcome: RecognizerOutcome.none,
                       to: .tapping(completed: 0, first: nil, start: 1, fingers: 1)),
            MachineRow(name: "too many fingers", prelude: [], input: .touches(1, [touch(1, .began, 10, 10), touch(2, .began, 20, 10)]),
                       outcome: .failed, to: .idle),
            MachineRow(name: "moves within the slop", prelude: [down], input: .touches(1.05, [touch(1, .moved, 16, 10)]),
                       outcome: RecognizerOutcome.none, to: .tapping(completed: 0, first: nil, start: 1, fingers: 1)),
            MachineRow(name: "moves beyond the slop", prelude: [down], input: .touches(1.05, [touch(1, .moved, 18, 10)]),
                       outcome: .failed, to: .tapping(completed: 0, first: nil, start: 1, fingers: 1)),
            MachineRow(name: "a tap of two to go", prelude: [down], input: lift, outcome: .tapped(isLast: false),
                       to: .between(completed: 1, first: first, lift: 1.1)),
            MachineRow(name: "held too long", prelude: [down], input: .touches(1.8, [touch(1, .ended, 10, 10)]),
                       outcome: .failed, to: .tapping(completed: 0, first: nil, start: 1, fingers: 1)),
            MachineRow(name: "the next tap lands near", prelude: [down, lift], input: second, outcome: RecognizerOutcome.none,
                       to: .tapping(completed: 1, first: first, start: 1.3, fingers: 1)),
            MachineRow(name: "the next tap lands far", prelude: [down, lift], input: .touches(1.3, [touch(2, .began, 18, 10)]),
                       outcome: .failed, to: .between(completed: 1, first: first, lift: 1.1)),
            MachineRow(name: "the last tap", prelude: [down, lift, second], input: .touches(1.4, [touch(2, .ended, 12, 10)]),
                       outcome: .tapped(isLast: true), to: .done(taps: 2, first: first)),
            // Failing keeps the state it failed in (the taps it counted), as every kind does.
            MachineRow(name: "held past its timer", prelude: [down], input: .timer, outcome: .failed,
                       to: .tapping(completed: 0, first: nil, start: 1, fingers: 1)),
            MachineRow(name: "the next tap late", prelude: [down, lift], input: .timer, outcome: .failed,
                       to: .between(completed: 1, first: first, lift: 1.1)),
            MachineRow(name: "no timer before a tap", prelude: [], input: .timer, outcome: RecognizerOutcome.none, to: .idle),
            MachineRow(name: "reset", prelude: [down, lift, second], input: .reset, outcome: RecognizerOutcome.none, to: .idle),
        ]
        checkTransitions(doubleTap, rows)
    }

    @Test func aTapsTimerRunsFromItsLandingThenFromItsLift() {
        var bench = MachineBench(machine: doubleTap())
        #expect(bench.machine.deadline == nil)
        _ = bench.apply(.touches(1, [touch(1, .began, 10, 10)]))
        #expect(bench.machine.deadline == InputTime(seconds: 1) + Self.t.maximumDuration)
        _ = bench.apply(.touches(1.25, [touch(1, .ended, 10, 10)]))
        #expect(bench.machine.deadline == InputTime(seconds: 1.25) + Self.t.interval)
        #expect(bench.tracks.isEmpty, "the first tap's lifted finger is forgotten")
        #expect(bench.machine.values(centroid: .zero) == .tap(taps: 1))
    }

    @Test func aTwoFingerTapCountsTheMostFingersDown() {
        var bench = MachineBench(machine: TapRecognizer(taps: 1, fingers: 2, settings: Self.t, pointsPerMillimetre: 1))
        _ = bench.apply(.touches(1, [touch(1, .began, 10, 10)]))
        _ = bench.apply(.touches(1.02, [touch(2, .began, 30, 10)]))
        #expect(bench.apply(.touches(1.1, [touch(1, .ended, 10, 10)])) == RecognizerOutcome.none)
        #expect(bench.apply(.touches(1.12, [touch(2, .ended, 30, 10)])) == .tapped(isLast: true))
    }

    // MARK: - Long press

    func press(fingers: Int = 1) -> LongPressRecognizer {
        LongPressRecognizer(duration: 0.5, movementMillimetres: 1.6, fingers: fingers, pointsPerMillimetre: 1)
    }

    @Test func longPressTransitions() {
        let down: MachineInput = .touches(1, [touch(1, .began, 10, 10)])
        let rows: [MachineRow<LongPressRecognizer>] = [
            MachineRow(name: "a finger lands", prelude: [], input: down, outcome: RecognizerOutcome.none, to: .timing(since: 1)),
            MachineRow(name: "a little movement", prelude: [down], input: .touches(1.2, [touch(1, .moved, 11, 10)]),
                       outcome: RecognizerOutcome.none, to: .timing(since: 1)),
            MachineRow(name: "too much movement", prelude: [down], input: .touches(1.2, [touch(1, .moved, 12, 10)]),
                       outcome: .failed, to: .timing(since: 1)),
            MachineRow(name: "lifted early", prelude: [down], input: .touches(1.2, [touch(1, .ended, 10, 10)]),
                       outcome: .failed, to: .timing(since: 1)),
            MachineRow(name: "one finger too many", prelude: [down], input: .touches(1.2, [touch(2, .began, 40, 10)]),
                       outcome: .failed, to: .timing(since: 1)),
            MachineRow(name: "held long enough", prelude: [down], input: .timer, outcome: .began, to: .held),
            MachineRow(name: "let begin", prelude: [down, .timer], input: .began, outcome: RecognizerOutcome.none, to: .active),
            MachineRow(name: "moves once begun", prelude: [down, .timer, .began], input: .touches(1.6, [touch(1, .moved, 30, 10)]),
                       outcome: .changed, to: .active),
            MachineRow(name: "stands still once begun", prelude: [down, .timer, .began],
                       input: .touches(1.6, [touch(1, .stationary, 10, 10)]), outcome: RecognizerOutcome.none, to: .active),
            MachineRow(name: "lifts once begun", prelude: [down, .timer, .began], input: .touches(1.7, [touch(1, .ended, 10, 10)]),
                       outcome: .ended, to: .active),
            MachineRow(name: "no timer while waiting", prelude: [], input: .timer, outcome: RecognizerOutcome.none, to: .waiting),
            MachineRow(name: "reset", prelude: [down, .timer, .began], input: .reset, outcome: RecognizerOutcome.none, to: .waiting),
        ]
        checkTransitions({ press() }, rows)
        // Two fingers: the timer starts with the second.
        let first: MachineInput = .touches(1, [touch(1, .began, 10, 10)])
        let twoFingerRows: [MachineRow<LongPressRecognizer>] = [
            MachineRow(name: "one of two", prelude: [], input: first, outcome: RecognizerOutcome.none, to: .waiting),
            MachineRow(name: "two of two", prelude: [first], input: .touches(1.1, [touch(2, .began, 40, 10)]),
                       outcome: RecognizerOutcome.none, to: .timing(since: 1.1)),
        ]
        checkTransitions({ press(fingers: 2) }, twoFingerRows)
    }

    // MARK: - Pan

    func pan() -> PanRecognizer { PanRecognizer(minimum: 1, maximum: 2, thresholdMillimetres: 1.6, pointsPerMillimetre: 1) }

    @Test func panTransitions() {
        let down: MachineInput = .touches(1, [touch(1, .began, 10, 10)])
        let far: MachineInput = .touches(1.5, [touch(1, .moved, 15, 10)])
        let atStart = PanRecognizer.Motion(reference: Point(x: 10, y: 10), lastCentroid: Point(x: 10, y: 10), lastTime: 1)
        let moved = PanRecognizer.Motion(
            reference: Point(x: 10, y: 10), lastCentroid: Point(x: 15, y: 10), lastTime: 1.5, velocity: Point(x: 10, y: 0))
        let rows: [MachineRow<PanRecognizer>] = [
            MachineRow(name: "a finger lands", prelude: [], input: down, outcome: RecognizerOutcome.none, to: .possible(atStart)),
            MachineRow(name: "moves within the threshold", prelude: [down], input: .touches(1.5, [touch(1, .moved, 11, 10)]),
                       outcome: RecognizerOutcome.none,
                       to: .possible(PanRecognizer.Motion(reference: Point(x: 10, y: 10), lastCentroid: Point(x: 11, y: 10), lastTime: 1.5))),
            MachineRow(name: "moves beyond the threshold", prelude: [down], input: far, outcome: .began, to: .possible(moved)),
            MachineRow(name: "lifts without moving", prelude: [down], input: .touches(1.5, [touch(1, .ended, 10, 10)]),
                       outcome: .failed, to: .possible(PanRecognizer.Motion(
                           reference: Point(x: 10, y: 10), lastCentroid: Point(x: 10, y: 10), lastTime: 1.5))),
            MachineRow(name: "let begin", prelude: [down, far], input: .began, outcome: RecognizerOutcome.none, to: .active(moved)),
            MachineRow(name: "moves once begun", prelude: [down, far, .began], input: .touches(2, [touch(1, .moved, 25, 10)]),
                       outcome: .changed, to: .active(PanRecognizer.Motion(
                           reference: Point(x: 10, y: 10), lastCentroid: Point(x: 25, y: 10), lastTime: 2, velocity: Point(x: 20, y: 0)))),
            MachineRow(name: "a finger lands once begun: the reference follows", prelude: [down, far, .began],
                       input: .touches(2, [touch(2, .began, 25, 10)]), outcome: RecognizerOutcome.none,
                       to: .active(PanRecognizer.Motion(
                           reference: Point(x: 15, y: 10), lastCentroid: Point(x: 20, y: 10), lastTime: 2, velocity: Point(x: 10, y: 0)))),
            MachineRow(name: "the last finger lifts", prelude: [down, far, .began], input: .touches(2, [touch(1, .ended, 15, 10)]),
                       outcome: .ended, to: .active(PanRecognizer.Motion(
                           reference: Point(x: 10, y: 10), lastCentroid: Point(x: 15, y: 10), lastTime: 2, velocity: Point(x: 10, y: 0)))),
            MachineRow(name: "reset", prelude: [down, far, .began], input: .reset, outcome: RecognizerOutcome.none, to: .idle),
        ]
        checkTransitions(pan, rows)
    }

    @Test func panValuesAreItsTranslationAndVelocity() {
        var bench = MachineBench(machine: pan())
        _ = bench.apply(.touches(1, [touch(1, .began, 10, 10)]))
        _ = bench.apply(.touches(1.5, [touch(1, .moved, 15, 14)]))
        let values = bench.machine.values(centroid: bench.tracks.centroid)
        #expect(values == .pan(translation: Point(x: 5, y: 4), velocity: Point(x: 10, y: 8)))
        #expect(bench.machine.isHorizontal(centroid: bench.tracks.centroid))
        #expect(bench.machine.maximumFollowed == 2)
    }

    // MARK: - Swipe

    func swipe() -> SwipeRecognizer {
        SwipeRecognizer(directions: [.left, .right], fingers: 1, distanceMillimetres: 10, maximumDuration: 0.5, pointsPerMillimetre: 1)
    }

    @Test func swipeTransitions() {
        let down: MachineInput = .touches(1, [touch(1, .began, 50, 50)])
        let rows: [MachineRow<SwipeRecognizer>] = [
            MachineRow(name: "a finger lands", prelude: [], input: down, outcome: RecognizerOutcome.none, to: .tracking(start: 1)),
            MachineRow(name: "not far yet", prelude: [down], input: .touches(1.2, [touch(1, .moved, 58, 50)]),
                       outcome: RecognizerOutcome.none, to: .tracking(start: 1)),
            MachineRow(name: "far enough to the right", prelude: [down], input: .touches(1.2, [touch(1, .moved, 62, 50)]),
                       outcome: .recognized, to: .swiped(start: 1, direction: .right)),
            MachineRow(name: "far enough to the left", prelude: [down], input: .touches(1.2, [touch(1, .moved, 38, 52)]),
                       outcome: .recognized, to: .swiped(start: 1, direction: .left)),
            MachineRow(name: "up is not allowed", prelude: [down], input: .touches(1.2, [touch(1, .moved, 50, 38)]),
                       outcome: .failed, to: .tracking(start: 1)),
            MachineRow(name: "diagonal", prelude: [down], input: .touches(1.2, [touch(1, .moved, 62, 58)]),
                       outcome: .failed, to: .tracking(start: 1)),
            MachineRow(name: "too late", prelude: [down], input: .touches(1.6, [touch(1, .moved, 62, 50)]),
                       outcome: .failed, to: .tracking(start: 1)),
            MachineRow(name: "lifts short", prelude: [down], input: .touches(1.2, [touch(1, .ended, 55, 50)]),
                       outcome: .failed, to: .tracking(start: 1)),
            MachineRow(name: "one finger too many", prelude: [down], input: .touches(1.2, [touch(2, .began, 80, 50)]),
                       outcome: .failed, to: .tracking(start: 1)),
            MachineRow(name: "reset", prelude: [down], input: .reset, outcome: RecognizerOutcome.none, to: .idle),
        ]
        checkTransitions(swipe, rows)
    }

    @Test func aTwoFingerSwipeWhoseFingersLandInOneFrameIsTimedFromThatFrame() {
        var bench = MachineBench(
            machine: SwipeRecognizer(directions: .right, fingers: 2, distanceMillimetres: 10, maximumDuration: 0.5, pointsPerMillimetre: 1))
        #expect(bench.apply(.touches(100, [touch(1, .began, 50, 50), touch(2, .began, 50, 80)])) == RecognizerOutcome.none)
        #expect(bench.machine.state == .tracking(start: 100))
        #expect(bench.apply(.touches(100.2, [touch(1, .moved, 62, 50), touch(2, .moved, 62, 80)])) == .recognized)
    }

    @Test func aSwipesDirectionIsItsValue() {
        var bench = MachineBench(machine: swipe())
        #expect(bench.machine.values(centroid: .zero) == .swipe(direction: .right))
        _ = bench.apply(.touches(1, [touch(1, .began, 50, 50)]))
        _ = bench.apply(.touches(1.2, [touch(1, .moved, 38, 50)]))
        #expect(bench.machine.values(centroid: .zero) == .swipe(direction: .left))
        #expect(bench.machine.isHorizontal(centroid: .zero))
    }

    // MARK: - Pinch and rotation

    func pinch() -> PinchRecognizer { PinchRecognizer(measure: PinchMeasure(threshold: 1.1)) }

    @Test func pinchTransitions() {
        let one: MachineInput = .touches(1, [touch(1, .began, 0, 0)])
        let two: MachineInput = .touches(1, [touch(1, .began, 0, 0), touch(2, .began, 100, 0)])
        let spread: MachineInput = .touches(1.5, [touch(2, .moved, 150, 0)])
        let rows: [MachineRow<PinchRecognizer>] = [
            MachineRow(name: "one finger: nothing to measure", prelude: [], input: one, outcome: RecognizerOutcome.none,
                       to: .possible(reference: nil, last: 1, time: 0)),
            MachineRow(name: "two fingers: the reference", prelude: [], input: two, outcome: RecognizerOutcome.none,
                       to: .possible(reference: 100, last: 1, time: 1)),
            MachineRow(name: "a little wider", prelude: [two], input: .touches(1.5, [touch(2, .moved, 105, 0)]),
                       outcome: RecognizerOutcome.none, to: .possible(reference: 100, last: 1.05, time: 1.5)),
            MachineRow(name: "wide enough", prelude: [two], input: spread, outcome: .began,
                       to: .possible(reference: 100, last: 1.5, time: 1.5)),
            MachineRow(name: "narrow enough", prelude: [two], input: .touches(1.5, [touch(2, .moved, 50, 0)]),
                       outcome: .began, to: .possible(reference: 100, last: 0.5, time: 1.5)),
            MachineRow(name: "both lift", prelude: [two], input: .touches(1.5, [touch(1, .ended, 0, 0), touch(2, .ended, 100, 0)]),
                       outcome: .failed, to: .possible(reference: 100, last: 1, time: 1)),
            MachineRow(name: "let begin", prelude: [two, spread], input: .began, outcome: RecognizerOutcome.none,
                       to: .active(reference: 100, last: 1.5, time: 1.5, velocity: 0)),
            MachineRow(name: "wider once begun", prelude: [two, spread, .began], input: .touches(2, [touch(2, .moved, 200, 0)]),
                       outcome: .changed, to: .active(reference: 100, last: 2, time: 2, velocity: 1)),
            MachineRow(name: "a finger lifts once begun", prelude: [two, spread, .began], input: .touches(2, [touch(2, .ended, 150, 0)]),
                       outcome: .ended, to: .active(reference: 100, last: 1.5, time: 1.5, velocity: 0)),
            MachineRow(name: "reset", prelude: [two, spread, .began], input: .reset, outcome: RecognizerOutcome.none,
                       to: .possible(reference: nil, last: 1, time: 0)),
        ]
        checkTransitions(pinch, rows)
    }

    func rotation() -> RotationRecognizer { RotationRecognizer(measure: RotationMeasure(threshold: 6 * Double.pi / 180)) }

    @Test func rotationTransitions() {
        let two: MachineInput = .touches(1, [touch(1, .began, 0, 0), touch(2, .began, 100, 0)])
        let quarter: MachineInput = .touches(1.5, [touch(2, .moved, 0, 100)])
        let rows: [MachineRow<RotationRecognizer>] = [
            MachineRow(name: "two fingers: the reference", prelude: [], input: two, outcome: RecognizerOutcome.none,
                       to: .possible(reference: 0, last: 0, time: 1)),
            MachineRow(name: "a quarter turn", prelude: [two], input: quarter, outcome: .began,
                       to: .possible(reference: 0, last: Double.pi / 2, time: 1.5)),
            MachineRow(name: "let begin", prelude: [two, quarter], input: .began, outcome: RecognizerOutcome.none,
                       to: .active(reference: 0, last: Double.pi / 2, time: 1.5, velocity: 0)),
            MachineRow(name: "a half turn once begun", prelude: [two, quarter, .began], input: .touches(2, [touch(2, .moved, -100, 0)]),
                       outcome: .changed, to: .active(reference: 0, last: Double.pi, time: 2, velocity: Double.pi)),
            MachineRow(name: "a finger lifts once begun", prelude: [two, quarter, .began], input: .touches(2, [touch(1, .ended, 0, 0)]),
                       outcome: .ended, to: .active(reference: 0, last: Double.pi / 2, time: 1.5, velocity: 0)),
        ]
        checkTransitions(rotation, rows)
        // Turning past half a turn reads as the shorter way round.
        var bench = MachineBench(machine: rotation())
        _ = bench.apply(.touches(1, [touch(1, .began, 0, 0), touch(2, .began, -100, 1)]))
        _ = bench.apply(.touches(1.5, [touch(2, .moved, -100, -1)]))
        guard case .possible(_, let last, _) = bench.machine.state else {
            Issue.record("a rotation that has not begun is possible: \(bench.machine.state)")
            return
        }
        #expect(abs(last - 0.02) < 0.0001, "\(last)")
    }

    // MARK: - Random touches

    /// What a recognizer's lifecycle lets the machine be given, as far as the machine can tell.
    enum Stage { case possible, active, finished }

    /// Random touches, timers and resets through a machine as its recognizer would give them: it
    /// asks only what its kind may (`allowed`), begins only while possible, changes and ends only
    /// once begun, runs a timer only while possible, and is what it was at first after a reset.
    func randomRuns<Machine: RecognizerMachine>(
        _ make: () -> Machine, fingers: Int, allowed: (RecognizerOutcome) -> Bool
    ) where Machine.State: Equatable {
        let initial = make().state
        for seed in machineSeeds {
            var rng = SeededGenerator(state: seed)
            var bench = MachineBench(machine: make())
            var stage = Stage.possible
            var down: [TouchID: Point] = [:]
            var next: TouchID = 1
            var time = 1.0
            for _ in 0..<400 {
                time += Double.random(in: 0.01...0.3, using: &rng)
                var outcome: RecognizerOutcome?
                if stage == .finished || (down.isEmpty && Int.random(in: 0..<8, using: &rng) == 0) {
                    outcome = bench.apply(.reset)
                    #expect(bench.machine.state == initial, "seed \(seed): a reset starts anew")
                    stage = .possible
                    down = [:]
                } else if stage == .possible, bench.machine.deadline != nil, Int.random(in: 0..<4, using: &rng) == 0 {
                    outcome = bench.apply(.timer)
                } else {
                    let touches = randomEvent(down: &down, next: &next, fingers: fingers + 1, step: 8, using: &rng)
                    guard !touches.isEmpty else { continue }
                    outcome = bench.apply(.touches(time, touches))
                }
                #expect(bench.machine.deadline == nil || stage == .possible, "seed \(seed): a timer only while possible")
                guard let outcome else { continue }
                #expect(allowed(outcome), "seed \(seed): \(outcome)")
                switch outcome {
                case .none, .tapped(isLast: false): break
                case .began:
                    #expect(stage == .possible, "seed \(seed): began once begun")
                    _ = bench.apply(.began)
                    stage = .active
                case .changed: #expect(stage == .active, "seed \(seed): changed before it began")
                case .ended:
                    #expect(stage == .active, "seed \(seed): ended before it began")
                    stage = .finished
                case .recognized, .failed, .tapped(isLast: true): stage = .finished
                }
            }
        }
    }

    func isDiscrete(_ outcome: RecognizerOutcome) -> Bool {
        switch outcome {
        case .none, .tapped, .recognized, .failed: true
        case .began, .changed, .ended: false
        }
    }

    func isContinuous(_ outcome: RecognizerOutcome) -> Bool {
        switch outcome {
        case .none, .began, .changed, .ended, .failed: true
        case .tapped, .recognized: false
        }
    }

    @Test func randomTouchesKeepEveryMachineWithinItsTable() {
        randomRuns(doubleTap, fingers: 1, allowed: { isDiscrete($0) && $0 != .recognized })
        randomRuns({ press() }, fingers: 1, allowed: isContinuous)
        randomRuns(pan, fingers: 2, allowed: isContinuous)
        randomRuns(swipe, fingers: 1, allowed: { isDiscrete($0) && !($0 == .tapped(isLast: false) || $0 == .tapped(isLast: true)) })
        randomRuns(pinch, fingers: 2, allowed: isContinuous)
        randomRuns(rotation, fingers: 2, allowed: isContinuous)
    }
}
