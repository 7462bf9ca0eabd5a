extension GestureKind {
    /// UIKit's tap: one tap of one finger.
    public static let defaultTap = GestureKind.tap(taps: 1, touches: 1)
    /// UIKit's swipe: one finger to the right, at least 10 mm within half a second.
    public static let defaultSwipe = GestureKind.swipe(
        directions: .right, touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5)
    /// A pinch that begins once the fingers' distance changed by 10 %.
    public static let defaultPinch = GestureKind.pinch(threshold: 1.1)
    /// A rotation that begins once the fingers turned by 6 degrees.
    public static let defaultRotation = GestureKind.rotation(thresholdRadians: 6 * Double.pi / 180)

    /// One recognizer of every kind, each with its default thresholds: what a layout's gesture
    /// starts from before its own keys change them.
    public static let defaults: [GestureKind] = [
        defaultTap, defaultLongPress(), defaultPan(), defaultSwipe, defaultPinch, defaultRotation,
    ]
}

extension SwipeDirections {
    /// Each direction with its name in layouts and messages.
    public static let named: [(name: String, direction: SwipeDirections)] = [
        ("left", .left), ("right", .right), ("up", .up), ("down", .down),
    ]
}
