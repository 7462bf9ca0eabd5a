/// One attached recognizer: its configuration, the touches it tracks (``TouchTracks``), the
/// lifecycle every kind shares (``GestureLifecycle``) and its kind's own machine
/// (``TapRecognizer``, ``LongPressRecognizer``, ``PanRecognizer``, ``SwipeRecognizer``,
/// ``PinchRecognizer``, ``RotationRecognizer``).
///
/// Its inputs are an event's changed touches, its timer firing, the arena's decisions and a reset.
/// Touches and the timer go to its kind's machine, which proposes a lifecycle move (the state it
/// wants, returned to the arena); the arena decides and applies it. Whatever its kind, a cancelled
/// touch fails it while possible and cancels it once begun. Once its lifecycle has finished
/// (ended, recognized, cancelled, failed) it still tracks its touches, ignoring what they do,
/// until all have finished; then it is reset.
struct GestureRecognizer: Sendable {
    /// Its configuration, which never changes: held by reference, so that the copies a recognizer's
    /// value goes through (a dictionary's lookups) retain one object, not each of its strings and lists.
    private let configuration: Configuration
    var spec: GestureRecognizerSpec { configuration.spec }
    private(set) var tracks = TouchTracks()
    private(set) var lifecycle = GestureLifecycle()
    private(set) var machine: any RecognizerMachine

    init(spec: GestureRecognizerSpec, pointsPerMillimetre ppm: Double, tapSettings: TapSettings) {
        configuration = Configuration(spec: spec)
        switch spec.kind {
        case .tap(let taps, let fingers):
            machine = TapRecognizer(taps: taps, fingers: fingers, settings: tapSettings, pointsPerMillimetre: ppm)
        case .longPress(let duration, let movement, let fingers):
            machine = LongPressRecognizer(duration: duration, movementMillimetres: movement, fingers: fingers, pointsPerMillimetre: ppm)
        case .pan(let minimum, let maximum, let threshold):
            machine = PanRecognizer(minimum: minimum, maximum: maximum, thresholdMillimetres: threshold, pointsPerMillimetre: ppm)
        case .swipe(let directions, let fingers, let distance, let duration):
            machine = SwipeRecognizer(
                directions: directions, fingers: fingers, distanceMillimetres: distance, maximumDuration: duration,
                pointsPerMillimetre: ppm)
        case .pinch(let threshold): machine = PinchRecognizer(measure: PinchMeasure(threshold: threshold))
        case .rotation(let threshold): machine = RotationRecognizer(measure: RotationMeasure(threshold: threshold))
        }
    }

    var state: GestureState { lifecycle.gestureState }
    /// The recognition the arena holds back until the recognizers it requires to fail have failed.
    var held: GestureLifecycle.Recognition? { lifecycle.held }
    var downCount: Int { tracks.downCount }
    var centroid: Point { tracks.centroid }
    var touchIDs: [TouchID] { tracks.seen }
    var firstTouchView: ResponderID? { tracks.firstTouchView }

    /// When its timer fires, while it is possible: a tap held too long or the next tap late, a long
    /// press held long enough.
    var deadline: InputTime? { lifecycle.isPossible ? machine.deadline : nil }

    /// Whether it is deciding: it tracks touches, waits on a timer, or holds a recognition back
    /// until the recognizers it requires to fail have failed.
    var isEngaged: Bool { !tracks.isEmpty || deadline != nil || held != nil }

    /// Whether it tracks touches it has not decided about: possible, without a timer or a held
    /// recognition (a pan whose fingers lifted before moving far enough, once they have).
    var isUndecided: Bool { lifecycle.isPossible && deadline == nil && held == nil && !tracks.isEmpty }

    /// Whether the recognizer takes a new touch now.
    var acceptsTouches: Bool {
        switch lifecycle.state {
        case .possible, .active: true
        case .finished: false
        }
    }

    /// Whether its movement so far is mostly horizontal: a pan's translation, a swipe's direction.
    var isHorizontal: Bool { machine.isHorizontal(centroid: centroid) }

    /// What its kind measures in the current state, for a `gestures` message.
    var values: GestureValues { machine.values(centroid: centroid) }

    /// Takes one event's changes to its touches; returns the state it proposes, if any.
    mutating func touchesChanged(_ touches: [Touch], time: InputTime) -> GestureState? {
        if let maximum = machine.maximumFollowed, !lifecycle.isPossible { tracks.ignoreFingers(beyond: maximum, in: touches) }
        guard let changes = tracks.apply(touches), !state.isTerminal else { return nil }
        if changes.cancelled { return lifecycle.isPossible ? .failed : .cancelled }
        let outcome = machine.touchesChanged(changes, tracks: tracks, time: time)
        tracks.settle(after: outcome)
        return outcome.proposal
    }

    /// Its timer fired; returns the state it proposes, if any.
    mutating func timerFired() -> GestureState? {
        guard lifecycle.isPossible else { return nil }
        return machine.timerFired().proposal
    }

    /// Applies the arena's decision to its lifecycle; returns whether it was taken. A continuous
    /// kind's machine learns that it has begun.
    mutating func apply(_ input: GestureLifecycle.Input) -> Bool {
        guard lifecycle.apply(input) else { return false }
        if input == .commit(.began) { machine.began() }
        return true
    }

    /// Back to possible, with no touches: its touches have all finished.
    mutating func reset() {
        tracks.removeAll()
        _ = lifecycle.apply(.reset)
        machine.reset()
    }

    /// Its lifecycle's state and its kind's, for a trace.
    var traceDescription: String { "\(lifecycle.state) \(machine.stateDescription)" }
}

extension GestureRecognizer {
    /// A recognizer's configuration, shared by its copies.
    final class Configuration: Sendable {
        let spec: GestureRecognizerSpec
        init(spec: GestureRecognizerSpec) { self.spec = spec }
    }
}
