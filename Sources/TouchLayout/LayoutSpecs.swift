import TouchCore
import TouchEvdev

// The validated pieces of a layout file. Every value here has passed validation and has its
// default filled in; see the reference at the top of LayoutDocument.swift for the TOML keys.

/// A point in a layout file: `bounds_origin`, and the origin of a frame.
public struct LayoutPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = LayoutPoint(x: 0, y: 0)
}

/// A size in points: a window's `size`. Both dimensions are finite and not negative.
public struct LayoutSize: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle `[x, y, width, height]`: a view's `frame`, a device's `region`.
/// All four numbers are finite; width and height are not negative.
public struct LayoutRect: Hashable, Sendable {
    public var origin: LayoutPoint
    public var size: LayoutSize

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = LayoutPoint(x: x, y: y)
        size = LayoutSize(width: width, height: height)
    }

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// Whether `point` lies inside: `x <= p.x < x + width`, likewise for y.
    public func contains(_ point: LayoutPoint) -> Bool {
        point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }
}

/// Points added on each side of a view's bounds for hit-testing (`hit_expansion`). All finite, >= 0.
public struct LayoutInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same expansion on every side.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    public static let zero = LayoutInsets(all: 0)
}

/// `[application]`: the ids of the application object and of its delegate, the last two
/// responders of every responder chain.
public struct ApplicationSpec: Hashable, Sendable {
    /// The application's responder id. Default `"application"`.
    public var id: String
    /// The app delegate's responder id. Default `"app_delegate"`.
    public var delegate: String

    public static let defaultID = "application"
    public static let defaultDelegateID = "app_delegate"

    public init(id: String = ApplicationSpec.defaultID, delegate: String = ApplicationSpec.defaultDelegateID) {
        self.id = id
        self.delegate = delegate
    }
}

/// `[tap]`: how successive taps are counted into a touch's `tapCount`.
public struct TapSpec: Hashable, Sendable {
    /// `interval`: the longest pause (seconds) between one tap and the next that still counts up.
    public var interval: Double
    /// `distance_mm`: the farthest (millimetres) the next tap may land from the previous one.
    public var distanceMillimetres: Double
    /// `max_duration`: a touch held longer than this (seconds) is no tap.
    public var maximumDuration: Double
    /// `slop_mm`: a touch that moves further than this (millimetres) is no tap.
    public var slopMillimetres: Double

    public init(
        interval: Double = 0.35, distanceMillimetres: Double = 7, maximumDuration: Double = 0.75,
        slopMillimetres: Double = 7
    ) {
        self.interval = interval
        self.distanceMillimetres = distanceMillimetres
        self.maximumDuration = maximumDuration
        self.slopMillimetres = slopMillimetres
    }
}

/// `[queue]`: the application's event queue.
public struct QueueSpec: Hashable, Sendable {
    /// How many events the queue holds. 16 ... 1 048 576, default 1024.
    public var capacity: Int

    public static let defaultCapacity = 1024
    public static let capacityRange = 16...1_048_576

    public init(capacity: Int = QueueSpec.defaultCapacity) {
        self.capacity = capacity
    }
}

/// One `[[window]]`: a root of the view tree (a `UIWindow`).
public struct WindowSpec: Hashable, Sendable {
    public var id: String
    /// Width and height in points; the window's frame on its display is `(0, 0, size)`.
    public var size: LayoutSize
    /// `level`: windows of one display are hit-tested from the highest level down. Default 0.
    public var level: Double
    /// `key`: whether this is the key window. Exactly one window is key unless every window says
    /// `key = false`: the one with `key = true`, else the first window without `key = false`.
    public var isKey: Bool
    /// `points_per_mm`: converts the millimetre settings of `[tap]`. Default 6.4 (about 163 ppi).
    public var pointsPerMillimetre: Double
    /// `display`: windows of one display overlay each other. Default `"default"`.
    public var display: String
    /// `root_controller`: the id of the window's root view controller, if any.
    public var rootController: String?
    /// `first_responder`: the responder of this window that is first responder at start, if any.
    public var firstResponder: String? = nil
    /// `can_become_first_responder` and `can_resign_first_responder` of the window itself.
    public var firstResponderTraits = FirstResponderTraitsSpec()

    public static let defaultPointsPerMillimetre = 6.4
    public static let defaultDisplay = "default"

    public init(
        id: String, size: LayoutSize, level: Double = 0, isKey: Bool = false,
        pointsPerMillimetre: Double = WindowSpec.defaultPointsPerMillimetre,
        display: String = WindowSpec.defaultDisplay, rootController: String? = nil
    ) {
        self.id = id
        self.size = size
        self.level = level
        self.isKey = isKey
        self.pointsPerMillimetre = pointsPerMillimetre
        self.display = display
        self.rootController = rootController
    }
}

/// One `[[controller]]`: a view controller, the next responder after its root view.
public struct ControllerSpec: Hashable, Sendable {
    public var id: String
    /// `view`: the id of the controller's root view.
    public var view: String
    /// `presented_by`: the id of the controller that presented this one, if any.
    public var presentedBy: String?

    /// `can_become_first_responder` and `can_resign_first_responder`.
    public var firstResponderTraits = FirstResponderTraitsSpec()

    public init(id: String, view: String, presentedBy: String? = nil) {
        self.id = id
        self.view = view
        self.presentedBy = presentedBy
    }
}

/// How a view answers hit-testing (`hit_test`, with `redirect`).
public enum HitTestPolicySpec: Hashable, Sendable {
    /// `"default"`: UIKit's `hitTest(_:with:)`: the deepest eligible subview, else the view itself.
    case `default`
    /// `"pass-through"`: never the view itself, though one of its subviews can be.
    case passThrough
    /// `"capture"`: the view itself whenever the point is inside it; subviews are not asked.
    case capture
    /// `"redirect"`: the named strict descendant whenever the point is inside the view.
    case redirect(String)
    /// `"none"`: never anything, without asking its subviews (a `hitTest` that returns `nil`).
    case refuse
}

/// One `[[view]]`.
public struct ViewSpec: Hashable, Sendable {
    public var id: String
    /// `parent`: the id of the superview, or of the window when this is a top-level view.
    public var parent: String
    /// `frame`, in the parent's coordinate space.
    public var frame: LayoutRect
    /// `bounds_origin`: the origin of the view's own coordinate space. Default (0, 0).
    public var boundsOrigin: LayoutPoint
    /// `hidden`. Default false.
    public var isHidden: Bool
    /// `alpha`, 0...1. Default 1.
    public var alpha: Double
    /// `interactive` (`isUserInteractionEnabled`). Default true.
    public var isUserInteractionEnabled: Bool
    /// `clips_to_bounds`. Default false.
    public var clipsToBounds: Bool
    /// `multiple_touch` (`isMultipleTouchEnabled`). Default false.
    public var isMultipleTouchEnabled: Bool
    /// `exclusive_touch` (`isExclusiveTouch`). Default false.
    public var isExclusiveTouch: Bool
    /// `hit_expansion`: points added on each side of the bounds for hit-testing. Default zero.
    public var hitExpansion: LayoutInsets
    /// `hit_test` and `redirect`. Default `.default`.
    public var hitTest: HitTestPolicySpec
    /// `can_become_first_responder` and `can_resign_first_responder`.
    public var firstResponderTraits = FirstResponderTraitsSpec()

    public init(
        id: String, parent: String, frame: LayoutRect, boundsOrigin: LayoutPoint = .zero,
        isHidden: Bool = false, alpha: Double = 1, isUserInteractionEnabled: Bool = true,
        clipsToBounds: Bool = false, isMultipleTouchEnabled: Bool = false,
        isExclusiveTouch: Bool = false, hitExpansion: LayoutInsets = .zero,
        hitTest: HitTestPolicySpec = .default
    ) {
        self.id = id
        self.parent = parent
        self.frame = frame
        self.boundsOrigin = boundsOrigin
        self.isHidden = isHidden
        self.alpha = alpha
        self.isUserInteractionEnabled = isUserInteractionEnabled
        self.clipsToBounds = clipsToBounds
        self.isMultipleTouchEnabled = isMultipleTouchEnabled
        self.isExclusiveTouch = isExclusiveTouch
        self.hitExpansion = hitExpansion
        self.hitTest = hitTest
    }
}

/// Whether a responder may be first responder: `can_become_first_responder` (default false, as
/// UIKit's `canBecomeFirstResponder`) and `can_resign_first_responder` (default true).
public struct FirstResponderTraitsSpec: Hashable, Sendable {
    public var canBecome: Bool
    public var canResign: Bool

    public init(canBecome: Bool = false, canResign: Bool = true) {
        self.canBecome = canBecome
        self.canResign = canResign
    }
}

extension HandlerTrigger {
    /// Whether this is one of the four touch methods (`tap_count` applies to those only).
    var isTouch: Bool { Self.touchMethods.contains(self) }

    /// Whether this is one of the press methods (`key` applies to those only).
    var isPress: Bool { self == .pressesBegan || self == .pressesEnded || self == .pressesCancelled }
}

/// One `[[handler]]`: what a responder does in one of its touch methods.
public struct HandlerSpec: Hashable, Sendable {
    /// `responder`: the id of a window, view, controller, the application or its delegate.
    public var responder: String
    /// `on`: the touch method.
    public var trigger: HandlerTrigger
    /// `action`: the name of the action emitted. Never empty.
    public var action: String
    /// `payload`: any TOML value, carried with the action. Nil when absent.
    public var payload: PayloadValue?
    /// `pass_on`: whether the touch then goes on up the responder chain (like calling `super`).
    /// Default true; false consumes it.
    public var passesOn: Bool
    /// `tap_count`: when set, the handler runs only for touches whose `tapCount` equals it.
    public var tapCount: Int?
    /// `selector`: with `on = "action"`, the action name this handler takes.
    public var selector: String? = nil
    /// `key`: with a press trigger, the kernel's key name (`KEY_ENTER`) the handler runs for.
    public var key: String? = nil
    /// `subtype`: with `on = "remote_control"`, the command the handler runs for (`play`, ...).
    public var remoteControlSubtype: String? = nil
    /// `become_first_responder`: the responder that becomes first responder when the handler runs.
    public var becomeFirstResponder: String? = nil
    /// `resign_first_responder`: the responder that resigns first responder when the handler runs.
    public var resignFirstResponder: String? = nil

    public init(
        responder: String, trigger: HandlerTrigger, action: String, payload: PayloadValue? = nil,
        passesOn: Bool = true, tapCount: Int? = nil
    ) {
        self.responder = responder
        self.trigger = trigger
        self.action = action
        self.payload = payload
        self.passesOn = passesOn
        self.tapCount = tapCount
    }
}

/// The kind of input device a `[[device]]` entry accepts (`match.kind`).
public enum DeviceKindSpec: String, Hashable, Sendable, CaseIterable {
    /// A direct-touch screen: contact positions map onto the window.
    case touchscreen
    /// An indirect touchpad: its surface maps onto the window (or the region).
    case touchpad
    /// Either touch kind. The default.
    case any
    /// A keyboard, media keys or a remote-control receiver (udev's `ID_INPUT_KEY`): presses and
    /// remote-control commands.
    case keys
    /// An accelerometer (`INPUT_PROP_ACCELEROMETER`): shakes.
    case accelerometer

    /// Whether the kind is a touch surface (touchscreen, touchpad or either).
    public var isTouch: Bool { self == .touchscreen || self == .touchpad || self == .any }
}

/// A USB vendor and product id (`match.usb = "03eb:8c1f"`).
public struct USBID: Hashable, Sendable, CustomStringConvertible {
    public var vendor: UInt16
    public var product: UInt16

    public init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// Parses `"vvvv:pppp"`: exactly four hexadecimal digits on each side, any case.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && $0.allSatisfy(\.isHexDigit) }),
            let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
        else { return nil }
        self.init(vendor: vendor, product: product)
    }

    /// `"vvvv:pppp"` in lower-case hexadecimal.
    public var description: String { Self.hex4(vendor) + ":" + Self.hex4(product) }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// `match`: which input devices a `[[device]]` entry takes. Every criterion given must hold;
/// an empty match takes every device of the kind.
public struct DeviceMatchSpec: Hashable, Sendable {
    /// `kind`. Default `.any`.
    public var kind: DeviceKindSpec
    /// `name`: a glob over the device name (`*`, `?`, `[...]`, `\` escapes).
    public var name: String?
    /// `usb`: the USB vendor and product.
    public var usb: USBID?
    /// `id_path`: udev's `ID_PATH`, compared exactly.
    public var idPath: String?
    /// `id_serial`: udev's `ID_SERIAL`, compared exactly.
    public var idSerial: String?
    /// `devnode`: the device node, e.g. `/dev/input/event5`, compared exactly.
    public var devnode: String?

    public init(
        kind: DeviceKindSpec = .any, name: String? = nil, usb: USBID? = nil, idPath: String? = nil,
        idSerial: String? = nil, devnode: String? = nil
    ) {
        self.kind = kind
        self.name = name
        self.usb = usb
        self.idPath = idPath
        self.idSerial = idSerial
        self.devnode = devnode
    }

    /// Whether `deviceName` matches the `name` glob (true when there is no glob).
    public func nameMatches(_ deviceName: String) -> Bool {
        guard let name else { return true }
        return Glob.matches(pattern: Array(name.unicodeScalars), Array(deviceName.unicodeScalars))
    }
}

/// `rotation`: how the device's axes are turned, clockwise, before mapping onto the window.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// The rotation in degrees.
    public var degrees: Int { rawValue }
}

/// One `[[device]]`: which input devices feed which window, and how their coordinates map.
public struct DeviceSpec: Hashable, Sendable {
    public var match: DeviceMatchSpec
    /// `window`: the id of the window touches go to. Empty for a key device or an accelerometer
    /// without `window`: its events go to the key window.
    public var window: String
    /// `region`: the part of the window (in window points) the device surface maps onto;
    /// nil means the whole window.
    public var region: LayoutRect?
    /// `rotation`. Default `.none`.
    public var rotation: Rotation
    /// `swap_axes`. Default false.
    public var swapAxes: Bool
    /// `invert_x`. Default false.
    public var invertX: Bool
    /// `invert_y`. Default false.
    public var invertY: Bool
    /// `calibration`: a libinput calibration matrix, six finite numbers `[a, b, c, d, e, f]`.
    public var calibration: [Double]?
    /// `udev_calibration`: use udev's `LIBINPUT_CALIBRATION_MATRIX` when present and no
    /// `calibration` is given. Default true.
    public var usesUdevCalibration: Bool
    /// `pointercal`: a tslib calibration file, already resolved against the layout file's directory.
    public var pointercal: String?
    /// The calibration in the `pointercal` file, read and parsed with the layout (the layout's
    /// loader in the daemon fills it in); nil until then, and when there is no `pointercal`.
    public var pointercalContents: Pointercal?
    /// `grab`: grab the device exclusively. Default true.
    public var grab: Bool
    /// `palm_pressure`: contacts at or above this pressure (device units) are palms.
    public var palmPressure: Int?
    /// `palm_touch_major`: contacts at or above this touch-major (device units) are palms.
    public var palmTouchMajor: Int?
    /// `shake_threshold_g`, `shake_duration`, `shake_settle`: when an accelerometer's movement is a
    /// shake.
    public var shake = ShakeSpec()

    public init(
        match: DeviceMatchSpec = DeviceMatchSpec(), window: String, region: LayoutRect? = nil,
        rotation: Rotation = .none, swapAxes: Bool = false, invertX: Bool = false,
        invertY: Bool = false, calibration: [Double]? = nil, usesUdevCalibration: Bool = true,
        pointercal: String? = nil, grab: Bool = true, palmPressure: Int? = nil,
        palmTouchMajor: Int? = nil
    ) {
        self.match = match
        self.window = window
        self.region = region
        self.rotation = rotation
        self.swapAxes = swapAxes
        self.invertX = invertX
        self.invertY = invertY
        self.calibration = calibration
        self.usesUdevCalibration = usesUdevCalibration
        self.pointercal = pointercal
        self.grab = grab
        self.palmPressure = palmPressure
        self.palmTouchMajor = palmTouchMajor
    }
}

/// An accelerometer's shake settings (`[[device]]` with `match.kind = "accelerometer"`): the
/// decoder's own settings: `shake_threshold_g` is `thresholdG`, `shake_duration` is
/// `minimumDuration` and `shake_settle` is `settle`, with the decoder's defaults.
public typealias ShakeSpec = ShakeSettings
