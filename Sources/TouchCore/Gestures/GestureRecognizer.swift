/// A recognizer's live state: the touches it tracks and what it has seen of them.
///
/// Its state machine, per kind (every kind fails from `possible` when its gesture cannot happen):
///
///     tap         possible → recognized   the last finger of the last tap lifts
///                 possible → failed       too many fingers, moved beyond the slop, held too long,
///                                         next tap too late or too far, a touch cancelled
///     long press  possible → began        the fingers stay down `minimumDuration` (a timer)
///                 began → changed         a finger moves
///                 began|changed → ended   a finger lifts
///     pan         possible → began        the centroid moves beyond the threshold
///                 began → changed → ended when the last finger lifts
///     swipe       possible → recognized   far enough, fast enough, in an allowed direction
///     pinch       possible → began        the distance changes by the threshold factor
///     rotation    possible → began        the angle changes by the threshold
///                 began → changed → ended when fewer than two fingers remain
///     any         began|changed → cancelled   a touch cancelled
///
/// Terminal recognizers ignore their touches until all have finished, then reset to `possible`.
struct GestureRecognizer: Sendable {
    struct Track: Sendable {
        var start: Point
        var location: Point
        var isDown: Bool
    }

    let spec: GestureRecognizerSpec
    /// Points per millimetre of the view's window.
    let pointsPerMillimetre: Double
    let tapSettings: TapSettings
    var state: GestureState = .possible
    var tracks: [TouchID: Track] = [:]
    var trackOrder: [TouchID] = []
    /// Every touch since the last reset (a double tap's first tap included), in order.
    var seen: [TouchID] = []
    /// Touches it ignores, as `ignore(_:for:)` does: the fingers that land on a pan that has begun
    /// with its maximum down. They stay out of its centroid, its translation and its touches.
    var ignored: Set<TouchID> = []
    /// The hit-test view of its first touch since the last reset.
    var firstTouchView: ResponderID?
    /// A recognition waiting for recognizers it requires to fail.
    var pending: GestureState?
    var deadline: Double?
    // Tap.
    var tapsCompleted = 0
    var tapStartTime = 0.0
    var tapFingers = 0
    var firstTapLocation: Point?
    // Continuous kinds.
    var gestureStartTime = 0.0
    var referenceCentroid = Point.zero
    var lastCentroid = Point.zero
    /// Where its fingers last were (the ones down, or lifting in the latest event), for every kind:
    /// the location of records sent once all fingers are up.
    var lastLocation = Point.zero
    var lastTime = 0.0
    var referenceDistance = 0.0
    var referenceAngle = 0.0
    var hasReferenceAngle = false
    var lastScale = 1.0
    var lastAngle = 0.0
    var velocity = 0.0
    var velocityPoint = Point.zero
    var swipeDirection: SwipeDirections?

    init(spec: GestureRecognizerSpec, pointsPerMillimetre: Double, tapSettings: TapSettings) {
        self.spec = spec
        self.pointsPerMillimetre = pointsPerMillimetre
        self.tapSettings = tapSettings
    }

    var downCount: Int { tracks.values.filter(\.isDown).count }
    /// Whether it is deciding: it tracks touches, waits on a timer, or holds a recognition back
    /// until the recognizers it requires to fail have failed.
    var isEngaged: Bool { !tracks.isEmpty || deadline != nil || pending != nil }
    var touchIDs: [TouchID] { seen }

    var centroid: Point {
        let down = trackOrder.compactMap { tracks[$0] }.filter(\.isDown)
        guard !down.isEmpty else { return lastLocation }
        let sum = down.reduce(Point.zero) { $0 + $1.location }
        return Point(x: sum.x / Double(down.count), y: sum.y / Double(down.count))
    }

    /// The first two fingers down, for pinch and rotation.
    var pair: (Point, Point)? {
        let down = trackOrder.compactMap { tracks[$0] }.filter(\.isDown)
        guard down.count >= 2 else { return nil }
        return (down[0].location, down[1].location)
    }

    /// Whether the recognizer takes a new touch now.
    var acceptsTouches: Bool {
        switch state {
        case .possible, .began, .changed: true
        case .ended, .recognized, .cancelled, .failed: false
        }
    }

    /// A pan that has begun ignores the fingers that land once its maximum is down (UIKit's
    /// `maximumNumberOfTouches`): its translation follows the fingers it began with.
    private mutating func ignoreFingersPastMaximum(_ touches: [Touch]) {
        guard case .pan(_, let maximum, _) = spec.kind, state != .possible else { return }
        var down = downCount
        for touch in touches where touch.phase == .began && tracks[touch.id] == nil {
            if down >= maximum {
                ignored.insert(touch.id)
            } else {
                down += 1
            }
        }
    }

    mutating func reset() {
        self = GestureRecognizer(spec: spec, pointsPerMillimetre: pointsPerMillimetre, tapSettings: tapSettings)
    }

    /// Takes one event's changes to its touches; returns the state it wants to move to, if any.
    mutating func update(_ touches: [Touch], time: Double) -> GestureState? {
        ignoreFingersPastMaximum(touches)
        // Only the touches it tracks, or that begin now and are not ignored.
        func isOwn(_ touch: Touch) -> Bool { tracks[touch.id] != nil || (touch.phase == .began && !ignored.contains(touch.id)) }
        let touches = touches.allSatisfy(isOwn) ? touches : touches.filter(isOwn)
        // None of its own (an ignored finger, or one that outlived its last cycle): nothing changes.
        guard !touches.isEmpty else { return nil }
        var cancelled = false
        for touch in touches {
            switch touch.phase {
            case .began:
                tracks[touch.id] = Track(start: touch.locationInWindow, location: touch.locationInWindow, isDown: true)
                trackOrder.append(touch.id)
                seen.append(touch.id)
                if firstTouchView == nil { firstTouchView = touch.view }
            case .moved, .stationary:
                tracks[touch.id]?.location = touch.locationInWindow
            case .ended:
                tracks[touch.id]?.location = touch.locationInWindow
                tracks[touch.id]?.isDown = false
            case .cancelled:
                tracks[touch.id]?.isDown = false
                cancelled = true
            }
        }
        let present = trackOrder.filter { id in tracks[id]?.isDown == true || touches.contains { $0.id == id && $0.phase == .ended } }
            .compactMap { tracks[$0]?.location }
        if !present.isEmpty {
            let sum = present.reduce(Point.zero, +)
            lastLocation = Point(x: sum.x / Double(present.count), y: sum.y / Double(present.count))
        }
        guard !state.isTerminal else { return nil }
        if cancelled { return state == .possible ? .failed : .cancelled }
        let began = touches.contains { $0.phase == .began }
        let ended = touches.contains { $0.phase == .ended }
        let moved = touches.contains { $0.phase == .moved }
        switch spec.kind {
        case .tap(let taps, let fingers):
            return updateTap(taps: taps, fingers: fingers, began: began, ended: ended, time: time)
        case .longPress(let duration, let movement, let fingers):
            if began {
                if downCount > fingers { return .failed }
                if downCount == fingers && state == .possible { deadline = time + duration }
            }
            if state == .possible {
                let limit = movement * pointsPerMillimetre
                if tracks.values.contains(where: { $0.start.distance(to: $0.location) > limit }) { return .failed }
                if ended { return .failed }
                return nil
            }
            if ended { return .ended }
            if moved { return .changed }
            return nil
        case .pan(let minimum, let maximum, let threshold):
            let c = centroid
            defer {
                lastCentroid = c
                lastTime = time
            }
            // A finger landing or lifting moves the centroid without any finger moving: the
            // reference follows, so the translation does not jump, and the velocity keeps its value.
            let fingersChanged = began || (ended && downCount > 0)
            if began && state == .possible {
                referenceCentroid = centroid
            } else if fingersChanged {
                referenceCentroid = referenceCentroid + (c - lastCentroid)
            }
            if state == .possible {
                if downCount == 0 { return .failed }
                guard (minimum...maximum).contains(downCount) else { return nil }
                if referenceCentroid.distance(to: c) > threshold * pointsPerMillimetre {
                    if !fingersChanged { updateVelocity(c, time) }
                    return .began
                }
                return nil
            }
            if downCount == 0 { return .ended }
            if moved {
                if !fingersChanged { updateVelocity(c, time) }
                return .changed
            }
            return nil
        case .swipe(let directions, let fingers, let distance, let maximumDuration):
            if began && trackOrder.count == 1 { gestureStartTime = time }
            if downCount > fingers { return .failed }
            if time - gestureStartTime > maximumDuration { return .failed }
            let moves = tracks.values.map { $0.location - $0.start }
            let dx = moves.map(\.x).reduce(0, +) / Double(max(moves.count, 1))
            let dy = moves.map(\.y).reduce(0, +) / Double(max(moves.count, 1))
            if (dx * dx + dy * dy).squareRoot() >= distance * pointsPerMillimetre && trackOrder.count == fingers {
                let direction: SwipeDirections = abs(dx) >= abs(dy) ? (dx > 0 ? .right : .left) : (dy > 0 ? .down : .up)
                // Mostly along one axis: the other at most half as much.
                guard min(abs(dx), abs(dy)) <= 0.5 * max(abs(dx), abs(dy)), directions.contains(direction) else { return .failed }
                swipeDirection = direction
                return .recognized
            }
            if downCount == 0 && ended { return .failed }
            return nil
        case .pinch(let threshold):
            guard let (a, b) = pair else {
                if state == .possible { return downCount == 0 && ended ? .failed : nil }
                return .ended
            }
            let d = a.distance(to: b)
            if state == .possible && (began || referenceDistance == 0) { referenceDistance = d }
            let scale = referenceDistance > 0 ? d / referenceDistance : 1
            defer {
                lastScale = scale
                lastTime = time
            }
            if state == .possible {
                return scale >= threshold || scale <= 1 / threshold ? .began : nil
            }
            velocity = time > lastTime ? (scale - lastScale) / (time - lastTime) : 0
            return moved ? .changed : nil
        case .rotation(let threshold):
            guard let (a, b) = pair else {
                if state == .possible { return downCount == 0 && ended ? .failed : nil }
                return .ended
            }
            let angle = atan2Approx(b.y - a.y, b.x - a.x)
            if state == .possible && (began || !hasReferenceAngle) {
                referenceAngle = angle
                hasReferenceAngle = true
            }
            var rotation = angle - referenceAngle
            while rotation > Double.pi { rotation -= 2 * Double.pi }
            while rotation < -Double.pi { rotation += 2 * Double.pi }
            defer {
                lastAngle = rotation
                lastTime = time
            }
            if state == .possible {
                return abs(rotation) >= threshold ? .began : nil
            }
            velocity = time > lastTime ? (rotation - lastAngle) / (time - lastTime) : 0
            return moved ? .changed : nil
        }
    }

    private mutating func updateVelocity(_ c: Point, _ time: Double) {
        if time > lastTime {
            velocityPoint = Point(x: (c.x - lastCentroid.x) / (time - lastTime), y: (c.y - lastCentroid.y) / (time - lastTime))
        }
    }

    private mutating func updateTap(taps: Int, fingers: Int, began: Bool, ended: Bool, time: Double) -> GestureState? {
        let slop = tapSettings.slopMillimetres * pointsPerMillimetre
        if began {
            if downCount > fingers { return .failed }
            if tapFingers == 0 {
                // A new tap: in time and near the first one?
                if tapsCompleted > 0 {
                    if let first = firstTapLocation, centroid.distance(to: first) > tapSettings.distanceMillimetres * pointsPerMillimetre {
                        return .failed
                    }
                }
                tapStartTime = time
                deadline = time + tapSettings.maximumDuration
            }
            tapFingers = max(tapFingers, downCount)
        }
        if tracks.values.contains(where: { $0.isDown && $0.start.distance(to: $0.location) > slop }) { return .failed }
        if ended && downCount == 0 && tapFingers > 0 {
            if tapFingers != fingers { return .failed }
            if time - tapStartTime > tapSettings.maximumDuration { return .failed }
            tapsCompleted += 1
            if firstTapLocation == nil { firstTapLocation = centroidOfLastTap() }
            tapFingers = 0
            // The next tap's touches are new tracks.
            for id in trackOrder where tracks[id]?.isDown == false { tracks[id] = nil }
            trackOrder.removeAll { tracks[$0] == nil }
            if tapsCompleted == taps {
                deadline = nil
                return .recognized
            }
            deadline = time + tapSettings.interval
        }
        return nil
    }

    private func centroidOfLastTap() -> Point {
        let all = trackOrder.compactMap { tracks[$0]?.location }
        guard !all.isEmpty else { return .zero }
        let sum = all.reduce(Point.zero, +)
        return Point(x: sum.x / Double(all.count), y: sum.y / Double(all.count))
    }

    /// The timer fired: the state it wants to move to.
    mutating func timerFired(at time: Double) -> GestureState? {
        deadline = nil
        guard state == .possible else { return nil }
        switch spec.kind {
        case .tap: return .failed
        case .longPress: return .began
        case .pan, .swipe, .pinch, .rotation: return nil
        }
    }

    /// The values a `gestures` message carries for the current state.
    var values: [(String, JSONValue)] {
        switch spec.kind {
        case .tap: return [("taps", .int(Int64(tapsCompleted)))]
        case .longPress: return []
        case .pan:
            let t = centroid - referenceCentroid
            return [
                ("translation", .object([("x", .double(t.x)), ("y", .double(t.y))])),
                ("velocity", .object([("x", .double(velocityPoint.x)), ("y", .double(velocityPoint.y))])),
            ]
        case .swipe:
            let name: String =
                switch swipeDirection {
                case .some(.left): "left"
                case .some(.up): "up"
                case .some(.down): "down"
                default: "right"
                }
            return [("direction", .string(name))]
        case .pinch: return [("scale", .double(lastScale)), ("velocity", .double(velocity))]
        case .rotation: return [("rotation", .double(lastAngle)), ("velocity", .double(velocity))]
        }
    }
}
