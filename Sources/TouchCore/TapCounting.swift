/// How successive taps are counted into `tapCount`.
///
/// UIKit does not document its values; these defaults match what it does (anchors: 0.35 s and about
/// 45 pt, i.e. 7 mm at 163 ppi; a touch held over 0.75 s is no tap). Distances are physical lengths,
/// converted to points through the window's points per millimetre.
public struct TapSettings: Hashable, Sendable {
    /// The longest pause from one tap's lift-off to the next touch-down that still counts up.
    public var interval: TimeSpan
    /// The farthest the next touch-down may land from the previous tap.
    public var distanceMillimetres: Millimetres
    /// A touch held longer than this is no tap.
    public var maximumDuration: TimeSpan
    /// A touch that moves further than this from where it landed is no tap.
    public var slopMillimetres: Millimetres

    public init(
        interval: TimeSpan = 0.35, distanceMillimetres: Millimetres = 7, maximumDuration: TimeSpan = 0.75,
        slopMillimetres: Millimetres = 7
    ) {
        self.interval = interval
        self.distanceMillimetres = distanceMillimetres
        self.maximumDuration = maximumDuration
        self.slopMillimetres = slopMillimetres
    }
}

/// Remembers recent taps per window and gives each new touch its `tapCount`.
struct TapTracker: Sendable {
    struct RecentTap: Sendable {
        var window: ResponderID?
        var location: Point
        var endedAt: InputTime
        var count: Int
    }

    var settings: TapSettings
    private(set) var recent: [RecentTap] = []

    init(settings: TapSettings) { self.settings = settings }

    /// The tap count of a touch landing at `location` at `time`: one more than the nearest recent
    /// tap within the interval and distance, else 1. The tap it continues is consumed.
    mutating func tapCount(window: ResponderID?, location: Point, time: InputTime, pointsPerMillimetre: Double) -> Int {
        recent.removeAll { time - $0.endedAt > settings.interval || time < $0.endedAt }
        let maxDistance = settings.distanceMillimetres.points(at: pointsPerMillimetre)
        var best: Int?
        var bestDistance = Double.infinity
        for (i, tap) in recent.enumerated() where tap.window == window {
            let d = tap.location.distance(to: location)
            if d <= maxDistance && d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        guard let best else { return 1 }
        return recent.remove(at: best).count + 1
    }

    /// Records a touch that has just ended, if it was a tap: short enough and not moved beyond the slop.
    mutating func touchEnded(
        _ touch: Touch, farthestDistance: Double, pointsPerMillimetre: Double
    ) {
        let duration = touch.timestamp - touch.beganAt
        guard duration <= settings.maximumDuration,
            farthestDistance <= settings.slopMillimetres.points(at: pointsPerMillimetre)
        else { return }
        recent.append(
            RecentTap(
                window: touch.window, location: touch.locationInWindow, endedAt: touch.timestamp,
                count: touch.tapCount))
    }
}
