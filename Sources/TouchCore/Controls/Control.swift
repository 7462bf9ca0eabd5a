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
    /// `UISlider`: the value jumps to the finger at touch-down and follows it along the width,
    /// snapped to a multiple of `step` from `minimum` when there is a step (or to `maximum` when
    /// that is nearer). `valueChanged` is sent as it changes when `isContinuous` (UIKit's
    /// `isContinuous`), else once when the finger lifts, if the value then differs from its value
    /// at touch-down.
    case slider(minimum: Double, maximum: Double, value: Double, step: Double? = nil, isContinuous: Bool = true)

    public var name: String {
        switch self {
        case .button: "button"
        case .toggle: "toggle"
        case .slider: "slider"
        }
    }

    /// A slider's value for `value` in its range: clamped to the range, then snapped to the nearest
    /// `minimum + k × step`, or to `maximum` when that is nearer (a range that is no multiple of the
    /// step still reaches its end). `value` itself for the other kinds.
    public func sliderValue(_ value: Double) -> Double {
        guard case .slider(let minimum, let maximum, _, let step, _) = self else { return value }
        let clamped = min(max(value, minimum), maximum)
        guard let step, step > 0 else { return clamped }
        let steps = ((clamped - minimum) / step).rounded()
        // A step too fine for the range to count in a double (a step of 1e-300): nothing to snap.
        guard steps.isFinite, steps.magnitude < 9_007_199_254_740_992 else { return clamped }
        let snapped = min(minimum + steps * step, maximum)
        return abs(maximum - clamped) < abs(snapped - clamped) ? maximum : snapped
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
    /// The value when the tracked touch went down: a slider that is not continuous sends
    /// `valueChanged` at the end only if the value then differs.
    var valueAtTouchDown: JSONValue = .null

    /// The value a toggle or slider reports.
    var value: JSONValue {
        switch spec.kind {
        case .button: .null
        case .toggle(let isOn): .bool(isOn)
        case .slider(_, _, let value, _, _): .double(value)
        }
    }
}

/// Why a control's value or state could not be set (``Application/setControl(_:value:enabled:)``).
public enum ControlChangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The view is not a control (or not in the tree).
    case notAControl(ResponderID)
    /// The value does not suit the control's kind or range.
    case unsuitableValue(ResponderID, expected: String)

    public var description: String {
        switch self {
        case .notAControl(let view): "\"\(view)\" is not a control"
        case .unsuitableValue(let view, let expected): "control \"\(view)\": expected \(expected)"
        }
    }
}

/// What a control's target-action carries besides the action (the counterpart of the `sender` and
/// the `UIControl.Event` of `sendAction(_:to:for:)`): which control sent it, for which event, the
/// action's name as the control sent it, and the control's value then.
public struct ControlActionRecord: Hashable, Sendable {
    /// The control's view.
    public var control: ResponderID
    public var event: ControlEvent
    /// The action name the control sent (its `[[control.target]]`'s `action`).
    public var action: String
    /// A toggle's state or a slider's value after the event; nil for a button.
    public var value: JSONValue?

    public init(control: ResponderID, event: ControlEvent, action: String, value: JSONValue?) {
        self.control = control
        self.event = event
        self.action = action
        self.value = value
    }
}
