/// `UILongPressGestureRecognizer`'s own part: the right number of fingers held still long enough,
/// then followed until they lift.
///
/// Transitions of ``State`` (n = fingers down after the event):
///
///     any but active   finger lands, n = fingers    → timing       the timer starts
///     any              finger lands, n > fingers    → (failed)
///     waiting|timing|held  a finger moved beyond the allowed movement,
///                      or a finger lifts             → (failed)
///     timing           timer                         → held         began (proposed)
///     waiting|timing|held  the arena lets it begin   → active
///     active           a finger moves                → active       changed
///     active           a finger lifts                → active       ended
///     any              reset                         → waiting
///
/// A failure leaves the state as it is: its recognizer's lifecycle has failed, and only a reset
/// brings it back.
struct LongPressRecognizer: RecognizerMachine {
    enum State: Sendable, Equatable {
        /// Fewer fingers down than it needs.
        case waiting
        /// Its fingers are down, since `since`.
        case timing(since: InputTime)
        /// Held long enough: it asked to begin, and waits for the arena to let it.
        case held
        /// Begun: following the fingers.
        case active
    }

    private(set) var state = State.waiting

    /// How long to hold.
    let duration: TimeSpan
    /// How far a finger may move before it begins.
    let movementMillimetres: Millimetres
    let fingers: Int
    let pointsPerMillimetre: Double

    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome {
        if changes.began {
            let down = tracks.downCount
            if down > fingers { return .failed }
            if down == fingers && state != .active { state = .timing(since: time) }
        }
        switch state {
        case .waiting, .timing, .held:
            if tracks.anyMoved(beyond: movementMillimetres.points(at: pointsPerMillimetre), downOnly: false) || changes.ended { return .failed }
            return .none
        case .active:
            if changes.ended { return .ended }
            return changes.moved ? .changed : .none
        }
    }

    /// When the fingers will have been held long enough.
    var deadline: InputTime? {
        switch state {
        case .timing(let since): since + duration
        case .waiting, .held, .active: nil
        }
    }

    /// Its timer fired: held long enough, it asks to begin.
    mutating func timerFired() -> RecognizerOutcome {
        switch state {
        case .timing:
            state = .held
            return .began
        case .waiting, .held, .active:
            return .none
        }
    }

    /// The arena let it begin.
    mutating func began() { state = .active }

    mutating func reset() { state = .waiting }

    func values(centroid: Point) -> GestureValues { .longPress }
}
