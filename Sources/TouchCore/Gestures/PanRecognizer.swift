/// `UIPanGestureRecognizer`'s own part: the fingers' centroid moving beyond a threshold, then
/// followed (translation and velocity) until the last finger lifts.
///
/// Transitions of ``State`` (n = fingers down after the event, c = their centroid):
///
///     idle       first touches                   → possible     the reference is c
///     possible   finger lands                    → possible     the reference is c again
///     possible   n = 0                           → possible     failed
///     possible   minimum ≤ n ≤ maximum and c beyond
///                the threshold from the reference → possible     began (proposed)
///     possible   the arena lets it begin         → active
///     active     finger lands or lifts, n > 0    → active       the reference follows c
///     active     a finger moves                  → active       changed
///     active     n = 0                           → active       ended
///     any        reset                           → idle
///
/// A finger landing or lifting moves the centroid without any finger moving: the reference then
/// follows (so the translation does not jump), and the velocity keeps its value. Once it has
/// begun, the fingers that land while `maximum` are down are ignored (UIKit's
/// `maximumNumberOfTouches`); its recognizer leaves them out of its tracks.
struct PanRecognizer: RecognizerMachine {
    /// What a pan follows of its centroid.
    struct Motion: Sendable, Equatable {
        /// Where the translation is measured from.
        var reference = Point.zero
        var lastCentroid = Point.zero
        var lastTime: InputTime = 0
        /// Points per second, as of the last move.
        var velocity = Point.zero
    }

    enum State: Sendable, Equatable {
        /// No touch yet.
        case idle
        case possible(Motion)
        /// Begun.
        case active(Motion)
    }

    private(set) var state = State.idle

    /// It begins with between `minimum` and `maximum` fingers down.
    let minimum: Int
    let maximum: Int
    /// How far the centroid must move to begin.
    let thresholdMillimetres: Millimetres
    let pointsPerMillimetre: Double

    var maximumFollowed: Int? { maximum }
    private var motion: Motion {
        switch state {
        case .idle: Motion()
        case .possible(let motion), .active(let motion): motion
        }
    }

    /// How far its centroid `c` has moved from the reference.
    func translation(at c: Point) -> Point { c - motion.reference }

    func isHorizontal(centroid: Point) -> Bool {
        let t = translation(at: centroid)
        return abs(t.x) >= abs(t.y)
    }

    func values(centroid: Point) -> GestureValues { .pan(translation: translation(at: centroid), velocity: motion.velocity) }

    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome {
        let c = tracks.centroid
        let down = tracks.downCount
        let fingersChanged = changes.began || (changes.ended && down > 0)
        var m = motion
        var outcome = RecognizerOutcome.none
        switch state {
        case .idle, .possible:
            if changes.began {
                m.reference = c
            } else if fingersChanged {
                m.reference = m.reference + (c - m.lastCentroid)
            }
            if down == 0 {
                outcome = .failed
            } else if down >= minimum && down <= maximum && m.reference.distance(to: c) > thresholdMillimetres.points(at: pointsPerMillimetre) {
                if !fingersChanged { m.follow(c, time) }
                outcome = .began
            }
        case .active:
            if fingersChanged { m.reference = m.reference + (c - m.lastCentroid) }
            if down == 0 {
                outcome = .ended
            } else if changes.moved {
                if !fingersChanged { m.follow(c, time) }
                outcome = .changed
            }
        }
        m.lastCentroid = c
        m.lastTime = time
        switch state {
        case .idle, .possible: state = .possible(m)
        case .active: state = .active(m)
        }
        return outcome
    }

    /// The arena let it begin.
    mutating func began() { state = .active(motion) }

    mutating func reset() { state = .idle }
}

extension PanRecognizer.Motion {
    /// The velocity of a move of the centroid to `c` at `time`.
    fileprivate mutating func follow(_ c: Point, _ time: InputTime) {
        if time > lastTime {
            let elapsed = (time - lastTime).seconds
            velocity = Point(x: (c.x - lastCentroid.x) / elapsed, y: (c.y - lastCentroid.y) / elapsed)
        }
    }
}
