/// `UISwipeGestureRecognizer`'s own part: the right number of fingers travelling far enough, fast
/// enough, mostly along one axis, in an allowed direction.
///
/// Transitions of ``State`` (n = fingers down after the event; d = the tracks' mean displacement):
///
///     idle             first touches                  → tracking     timed from now if it is one
///                                                                    finger, else from 0
///     tracking|swiped  n > fingers, or too late       → (failed)
///     tracking|swiped  |d| far enough, as many tracks
///                      as fingers, mostly along one
///                      axis, in an allowed direction   → swiped       recognized (proposed)
///     tracking|swiped  |d| far enough, as many tracks
///                      as fingers, but diagonal or in
///                      another direction               → (failed)
///     tracking|swiped  the last finger lifts short     → (failed)
///     any              reset                           → idle
///
/// "(failed)": it proposes failing and its state stays as it is; its recognizer's lifecycle has
/// failed, and only a reset brings it back. While the arena holds its recognition back (`swiped`),
/// each event decides again.
struct SwipeRecognizer: RecognizerMachine {
    enum State: Sendable, Equatable {
        /// No touch yet.
        case idle
        /// Following its fingers since `start`.
        case tracking(start: InputTime)
        /// It swiped in `direction`: recognition proposed.
        case swiped(start: InputTime, direction: SwipeDirections)
    }

    private(set) var state = State.idle

    let directions: SwipeDirections
    let fingers: Int
    /// How far to travel.
    let distanceMillimetres: Millimetres
    /// How fast: the time from its first finger landing.
    let maximumDuration: TimeSpan
    let pointsPerMillimetre: Double

    /// The direction it swiped in, once it has.
    var direction: SwipeDirections? {
        switch state {
        case .swiped(_, let direction): direction
        case .idle, .tracking: nil
        }
    }

    private var start: InputTime {
        switch state {
        case .idle: 0
        case .tracking(let start), .swiped(let start, _): start
        }
    }

    func isHorizontal(centroid: Point) -> Bool { direction == .left || direction == .right }

    func values(centroid: Point) -> GestureValues { .swipe(direction: direction ?? .right) }

    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome {
        // Timed from the frame its first finger (or fingers, landing together) came in.
        let start: InputTime
        if case .idle = state { start = time } else { start = self.start }
        switch state {
        case .idle, .tracking: state = .tracking(start: start)
        case .swiped(_, let direction): state = .swiped(start: start, direction: direction)
        }
        if tracks.downCount > fingers || time - start > maximumDuration { return .failed }
        let d = tracks.meanDisplacement
        if (d.x * d.x + d.y * d.y).squareRoot() >= distanceMillimetres.points(at: pointsPerMillimetre) && tracks.count == fingers {
            let direction: SwipeDirections = abs(d.x) >= abs(d.y) ? (d.x > 0 ? .right : .left) : (d.y > 0 ? .down : .up)
            // Mostly along one axis: the other at most half as much.
            guard min(abs(d.x), abs(d.y)) <= 0.5 * max(abs(d.x), abs(d.y)), directions.contains(direction) else { return .failed }
            state = .swiped(start: start, direction: direction)
            return .recognized
        }
        if tracks.downCount == 0 && changes.ended { return .failed }
        return .none
    }

    mutating func reset() { state = .idle }
}
