/// The touches a recognizer tracks, in the order they landed, and what every kind reads of them:
/// how many are down, their centroid, the first two fingers. The part of a recognizer that all its
/// kinds share.
struct TouchTracks: Sendable {
    /// One touch's path as the recognizer saw it.
    struct Track: Sendable {
        var id: TouchID
        var start: Point
        var location: Point
        var isDown: Bool
    }

    /// What one event changed, among the recognizer's own touches.
    struct Changes: Sendable, CustomStringConvertible {
        /// The recognizer's own touches of the event, as they were given.
        var touches: [Touch]
        var began = false
        var moved = false
        var ended = false
        var cancelled = false

        var description: String {
            "touches " + touches.map { "\($0.id) \($0.phase.rawValue)" }.joined(separator: ", ")
        }
    }

    /// Its tracks, in the order their touches landed.
    private(set) var tracks: [Track] = []
    /// Every touch since the last reset (a double tap's first tap included), in order.
    private(set) var seen: [TouchID] = []
    /// Touches it ignores: the fingers that land on a pan that has begun with its maximum down.
    /// They stay out of its centroid, its translation and its touches.
    private(set) var ignored: Set<TouchID> = []
    /// The hit-test view of its first touch since the last reset.
    private(set) var firstTouchView: ResponderID?
    /// Where its fingers last were (the ones down, or lifting in the latest event): the location
    /// of records sent once all fingers are up.
    private(set) var lastLocation = Point.zero

    var isEmpty: Bool { tracks.isEmpty }
    var count: Int { tracks.count }

    var downCount: Int {
        var n = 0
        for track in tracks where track.isDown { n += 1 }
        return n
    }

    /// The centroid of the fingers down; once all have lifted, where they last were.
    var centroid: Point {
        var sum = Point.zero
        var n = 0
        for track in tracks where track.isDown {
            sum = sum + track.location
            n += 1
        }
        guard n > 0 else { return lastLocation }
        return Point(x: sum.x / Double(n), y: sum.y / Double(n))
    }

    /// The centroid of every track, down or lifted (a tap's location once its fingers lifted).
    var centroidOfAll: Point {
        guard !tracks.isEmpty else { return .zero }
        let sum = tracks.reduce(Point.zero) { $0 + $1.location }
        return Point(x: sum.x / Double(tracks.count), y: sum.y / Double(tracks.count))
    }

    /// The first two fingers down, for pinch and rotation.
    var pair: (Point, Point)? {
        var first: Point?
        for track in tracks where track.isDown {
            guard let a = first else {
                first = track.location
                continue
            }
            return (a, track.location)
        }
        return nil
    }

    /// Whether a track has moved further than `distance` from where it began; only the fingers
    /// still down when `downOnly`.
    func anyMoved(beyond distance: Double, downOnly: Bool) -> Bool {
        tracks.contains { (!downOnly || $0.isDown) && $0.start.distance(to: $0.location) > distance }
    }

    /// The mean displacement of every track from where it began.
    var meanDisplacement: Point {
        var sum = Point.zero
        for track in tracks { sum = sum + (track.location - track.start) }
        let n = Double(max(tracks.count, 1))
        return Point(x: sum.x / n, y: sum.y / n)
    }

    /// Forgets every touch, keeping the lists' room for the next cycle's.
    mutating func removeAll() {
        tracks.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        ignored.removeAll(keepingCapacity: true)
        firstTouchView = nil
        lastLocation = .zero
    }

    private func index(of id: TouchID) -> Int? { tracks.firstIndex { $0.id == id } }

    /// Ignores the touches that land while `maximum` fingers are down (a pan that has begun).
    mutating func ignoreFingers(beyond maximum: Int, in touches: [Touch]) {
        var down = downCount
        for touch in touches where touch.phase == .began && index(of: touch.id) == nil {
            if down >= maximum {
                ignored.insert(touch.id)
            } else {
                down += 1
            }
        }
    }

    /// Takes one event's changes: the touches it tracks, and those that begin now and are not
    /// ignored. `nil` when none of them is its own (an ignored finger, or one that outlived the
    /// recognizer's last cycle): then nothing changes.
    mutating func apply(_ touches: [Touch]) -> Changes? {
        func isOwn(_ touch: Touch) -> Bool { index(of: touch.id) != nil || (touch.phase == .began && !ignored.contains(touch.id)) }
        let own = touches.allSatisfy(isOwn) ? touches : touches.filter(isOwn)
        guard !own.isEmpty else { return nil }
        var changes = Changes(touches: own)
        for touch in own {
            switch touch.phase {
            case .began:
                tracks.append(Track(id: touch.id, start: touch.locationInWindow, location: touch.locationInWindow, isDown: true))
                seen.append(touch.id)
                if firstTouchView == nil { firstTouchView = touch.view }
                changes.began = true
            case .moved, .stationary:
                if let i = index(of: touch.id) { tracks[i].location = touch.locationInWindow }
                if touch.phase == .moved { changes.moved = true }
            case .ended:
                if let i = index(of: touch.id) {
                    tracks[i].location = touch.locationInWindow
                    tracks[i].isDown = false
                }
                changes.ended = true
            case .cancelled:
                if let i = index(of: touch.id) { tracks[i].isDown = false }
                changes.cancelled = true
            }
        }
        noteLastLocation(ending: own)
        return changes
    }

    /// Where the fingers down, and those lifting in this event, are now.
    private mutating func noteLastLocation(ending touches: [Touch]) {
        var sum = Point.zero
        var n = 0
        for track in tracks where track.isDown || touches.contains(where: { $0.id == track.id && $0.phase == .ended }) {
            sum = sum + track.location
            n += 1
        }
        if n > 0 { lastLocation = Point(x: sum.x / Double(n), y: sum.y / Double(n)) }
    }

    /// Follows what its kind's machine said: once a tap has completed, the lifted fingers' tracks
    /// are forgotten, since the next tap's touches are new tracks.
    mutating func settle(after outcome: RecognizerOutcome) {
        guard case .tapped = outcome else { return }
        tracks.removeAll { !$0.isDown }
    }
}
