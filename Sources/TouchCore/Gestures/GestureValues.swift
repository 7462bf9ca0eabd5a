/// What a recognizer's kind measures, beyond its state, location and touches: what a `gestures`
/// subscriber is told of it (TouchProtocol writes it into the message, in the order given here).
/// Made only when a state change is reported.
public enum GestureValues: Hashable, Sendable {
    /// A tap: how many taps it has completed.
    case tap(taps: Int)
    /// A long press: nothing of its own.
    case longPress
    /// A pan: how far its centroid has moved from where it is measured from, and how fast it moved
    /// as of the last move (points per second).
    case pan(translation: Point, velocity: Point)
    /// A swipe: the one direction it swiped in (right until it has swiped).
    case swipe(direction: SwipeDirections)
    /// A pinch: the fingers' distance over their distance when the last finger landed, and how fast
    /// it changes (per second).
    case pinch(scale: Double, velocity: Double)
    /// A rotation: how far the line between the fingers turned since the last finger landed (radians
    /// within ±π), and how fast it turns (radians per second).
    case rotation(angle: Double, velocity: Double)
}
