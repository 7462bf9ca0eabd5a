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
    /// The named descendant when the point is inside that descendant's hit area, else the
    /// `.default` answer: seed 003's topView, whose `hitTest` returns the covered `underButton`
    /// when `underButton.point(inside:)` accepts the point and `super.hitTest` otherwise. As for
    /// `.redirect`, a descendant that is hidden, transparent or not interactive (itself or a view
    /// between) is never returned, and the view itself is skipped like any view when it is.
    case redirectInsideTarget(ResponderID)
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
    /// `transform`, about the view's center: hit-testing and every conversion between this view's
    /// coordinates and its superview's go through it (`frame` is the frame without it: UIKit's
    /// `center` and `bounds.size`).
    public var transform: ViewTransform
    /// The UIKit class the view stands for. Its defaults are applied where a layout is read
    /// (``ViewClass/defaults(frame:)``); afterwards it is a label only.
    public var viewClass: ViewClass
    /// A `next` override: the responder after this view in the responder chain instead of its
    /// controller or superview. Ignored while no responder has that id.
    public var nextResponder: ResponderID?

    /// UIKit ignores views whose alpha is less than 0.01 (its documentation's rule; the seeds' sample
    /// code writes `<= 0.01`, touchd follows UIKit: a view with alpha exactly 0.01 can be hit).
    public static let minimumHitTestAlpha = 0.01

    public init(
        frame: Rect, boundsOrigin: Point = .zero, isHidden: Bool = false, alpha: Double = 1,
        isUserInteractionEnabled: Bool = true, clipsToBounds: Bool = false,
        isMultipleTouchEnabled: Bool = false, isExclusiveTouch: Bool = false,
        hitExpansion: EdgeInsets = .zero, hitTestPolicy: HitTestPolicy = .default,
        transform: ViewTransform = .identity, viewClass: ViewClass = .view, nextResponder: ResponderID? = nil
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
        self.transform = transform
        self.viewClass = viewClass
        self.nextResponder = nextResponder
    }

    /// The view's own coordinate space: `bounds`.
    public var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }

    /// The area `point(inside:with:)` accepts, in the view's own coordinates.
    public var hitArea: Rect { bounds.outset(by: hitExpansion) }

    /// A point in the superview's coordinates converted into the view's own
    /// (`convert(_:from: superview)`): without a transform, minus the frame's origin plus the
    /// bounds' origin; with one, the offset from the frame's center through the inverse transform,
    /// plus the bounds' center. A transform without an inverse gives a point that is in no area
    /// (not a number), so the view is never hit; it never traps.
    @inline(__always)
    public func pointFromSuperview(_ point: Point) -> Point {
        Self.pointFromSuperview(point, frame: frame, boundsOrigin: boundsOrigin, transform: transform)
    }

    /// ``pointFromSuperview(_:)`` from the three properties it reads: what reads them in place
    /// calls it without copying the rest of a view's properties.
    @inline(__always)
    static func pointFromSuperview(_ point: Point, frame: Rect, boundsOrigin: Point, transform: ViewTransform) -> Point {
        if transform.isIdentity { return point - frame.origin + boundsOrigin }
        guard let inverse = transform.inverse else { return Point(x: .nan, y: .nan) }
        return inverse.apply(point - frame.center) + Rect(origin: boundsOrigin, size: frame.size).center
    }

    /// A point in the view's coordinates converted into its superview's (`convert(_:to: superview)`).
    public func pointToSuperview(_ point: Point) -> Point {
        if transform.isIdentity { return point - boundsOrigin + frame.origin }
        return transform.matrix.apply(point - bounds.center) + frame.center
    }

    /// The matrix that maps the view's coordinates into its superview's.
    public var toSuperview: AffineTransform {
        // p ↦ matrix(p − bounds.center) + frame.center, as one matrix.
        var m = transform.matrix
        let bc = bounds.center
        m.tx += frame.center.x - (m.a * bc.x + m.c * bc.y)
        m.ty += frame.center.y - (m.b * bc.x + m.d * bc.y)
        return m
    }

    /// The upright rectangle, in the superview's coordinates, that holds `rect` (in the view's
    /// coordinates) as it lies after the transform: `rect` moved by the frame without one.
    public func boxInSuperview(_ rect: Rect) -> Rect {
        if transform.isIdentity { return Rect(origin: rect.origin - boundsOrigin + frame.origin, size: rect.size) }
        return toSuperview.boundingBox(of: rect)
    }
}

/// The UIKit classes a layout's view can stand for, each with UIKit's defaults for it: labels and
/// image views take no touches (`isUserInteractionEnabled = false`), buttons, switches and sliders
/// are controls of the matching kind. A layout's own keys override each default.
public enum ViewClass: String, Hashable, Sendable, CaseIterable {
    /// `UIView`: every property at its plain default.
    case view
    /// `UILabel`: not interactive.
    case label
    /// `UIImageView`: not interactive.
    case image
    /// `UIButton`: a button control.
    case button
    /// `UISwitch`: a toggle control.
    case `switch`
    /// `UISlider`: a slider control.
    case slider

    /// A view of this class with UIKit's defaults for it.
    public func defaults(frame: Rect) -> ViewProperties {
        var properties = ViewProperties(frame: frame, viewClass: self)
        switch self {
        case .label, .image: properties.isUserInteractionEnabled = false
        case .view, .button, .switch, .slider: break
        }
        return properties
    }

    /// The control a view of this class is (UIKit's `UIControl` subclasses), or `nil`.
    public var controlKind: ControlKind? {
        switch self {
        case .button: .button
        case .switch: .toggle(isOn: false)
        case .slider: .slider(minimum: 0, maximum: 1, value: 0, step: nil, isContinuous: true)
        case .view, .label, .image: nil
        }
    }
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
    /// A `next` override: the responder after this controller instead of its window, presenter or
    /// root view's superview. Ignored while no responder has that id.
    public var nextResponder: ResponderID?

    public init(view: ResponderID, presentedBy: ResponderID? = nil, nextResponder: ResponderID? = nil) {
        self.view = view
        self.presentedBy = presentedBy
        self.nextResponder = nextResponder
    }
}
