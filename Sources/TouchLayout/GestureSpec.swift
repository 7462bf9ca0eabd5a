/// `kind` of a `[[gesture]]`.
public enum GestureKindSpec: String, Hashable, Sendable, CaseIterable {
    case tap
    case longPress = "long_press"
    case pan
    case swipe
    case pinch
    case rotation
}

/// A `[[gesture]]` entry: a gesture recognizer attached to a view.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `id` | string | required | unique among gestures and responders |
/// | `view` | string | required | the view it is attached to (it sees that view's and its subviews' touches) |
/// | `kind` | string | required | `tap`, `long_press`, `pan`, `swipe`, `pinch`, `rotation` |
/// | `taps` | integer | 1 | tap: taps in a row |
/// | `touches` | integer | 1 | tap, long_press, swipe: fingers |
/// | `min_touches`, `max_touches` | integer | 1, 10 | pan |
/// | `duration` | number (s) | 0.5 | long_press: how long to hold |
/// | `movement_mm` | number | 1.6 | long_press: allowed movement |
/// | `threshold_mm` | number | 1.6 | pan: movement before it begins |
/// | `directions` | array of strings | `["right"]` | swipe: `left`, `right`, `up`, `down` |
/// | `distance_mm` | number | 10 | swipe: how far |
/// | `max_duration` | number (s) | 0.5 | swipe: how fast |
/// | `scale` | number > 1 | 1.1 | pinch: the factor the distance must change by |
/// | `angle_degrees` | number > 0 | 6 | rotation: how far the fingers must turn |
/// | `cancels_touches_in_view` | boolean | true | UIKit's `cancelsTouchesInView` |
/// | `delays_touches_began` | boolean | false | UIKit's `delaysTouchesBegan` |
/// | `delays_touches_ended` | boolean | true | UIKit's `delaysTouchesEnded` |
/// | `requires_failure_of` | array of gesture ids | `[]` | `require(toFail:)` |
/// | `simultaneous_with` | array of gesture ids | `[]` | may recognize together with these |
/// | `action` | string | none | emitted when it recognizes (discrete) or begins and ends (continuous) |
/// | `payload` | any TOML value | none | sent with the action |
public struct GestureSpec: Hashable, Sendable {
    public var id: String
    public var view: String
    public var kind: GestureKindSpec
    public var taps = 1
    public var touches = 1
    public var minimumTouches = 1
    public var maximumTouches = 10
    public var duration = 0.5
    public var movementMillimetres = 1.6
    public var thresholdMillimetres = 1.6
    public var directions: [String] = ["right"]
    public var distanceMillimetres = 10.0
    public var maximumDuration = 0.5
    public var scale = 1.1
    public var angleDegrees = 6.0
    public var cancelsTouchesInView = true
    public var delaysTouchesBegan = false
    public var delaysTouchesEnded = true
    public var requiresFailureOf: [String] = []
    public var simultaneousWith: [String] = []
    public var action: String?
    public var payload: PayloadValue?

    public init(id: String, view: String, kind: GestureKindSpec) {
        self.id = id
        self.view = view
        self.kind = kind
    }

    static let keys = [
        "id", "view", "kind", "taps", "touches", "min_touches", "max_touches", "duration", "movement_mm", "threshold_mm",
        "directions", "distance_mm", "max_duration", "scale", "angle_degrees", "cancels_touches_in_view",
        "delays_touches_began", "delays_touches_ended", "requires_failure_of", "simultaneous_with", "action", "payload",
    ]
    static let directionNames = ["left", "right", "up", "down"]
    /// Keys every kind takes.
    static let commonKeys = [
        "id", "view", "kind", "cancels_touches_in_view", "delays_touches_began", "delays_touches_ended", "requires_failure_of",
        "simultaneous_with", "action", "payload",
    ]
    /// The keys that configure one kind only; a key of another kind is an error.
    static func kindKeys(_ kind: GestureKindSpec) -> [String] {
        switch kind {
        case .tap: ["taps", "touches"]
        case .longPress: ["touches", "duration", "movement_mm"]
        case .pan: ["min_touches", "max_touches", "threshold_mm"]
        case .swipe: ["directions", "touches", "distance_mm", "max_duration"]
        case .pinch: ["scale"]
        case .rotation: ["angle_degrees"]
        }
    }
}
