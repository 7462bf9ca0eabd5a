/// An event a control sends. The counterpart of `UIControl.Event`.
public enum ControlEvent: String, Hashable, Sendable, CaseIterable {
    case touchDown = "touch_down"
    case touchDownRepeat = "touch_down_repeat"
    case touchDragInside = "touch_drag_inside"
    case touchDragOutside = "touch_drag_outside"
    case touchDragEnter = "touch_drag_enter"
    case touchDragExit = "touch_drag_exit"
    case touchUpInside = "touch_up_inside"
    case touchUpOutside = "touch_up_outside"
    case touchCancel = "touch_cancel"
    case valueChanged = "value_changed"
    case primaryActionTriggered = "primary_action_triggered"
}

/// What kind of control a view is.
public enum ControlKind: Hashable, Sendable {
    /// `UIButton`: its primary action is a touch up inside.
    case button
    /// `UISwitch`: a touch up inside flips it and sends `valueChanged`.
    case toggle(isOn: Bool)
    /// `UISlider`: the value follows the finger along its width, with `valueChanged` as it changes.
    case slider(minimum: Double, maximum: Double, value: Double)

    public var name: String {
        switch self {
        case .button: "button"
        case .toggle: "toggle"
        case .slider: "slider"
        }
    }
}

/// An action a control sends for an event: to `target`, or with no target up the responder chain
/// from the control to the first responder whose handler takes `action` (`UIControl.addTarget`
/// with a nil target).
public struct ControlTarget: Hashable, Sendable {
    public var event: ControlEvent
    public var action: String
    public var target: ResponderID?

    public init(event: ControlEvent, action: String, target: ResponderID? = nil) {
        self.event = event
        self.action = action
        self.target = target
    }
}

/// A control: a view that tracks its touches itself instead of forwarding them up the responder
/// chain. The counterpart of `UIControl`.
public struct ControlSpec: Hashable, Sendable {
    public var view: ResponderID
    public var kind: ControlKind
    public var isEnabled: Bool
    public var targets: [ControlTarget]

    /// How far outside its bounds a touch still counts as inside while tracking (UIKit: about 70 pt).
    public static let trackingMargin = 70.0

    public init(view: ResponderID, kind: ControlKind, isEnabled: Bool = true, targets: [ControlTarget] = []) {
        self.view = view
        self.kind = kind
        self.isEnabled = isEnabled
        self.targets = targets
    }
}

/// A control's live state.
struct ControlState: Sendable {
    var spec: ControlSpec
    var trackingTouch: TouchID?
    var isInside = false

    /// The value a toggle or slider reports.
    var value: JSONValue {
        switch spec.kind {
        case .button: .null
        case .toggle(let isOn): .bool(isOn)
        case .slider(_, _, let value): .double(value)
        }
    }
}
