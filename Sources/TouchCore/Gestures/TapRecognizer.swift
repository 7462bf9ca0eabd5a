/// `UITapGestureRecognizer`'s own part: counting taps of the right number of fingers, each short
/// and still enough, each near the first and soon after the one before.
///
/// Transitions of ``State`` (its recognizer still possible; n = fingers down after the event):
///
///     idle            finger lands, n ≤ fingers              → tapping
///     between|done    finger lands, n ≤ fingers, near first  → tapping      the next tap
///     between|done    finger lands, too far from the first   → failed
///     tapping         finger lands, n ≤ fingers              → tapping      (the most fingers kept)
///     any             finger lands, n > fingers              → failed
///     any             a finger down moved beyond the slop    → failed
///     tapping         last finger lifts, too few or too many
///                     fingers, or held too long               → failed
///     tapping         last finger lifts, taps to go           → between      tapped
///     tapping         last finger lifts, the last tap         → done         tapped (last): recognized
///     tapping|between timer (held too long / next tap late)  → failed
///     any             reset                                   → idle
///
/// A tap's timer runs from its first finger's landing (`maximumDuration`), then from its lift to
/// the next tap (`interval`). When the arena holds its recognition back (`done`), it keeps
/// counting, and so never recognizes again before a reset.
struct TapRecognizer: RecognizerMachine {
    enum State: Sendable, Equatable {
        /// No tap yet.
        case idle
        /// A tap's fingers are down: `completed` taps before it, the first one's location, when
        /// this one's first finger landed, and the most fingers down in it so far.
        case tapping(completed: Int, first: Point?, start: InputTime, fingers: Int)
        /// Between taps: `completed` taps so far, the first one's location, the last one's lift.
        case between(completed: Int, first: Point, lift: InputTime)
        /// The last tap completed: recognition proposed.
        case done(taps: Int, first: Point)
    }

    private(set) var state = State.idle

    /// Taps in a row, of `fingers` fingers each.
    let taps: Int
    let fingers: Int
    let settings: TapSettings
    /// Points per millimetre of its view's window.
    let pointsPerMillimetre: Double

    /// The taps completed.
    var completed: Int {
        switch state {
        case .idle: 0
        case .tapping(let completed, _, _, _), .between(let completed, _, _): completed
        case .done(let taps, _): taps
        }
    }

    /// When its timer fires: a tap held too long, or the next tap too late.
    var deadline: InputTime? {
        switch state {
        case .tapping(_, _, let start, _): start + settings.maximumDuration
        case .between(_, _, let lift): lift + settings.interval
        case .idle, .done: nil
        }
    }

    func values(centroid: Point) -> GestureValues { .tap(taps: completed) }

    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome {
        if changes.began {
            let down = tracks.downCount
            if down > fingers { return fail() }
            switch state {
            case .idle:
                state = .tapping(completed: 0, first: nil, start: time, fingers: down)
            case .between(let completed, let first, _), .done(let completed, let first):
                // A new tap: near the first one?
                if tracks.centroid.distance(to: first) > settings.distanceMillimetres.points(at: pointsPerMillimetre) { return fail() }
                state = .tapping(completed: completed, first: first, start: time, fingers: down)
            case .tapping(let completed, let first, let start, let most):
                state = .tapping(completed: completed, first: first, start: start, fingers: max(most, down))
            }
        }
        if tracks.anyMoved(beyond: settings.slopMillimetres.points(at: pointsPerMillimetre), downOnly: true) { return fail() }
        guard changes.ended, tracks.downCount == 0, case .tapping(let completed, let first, let start, let most) = state else {
            return .none
        }
        if most != fingers || time - start > settings.maximumDuration { return fail() }
        let location = first ?? tracks.centroidOfAll
        if completed + 1 == taps {
            state = .done(taps: completed + 1, first: location)
            return .tapped(isLast: true)
        }
        state = .between(completed: completed + 1, first: location, lift: time)
        return .tapped(isLast: false)
    }

    /// Its timer fired: the tap was held too long, or the next one did not come in time.
    mutating func timerFired() -> RecognizerOutcome {
        switch state {
        case .tapping, .between: fail()
        case .idle, .done: .none
        }
    }

    /// It cannot recognize: it proposes failing and keeps the state it failed in (the taps it
    /// counted), as every kind does (``RecognizerMachine``).
    private func fail() -> RecognizerOutcome { .failed }

    mutating func reset() { state = .idle }
}
