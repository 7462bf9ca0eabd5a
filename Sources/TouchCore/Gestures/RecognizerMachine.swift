/// A recognizer kind's own state machine: the part of `UITapGestureRecognizer`,
/// `UIPanGestureRecognizer` and the others that is theirs alone. What every kind shares lives
/// beside it in its ``GestureRecognizer``: the touches it tracks (``TouchTracks``) and its lifecycle
/// (``GestureLifecycle``), which the arena moves on what a machine proposes.
///
/// Its inputs are one method each; each returns what happened.
///
/// Failing is the same for every kind: a machine proposes ``RecognizerOutcome/failed`` and keeps
/// the state it was in (what it had counted or measured, for the trace and the `gestures` message).
/// No kind has a failed state of its own: the lifecycle records the failure, and no input reaches
/// the machine again until its ``reset()``.
protocol RecognizerMachine: Sendable {
    /// Its states: an enum, each case with the values valid in it.
    associatedtype State: Sendable
    var state: State { get }
    /// Takes one event's changes to its recognizer's own touches (`tracks` already updated with
    /// them), while its lifecycle is possible or active.
    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome
    /// Its timer fired (it runs one only while ``deadline`` is set and its lifecycle is possible).
    mutating func timerFired() -> RecognizerOutcome
    /// The arena let it begin (continuous kinds).
    mutating func began()
    /// Back to where it started: its recognizer's touches have all finished.
    mutating func reset()
    /// When its timer fires, if it runs one.
    var deadline: InputTime? { get }
    /// What its kind measures, for a `gestures` message, given the centroid of its recognizer's touches.
    func values(centroid: Point) -> GestureValues
    /// Whether its movement so far is mostly horizontal (what a slider or toggle would take).
    func isHorizontal(centroid: Point) -> Bool
    /// Once begun, the most fingers it follows: fingers that land while that many are down are
    /// ignored (a pan's `maximumNumberOfTouches`).
    var maximumFollowed: Int? { get }
}

extension RecognizerMachine {
    /// Most kinds run no timer.
    mutating func timerFired() -> RecognizerOutcome { .none }
    var deadline: InputTime? { nil }
    /// Discrete kinds never begin.
    mutating func began() {}
    func isHorizontal(centroid: Point) -> Bool { false }
    var maximumFollowed: Int? { nil }
    /// Its state, for a trace.
    var stateDescription: String { "\(state)" }
}

/// What a kind's machine says after an input: the lifecycle move it proposes to the arena, if any.
/// Continuous kinds (long press, pan, pinch, rotation) propose `began`, `changed`, `ended` and
/// `failed`; discrete ones `recognized` (a swipe; a tap's last tap) and `failed`.
enum RecognizerOutcome: Sendable, Equatable {
    /// Nothing to propose.
    case none
    /// A tap completed (tap only), recognizing when it is the last: the lifted fingers' tracks are
    /// forgotten, since a next tap's touches are new tracks.
    case tapped(isLast: Bool)
    case began
    case changed
    case ended
    case recognized
    case failed

    /// The state it proposes.
    var proposal: GestureState? {
        switch self {
        case .none, .tapped(isLast: false): nil
        case .tapped(isLast: true): .recognized
        case .began: .began
        case .changed: .changed
        case .ended: .ended
        case .recognized: .recognized
        case .failed: .failed
        }
    }
}
