/// How a view answers `hitTest(_:with:)`: UIKit's default, or one of the overrides the seeds show.
public enum HitTestPolicy: Hashable, Sendable {
    /// UIKit's `hitTest(_:with:)`: the deepest eligible subview under the point, else the view itself.
    case `default`
    /// Never the result itself, though a subview can be (seed 000 §3.3.2: `return view == self ? nil : view`).
    case passThrough
    /// Itself for every point that reaches it, inside it or not (seed 000's `return self;`): its
    /// superview asks every subview, so a capturing view takes every point of its superview that no
    /// sibling above it took; its subviews are not asked. Unlike the seed's bare override, a hidden,
    /// non-interactive or transparent capturing view is skipped, as any view is, so an overlay can
    /// be shown and hidden.
    case capture
    /// The named descendant when the point is inside the view's hit area. When that descendant is
    /// hidden, transparent or not interactive (itself or a view between), the view behaves as
    /// `.default`.
    case redirect(ResponderID)
    /// The named descendant for every point that reaches the view, inside it or not, whatever the
    /// view or the descendant is like (hidden, transparent, not interactive): seed 000's whiteView,
    /// `return self.subviews[0];` ("不管点击哪里": wherever the touch lands, red gets it). When the
    /// descendant has left the tree, the view behaves as `.default`.
    case redirectAnywhere(ResponderID)
    /// Never anything: `nil` at once, without the eligibility and point tests and without asking
    /// subviews (seed 001's `override func hitTest(...) { return nil }`). The superview then
    /// tries its other subviews, or becomes the hit view itself.
    case refuse
}

/// A view's properties. The counterparts of `UIView`'s properties of the same names.
public struct ViewProperties: Hashable, Sendable {
    /// The frame in the superview's coordinate space.
    public var frame: Rect
    /// The origin of the view's own coordinate space (`bounds.origin`); its size is the frame's.
    public var boundsOrigin: Point
    public var isHidden: Bool
    /// Opacity, 0...1. Below ``ViewProperties/minimumHitTestAlpha`` the view is skipped by hit-testing.
    public var alpha: Double
    /// `isUserInteractionEnabled`.
    public var isUserInteractionEnabled: Bool
    /// Recorded for drawing; hit-testing never reaches a point outside a superview's bounds anyway.
    public var clipsToBounds: Bool
    /// `isMultipleTouchEnabled`: when false the view receives only the first of simultaneous touches.
    public var isMultipleTouchEnabled: Bool
    /// `isExclusiveTouch`: while this view tracks a touch, no other view of the window gets new ones,
    /// and it gets none while other views of the window track touches.
    public var isExclusiveTouch: Bool
    /// Points added to the bounds on each side for `point(inside:with:)` (seed 000's enlarged button).
    public var hitExpansion: EdgeInsets
    public var hitTestPolicy: HitTestPolicy

    /// UIKit ignores views whose alpha is less than 0.01 (its documentation's rule; the seeds' sample
    /// code writes `<= 0.01`, touchd follows UIKit: a view with alpha exactly 0.01 can be hit).
    public static let minimumHitTestAlpha = 0.01

    public init(
        frame: Rect, boundsOrigin: Point = .zero, isHidden: Bool = false, alpha: Double = 1,
        isUserInteractionEnabled: Bool = true, clipsToBounds: Bool = false,
        isMultipleTouchEnabled: Bool = false, isExclusiveTouch: Bool = false,
        hitExpansion: EdgeInsets = .zero, hitTestPolicy: HitTestPolicy = .default
    ) {
        self.frame = frame
        self.boundsOrigin = boundsOrigin
        self.isHidden = isHidden
        self.alpha = alpha
        self.isUserInteractionEnabled = isUserInteractionEnabled
        self.clipsToBounds = clipsToBounds
        self.isMultipleTouchEnabled = isMultipleTouchEnabled
        self.isExclusiveTouch = isExclusiveTouch
        self.hitExpansion = hitExpansion
        self.hitTestPolicy = hitTestPolicy
    }

    /// The view's own coordinate space: `bounds`.
    public var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }

    /// The area `point(inside:with:)` accepts, in the view's own coordinates.
    public var hitArea: Rect { bounds.outset(by: hitExpansion) }
}

/// A window's properties. A window is also a view (as `UIWindow` is a `UIView`) whose frame is
/// `(0, 0, size)` on its display.
public struct WindowProperties: Hashable, Sendable {
    public var size: Size
    /// `windowLevel`: windows of one display are hit-tested from the highest level down.
    public var level: Double
    /// Whether this is the key window (`isKeyWindow`): non-touch events go to it.
    public var isKey: Bool
    /// Points per millimetre of the physical screen: converts the layout's millimetre thresholds.
    public var pointsPerMillimetre: Double
    /// The display the window is on. Windows of one display overlay each other.
    public var display: String
    /// The root view controller (`rootViewController`), if any.
    public var rootController: ResponderID?
    /// `isHidden`: a hidden window takes no touch; the window below it does.
    public var isHidden: Bool
    /// `isUserInteractionEnabled`: a window that is not interactive takes no touch either.
    public var isUserInteractionEnabled: Bool
    /// How the window answers hit-testing (its `hitTest(_:with:)`): `.refuse` sends every touch
    /// to the window below, `.capture` keeps every touch for the window itself (seed 000's special
    /// cases), `.passThrough` lets touches that land on no view fall through to the window below.
    public var hitTestPolicy: HitTestPolicy
    /// The display's refresh rate (Hz): touch moves in this window reach the application once per
    /// display frame, at whole multiples of `1 / refreshRate` seconds on the input's clock, with
    /// the samples in between attached (UIKit's coalesced touches). 0 dispatches every input frame
    /// as it comes. A frame in which a touch begins, ends or is cancelled is dispatched at once
    /// either way. See ``ApplicationEventQueue``.
    public var refreshRate: Double

    /// 6.4 points per millimetre, about 163 points per inch (UIKit's reference density).
    public static let defaultPointsPerMillimetre = 6.4
    /// A layout window's refresh rate when it names none (`refresh_hz`): 60 Hz, the display rate
    /// UIKit and Android deliver touches at. A window made in code without one dispatches every
    /// input frame (0), the core's plainest behaviour.
    public static let layoutRefreshRate = 60.0

    public init(
        size: Size, level: Double = 0, isKey: Bool = false,
        pointsPerMillimetre: Double = WindowProperties.defaultPointsPerMillimetre,
        display: String = "default", rootController: ResponderID? = nil, isHidden: Bool = false,
        isUserInteractionEnabled: Bool = true, hitTestPolicy: HitTestPolicy = .default, refreshRate: Double = 0
    ) {
        self.size = size
        self.refreshRate = refreshRate
        self.level = level
        self.isKey = isKey
        self.pointsPerMillimetre = pointsPerMillimetre
        self.display = display
        self.rootController = rootController
        self.isHidden = isHidden
        self.isUserInteractionEnabled = isUserInteractionEnabled
        self.hitTestPolicy = hitTestPolicy
    }

    /// The window as a view: its frame on the display and its hit-testing properties.
    var viewProperties: ViewProperties {
        ViewProperties(
            frame: Rect(origin: .zero, size: size), isHidden: isHidden, isUserInteractionEnabled: isUserInteractionEnabled,
            hitTestPolicy: hitTestPolicy)
    }
}

/// A view controller: a responder that owns a root view. The counterpart of `UIViewController`.
public struct ControllerProperties: Hashable, Sendable {
    /// The controller's root view (`view`).
    public var view: ResponderID
    /// The controller that presented this one (`presentingViewController`), if any.
    public var presentedBy: ResponderID?

    public init(view: ResponderID, presentedBy: ResponderID? = nil) {
        self.view = view
        self.presentedBy = presentedBy
    }
}
