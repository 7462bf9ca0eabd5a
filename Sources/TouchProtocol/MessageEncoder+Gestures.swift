import TouchCore

/// What a `gestures` message says of its recognizer's kind (`docs/protocol.md`, the `gesture` message).
extension MessageEncoder {
    /// Writes `values` as the members that follow `touches` in a `gestures` message: `taps` (tap),
    /// `translation` and `velocity` as points (pan), `direction` (swipe), `scale` or `rotation`
    /// then `velocity` (pinch, rotation); nothing for a long press.
    static func members(of values: GestureValues, to w: inout JSONWriter) {
        switch values {
        case .tap(let taps):
            w.member("taps"); w.int(Int64(taps))
        case .longPress:
            break
        case .pan(let translation, let velocity):
            w.member("translation"); point(translation, to: &w)
            w.member("velocity"); point(velocity, to: &w)
        case .swipe(let direction):
            w.member("direction"); w.string(name(of: direction))
        case .pinch(let scale, let velocity):
            w.member("scale"); w.double(scale)
            w.member("velocity"); w.double(velocity)
        case .rotation(let angle, let velocity):
            w.member("rotation"); w.double(angle)
            w.member("velocity"); w.double(velocity)
        }
    }

    /// A swipe direction's name, as layouts spell it; `right` for anything but one direction.
    static func name(of direction: SwipeDirections) -> String {
        SwipeDirections.named.first { $0.direction == direction }?.name ?? "right"
    }
}
