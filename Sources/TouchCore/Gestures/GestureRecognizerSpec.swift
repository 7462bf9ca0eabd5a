/// Which way a swipe goes.
public struct SwipeDirections: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = SwipeDirections(rawValue: 1)
    public static let left = SwipeDirections(rawValue: 2)
    public static let up = SwipeDirections(rawValue: 4)
    public static let down = SwipeDirections(rawValue: 8)
}

/// What a recognizer looks for, with its thresholds. Distances are physical lengths (``Millimetres``,
/// converted to points through the window's points per millimetre), times ``TimeSpan``s.
public enum GestureKind: Hashable, Sendable {
    /// `UITapGestureRecognizer`: `taps` taps of `touches` fingers; each tap at most `maximumDuration`
    /// long and moving at most `slopMillimetres`; taps at most `interval` apart and
    /// `distanceMillimetres` from the first.
    case tap(taps: Int, touches: Int)
    /// `UILongPressGestureRecognizer`: `touches` fingers held `minimumDuration` without moving more
    /// than `allowableMovementMillimetres`. Continuous: began, changed as they move, ended on lift.
    case longPress(minimumDuration: TimeSpan, allowableMovementMillimetres: Millimetres, touches: Int)
    /// `UIPanGestureRecognizer`: begins once the fingers' centroid moved `thresholdMillimetres`, with
    /// between `minimumTouches` and `maximumTouches` fingers down.
    case pan(minimumTouches: Int, maximumTouches: Int, thresholdMillimetres: Millimetres)
    /// `UISwipeGestureRecognizer`: `touches` fingers travel `minimumDistanceMillimetres` in one of
    /// `directions` within `maximumDuration`.
    case swipe(directions: SwipeDirections, touches: Int, minimumDistanceMillimetres: Millimetres, maximumDuration: TimeSpan)
    /// `UIPinchGestureRecognizer`: two fingers whose distance changes by the factor `threshold`.
    case pinch(threshold: Double)
    /// `UIRotationGestureRecognizer`: two fingers turning by `thresholdRadians`.
    case rotation(thresholdRadians: Double)

    /// Whether the recognizer is discrete (recognized once) or continuous (began, changed, ended).
    public var isDiscrete: Bool {
        switch self {
        case .tap, .swipe: true
        case .longPress, .pan, .pinch, .rotation: false
        }
    }

    /// The kind's name in layouts and messages.
    public var name: String {
        switch self {
        case .tap: "tap"
        case .longPress: "long_press"
        case .pan: "pan"
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .rotation: "rotation"
        }
    }

    /// UIKit's long press: 0.5 s, 10 pt (about 1.6 mm at 163 ppi) of movement allowed.
    public static func defaultLongPress(touches: Int = 1) -> GestureKind {
        .longPress(minimumDuration: 0.5, allowableMovementMillimetres: 1.6, touches: touches)
    }

    /// A pan that begins after about 10 points (1.6 mm), like UIKit's.
    public static func defaultPan(minimumTouches: Int = 1, maximumTouches: Int = 10) -> GestureKind {
        .pan(minimumTouches: minimumTouches, maximumTouches: maximumTouches, thresholdMillimetres: 1.6)
    }
}

/// A gesture recognizer attached to a view. The counterpart of `UIGestureRecognizer`'s
/// configuration; it sees the touches of its view and of all the view's subviews, before the views do.
public struct GestureRecognizerSpec: Hashable, Sendable {
    public var id: ResponderID
    public var view: ResponderID
    public var kind: GestureKind
    /// `cancelsTouchesInView` (true): on recognition, touches already delivered to views are cancelled
    /// up their responder chains, and the views get no more of them.
    public var cancelsTouchesInView: Bool
    /// `delaysTouchesBegan` (false): views get `touchesBegan` only once this recognizer has failed.
    public var delaysTouchesBegan: Bool
    /// `delaysTouchesEnded` (true): a view's `touchesEnded` waits while this recognizer may still
    /// recognize (a double tap's first tap); it becomes `touchesCancelled` if it does.
    public var delaysTouchesEnded: Bool
    /// `require(toFail:)`: recognize only once these have failed.
    public var requiresFailureOf: [ResponderID]
    /// Recognizers this one may recognize at the same time as (`shouldRecognizeSimultaneouslyWith`).
    public var recognizesSimultaneouslyWith: [ResponderID]
    /// The action emitted when it recognizes (discrete) or begins and ends (continuous).
    public var action: String?
    public var payload: JSONValue

    public init(
        id: ResponderID, view: ResponderID, kind: GestureKind, cancelsTouchesInView: Bool = true,
        delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true, requiresFailureOf: [ResponderID] = [],
        recognizesSimultaneouslyWith: [ResponderID] = [], action: String? = nil, payload: JSONValue = .object([])
    ) {
        self.id = id
        self.view = view
        self.kind = kind
        self.cancelsTouchesInView = cancelsTouchesInView
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.requiresFailureOf = requiresFailureOf
        self.recognizesSimultaneouslyWith = recognizesSimultaneouslyWith
        self.action = action
        self.payload = payload
    }
}

/// A recognizer's state. The counterpart of `UIGestureRecognizer.State`.
public enum GestureState: String, Hashable, Sendable {
    case possible
    case began
    case changed
    case ended
    /// A discrete recognizer's success (`.recognized`, which UIKit aliases to `.ended`).
    case recognized
    case cancelled
    case failed

    /// Whether the recognizer is done with its current touches.
    public var isTerminal: Bool {
        switch self {
        case .ended, .recognized, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }
}

/// A state change of a recognizer: what a `gestures` subscriber is told.
public struct GestureRecord: Hashable, Sendable {
    public var recognizer: ResponderID
    public var kind: String
    public var view: ResponderID
    public var state: GestureState
    public var timestamp: InputTime
    /// The centroid of its touches that are down, in window coordinates; once all have lifted,
    /// where they were when they lifted.
    public var location: Point
    public var touches: [TouchID]
    /// What its kind measures: a tap's count, a pan's translation and velocity, a swipe's
    /// direction, a pinch's scale or a rotation's angle with its velocity.
    public var values: GestureValues

    public static func == (a: GestureRecord, b: GestureRecord) -> Bool {
        a.recognizer == b.recognizer && a.state == b.state && a.timestamp == b.timestamp && a.location == b.location
            && a.touches == b.touches && a.values == b.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(recognizer)
        hasher.combine(state)
        hasher.combine(timestamp)
    }
}
