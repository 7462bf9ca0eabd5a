/// Where a new touch landed: what a `hits` subscriber is told at touch-down.
public struct HitRecord: Hashable, Sendable {
    public var touch: TouchID
    public var device: String
    public var timestamp: InputTime
    /// The window that took the touch (the device's window when none did).
    public var window: ResponderID?
    /// The hit-test view, or `nil` when no view took the point.
    public var view: ResponderID?
    /// From the window down to the hit view.
    public var viewPath: [ResponderID]
    public var pointInWindow: Point
    public var pointInView: Point?
    public var delivery: TouchDelivery
    public var tapCount: Int
    /// Every view the hit-test visited and how it answered, in the order seed 001 logs them:
    /// recorded only when the application traces hit-tests (``Application/tracesHitTests``).
    public var trace: [HitTestStep] = []

    public init(
        touch: TouchID, device: String, timestamp: InputTime, window: ResponderID?, view: ResponderID?, viewPath: [ResponderID],
        pointInWindow: Point, pointInView: Point?, delivery: TouchDelivery, tapCount: Int, trace: [HitTestStep] = []
    ) {
        self.touch = touch
        self.device = device
        self.timestamp = timestamp
        self.window = window
        self.view = view
        self.viewPath = viewPath
        self.pointInWindow = pointInWindow
        self.pointInView = pointInView
        self.delivery = delivery
        self.tapCount = tapCount
        self.trace = trace
    }
}

/// One call of a responder method: `touchesBegan(_:with:)` on `responder` with `touches`.
public struct ResponderCall: Hashable, Sendable, CustomStringConvertible {
    public var responder: ResponderID
    public var trigger: HandlerTrigger
    public var touches: [TouchID]
    /// For presses, remote control and motion: the keys' names, or the command or motion subtype.
    public var detail: [String]
    /// Whether the call went on to the next responder, as an override calling `super` (or no
    /// override at all) sends it on. A control never passes its touches on.
    public var passedOn: Bool

    public init(responder: ResponderID, trigger: HandlerTrigger, touches: [TouchID], detail: [String] = [], passedOn: Bool = true) {
        self.responder = responder
        self.trigger = trigger
        self.touches = touches
        self.detail = detail
        self.passedOn = passedOn
    }

    public var description: String {
        detail.isEmpty ? "\(responder) - \(trigger.methodName) \(touches)" : "\(responder) - \(trigger.methodName) \(detail)"
    }
}

/// An action a handler emitted.
public struct ActionRecord: Hashable, Sendable {
    public var name: String
    /// The responder whose handler emitted it, or the gesture recognizer that did; `nil` for a
    /// control's action that no responder took (see ``control``).
    public var responder: ResponderID?
    /// The responder method it ran for (`nil` for a recognizer's action).
    public var trigger: HandlerTrigger?
    public var payload: JSONValue
    /// The touches of the call.
    public var touches: [TouchID]
    /// The hit-test view the call started at.
    public var view: ResponderID?
    public var timestamp: InputTime
    /// The recognizer's state, for a recognizer's action.
    public var gestureState: GestureState? = nil
    /// For presses: the keys' names; for remote control and motion: the subtype.
    public var detail: [String] = []
    /// For a control's target-action: the control, its event, the action it sent and its value.
    public var control: ControlActionRecord? = nil
}

/// One step of a dispatch, in the order it happened: what seed 001's logs print.
public enum DispatchLogEntry: Hashable, Sendable {
    case call(ResponderCall)
    case gesture(GestureRecord)
    case action(ActionRecord)
}

/// Everything that dispatching one event produced, in order. The core returns these values; the
/// socket server turns them into messages.
public struct DispatchReport: Hashable, Sendable {
    public var event: Event
    /// One per touch that began, in contact order.
    public var hits: [HitRecord] = []
    /// The touches this event changed (began, moved, ended or cancelled), in contact order.
    public var changedTouches: [Touch] = []
    /// Every responder method call, in order.
    public var calls: [ResponderCall] = []
    /// Every action emitted, in order.
    public var actions: [ActionRecord] = []
    /// Calls that reached the end of the responder chain unconsumed (UIKit drops them).
    public var unhandled: [ResponderCall] = []
    /// Input the core could not make sense of (e.g. a move for a contact that never began).
    public var anomalies: [String] = []
    /// Gesture recognizer state changes, in order.
    public var gestures: [GestureRecord] = []
    /// Calls, recognizer changes and actions interleaved in the order they happened.
    public var log: [DispatchLogEntry] = []
    /// The presses this event changed (began, ended or cancelled), in key order.
    public var presses: [Press] = []
    /// The remote-control command this event carried, with the responder it started at.
    public var remoteControl: RemoteControlInput? = nil
    /// The motion this event carried.
    public var motion: MotionInput? = nil
    /// The touches passed on to the windows' virtual touchscreens, in order (``ForwardMode``).
    public var forwarded: [ForwardedTouch] = []
    /// Where a press, remote-control or motion event started: the first responder or the root.
    public var startResponder: ResponderID? = nil
    /// First-responder changes that handlers made during this event, in order.
    public private(set) var firstResponderChanges: [FirstResponderChange] = []
    /// For each of ``firstResponderChanges``, how many of ``actions`` came before it. A handler's
    /// change happens inside its action, as `becomeFirstResponder()` inside an action method does:
    /// it follows that action and precedes the next, and messages keep that order.
    public private(set) var actionsBeforeFirstResponderChanges: [Int] = []

    public init(event: Event) { self.event = event }

    /// Marks the recorded call at `index` (in ``calls``, and its entry in ``log``) as passed on or not.
    mutating func markCall(_ index: Int, passedOn: Bool) {
        guard calls.indices.contains(index) else { return }
        let before = calls[index]
        calls[index].passedOn = passedOn
        if let entry = log.lastIndex(of: .call(before)) { log[entry] = .call(calls[index]) }
    }

    /// Records a first-responder change a handler made, after the actions emitted so far.
    public mutating func appendFirstResponderChange(_ change: FirstResponderChange) {
        firstResponderChanges.append(change)
        actionsBeforeFirstResponderChanges.append(actions.count)
    }

    /// Adds what `later` (another part of the same event, dispatched after this one) produced,
    /// after what this report holds: every list, first-responder changes still after the actions
    /// that came before them. What only a press, remote-control or motion event carries is this
    /// report's unless it has none.
    mutating func append(_ later: DispatchReport) {
        hits += later.hits
        changedTouches += later.changedTouches
        calls += later.calls
        for (change, before) in zip(later.firstResponderChanges, later.actionsBeforeFirstResponderChanges) {
            firstResponderChanges.append(change)
            actionsBeforeFirstResponderChanges.append(actions.count + before)
        }
        actions += later.actions
        unhandled += later.unhandled
        anomalies += later.anomalies
        gestures += later.gestures
        log += later.log
        presses += later.presses
        forwarded += later.forwarded
        remoteControl = remoteControl ?? later.remoteControl
        motion = motion ?? later.motion
        startResponder = startResponder ?? later.startResponder
    }

    /// `first` with `later` appended (``append(_:)``); either alone when the other is `nil`.
    static func joined(_ first: DispatchReport?, _ later: DispatchReport?) -> DispatchReport? {
        guard var joined = first else { return later }
        if let later { joined.append(later) }
        return joined
    }
}
