/// What a two-finger recognizer measures of its first two fingers down: a pinch's scale, a
/// rotation's angle.
protocol TwoFingerMeasure: Sendable {
    /// The value before anything is measured (scale 1, angle 0).
    static var initialValue: Double { get }
    /// What a `gestures` message says of a `value` changing at `velocity` (per second).
    static func values(_ value: Double, velocity: Double) -> GestureValues
    /// What the value is measured from, for fingers at `a` and `b`; `nil` when there is nothing to
    /// measure from (a pinch's fingers at one point).
    func reference(_ a: Point, _ b: Point) -> Double?
    /// The value for fingers at `a` and `b`, measured from `reference`.
    func value(_ a: Point, _ b: Point, from reference: Double?) -> Double
    /// Whether the value has come far enough to begin.
    func begins(_ value: Double) -> Bool
}

/// `UIPinchGestureRecognizer`'s own part.
typealias PinchRecognizer = TwoFingerRecognizer<PinchMeasure>
/// `UIRotationGestureRecognizer`'s own part.
typealias RotationRecognizer = TwoFingerRecognizer<RotationMeasure>

/// The own part of a recognizer that follows its first two fingers down: a pinch or a rotation
/// (each its own type, by its `Measure`).
///
/// Transitions of ``State`` (the pair = the first two fingers down):
///
///     possible   no pair, every finger lifted in this event  → possible   failed
///     possible   no pair otherwise                           → possible
///     possible   a pair, a finger landed or no reference yet → possible   the reference is measured
///                                                                         again; began if far enough
///     possible   a pair                                      → possible   began if far enough
///     possible   the arena lets it begin                     → active
///     active     a pair, a finger moved                      → active     changed (value, velocity)
///     active     a pair, nothing moved                       → active     (value, velocity)
///     active     no pair                                     → active     ended
///     any        reset                                       → possible, with no reference
struct TwoFingerRecognizer<Measure: TwoFingerMeasure>: RecognizerMachine {
    enum State: Sendable, Equatable {
        /// Not begun: the reference (`nil` until it has two fingers to measure), the last value and
        /// when it was measured.
        case possible(reference: Double?, last: Double, time: InputTime)
        /// Begun: the same, and how fast the value changes (per second).
        case active(reference: Double?, last: Double, time: InputTime, velocity: Double)
    }

    let measure: Measure
    private(set) var state = State.possible(reference: nil, last: Measure.initialValue, time: 0)

    func values(centroid: Point) -> GestureValues {
        switch state {
        case .possible(_, let last, _): Measure.values(last, velocity: 0)
        case .active(_, let last, _, let velocity): Measure.values(last, velocity: velocity)
        }
    }

    mutating func touchesChanged(_ changes: TouchTracks.Changes, tracks: TouchTracks, time: InputTime) -> RecognizerOutcome {
        guard let (a, b) = tracks.pair else {
            switch state {
            case .possible: return tracks.downCount == 0 && changes.ended ? .failed : .none
            case .active: return .ended
            }
        }
        switch state {
        case .possible(var reference, _, _):
            if changes.began || reference == nil { reference = measure.reference(a, b) }
            let value = measure.value(a, b, from: reference)
            state = .possible(reference: reference, last: value, time: time)
            return measure.begins(value) ? .began : .none
        case .active(let reference, let last, let lastTime, _):
            let value = measure.value(a, b, from: reference)
            let velocity = time > lastTime ? (value - last) / (time - lastTime).seconds : 0
            state = .active(reference: reference, last: value, time: time, velocity: velocity)
            return changes.moved ? .changed : .none
        }
    }

    /// The arena let it begin.
    mutating func began() {
        switch state {
        case .possible(let reference, let last, let time): state = .active(reference: reference, last: last, time: time, velocity: 0)
        case .active: break
        }
    }

    mutating func reset() { state = .possible(reference: nil, last: Measure.initialValue, time: 0) }
}

/// A pinch's scale: the fingers' distance over their distance when the last finger landed.
struct PinchMeasure: TwoFingerMeasure {
    /// The factor the distance must change by to begin (either way).
    let threshold: Double

    static let initialValue = 1.0
    static func values(_ scale: Double, velocity: Double) -> GestureValues { .pinch(scale: scale, velocity: velocity) }

    func reference(_ a: Point, _ b: Point) -> Double? {
        let d = a.distance(to: b)
        return d > 0 ? d : nil
    }

    func value(_ a: Point, _ b: Point, from reference: Double?) -> Double {
        guard let reference else { return 1 }
        return a.distance(to: b) / reference
    }

    func begins(_ scale: Double) -> Bool { scale >= threshold || scale <= 1 / threshold }
}

/// A rotation's angle: how far the line between the fingers turned since the last finger landed,
/// in radians within ±π.
struct RotationMeasure: TwoFingerMeasure {
    /// How far to turn to begin (either way), in radians.
    let threshold: Double

    static let initialValue = 0.0
    static func values(_ angle: Double, velocity: Double) -> GestureValues { .rotation(angle: angle, velocity: velocity) }

    func reference(_ a: Point, _ b: Point) -> Double? { atan2Approx(b.y - a.y, b.x - a.x) }

    func value(_ a: Point, _ b: Point, from reference: Double?) -> Double {
        var rotation = atan2Approx(b.y - a.y, b.x - a.x) - (reference ?? 0)
        while rotation > Double.pi { rotation -= 2 * Double.pi }
        while rotation < -Double.pi { rotation += 2 * Double.pi }
        return rotation
    }

    func begins(_ rotation: Double) -> Bool { abs(rotation) >= threshold }
}

/// atan2 without Foundation: the standard library has no trigonometry, so a careful series.
func atan2Approx(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    func atan(_ z: Double) -> Double {
        // Reduce to |z| <= 1, then to |z| <= tan(pi/12) with atan(z) = pi/6 + atan((z*sqrt3 - 1)/(sqrt3 + z)).
        if z < 0 { return -atan(-z) }
        if z > 1 { return Double.pi / 2 - atan(1 / z) }
        let sqrt3 = 1.7320508075688772
        if z > 0.2679491924311227 { return Double.pi / 6 + atan((z * sqrt3 - 1) / (sqrt3 + z)) }
        var term = z
        var sum = 0.0
        var n = 1.0
        let z2 = z * z
        for i in 0..<12 {
            sum += (i % 2 == 0 ? 1 : -1) * term / n
            term *= z2
            n += 2
        }
        return sum
    }
    if x > 0 { return atan(y / x) }
    if x < 0 { return y >= 0 ? atan(y / x) + Double.pi : atan(y / x) - Double.pi }
    return y > 0 ? Double.pi / 2 : -Double.pi / 2
}
