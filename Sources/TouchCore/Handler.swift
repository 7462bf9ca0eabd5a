/// When a handler runs: which responder method (the counterpart of overriding `touchesBegan` & co.).
public enum HandlerTrigger: String, Hashable, Sendable, CaseIterable {
    case touchesBegan = "touches_began"
    case touchesMoved = "touches_moved"
    case touchesEnded = "touches_ended"
    case touchesCancelled = "touches_cancelled"
    /// An action sent by a control (target-action); the handler's ``Handler/selector`` names it.
    case action = "action"
    /// Keys went down (`pressesBegan(_:with:)`); ``Handler/key`` may name one.
    case pressesBegan = "presses_began"
    /// Keys went up (`pressesEnded(_:with:)`).
    case pressesEnded = "presses_ended"
    /// Held keys were cancelled, e.g. their device went away (`pressesCancelled(_:with:)`).
    case pressesCancelled = "presses_cancelled"
    /// A remote-control command (`remoteControlReceived(with:)`); ``Handler/remoteControl`` may name one.
    case remoteControl = "remote_control"
    /// A shake began (`motionBegan(_:with:)`).
    case motionBegan = "motion_began"
    /// A shake ended (`motionEnded(_:with:)`).
    case motionEnded = "motion_ended"
    /// A shake was cancelled: too short, or its device went away (`motionCancelled(_:with:)`).
    case motionCancelled = "motion_cancelled"

    /// The four touch methods, in the order UIKit calls them within one event.
    public static let touchMethods: [HandlerTrigger] = [.touchesBegan, .touchesMoved, .touchesEnded, .touchesCancelled]

    /// The responder method's UIKit name.
    public var methodName: String {
        switch self {
        case .touchesBegan: "touchesBegan"
        case .touchesMoved: "touchesMoved"
        case .touchesEnded: "touchesEnded"
        case .touchesCancelled: "touchesCancelled"
        case .action: "sendAction"
        case .pressesBegan: "pressesBegan"
        case .pressesEnded: "pressesEnded"
        case .pressesCancelled: "pressesCancelled"
        case .remoteControl: "remoteControlReceived"
        case .motionBegan: "motionBegan"
        case .motionEnded: "motionEnded"
        case .motionCancelled: "motionCancelled"
        }
    }

    /// The trigger of the method presses in `phase` are delivered with.
    public init(pressPhase: PressPhase) {
        switch pressPhase {
        case .began: self = .pressesBegan
        case .ended: self = .pressesEnded
        case .cancelled: self = .pressesCancelled
        }
    }

    /// The trigger of the method a motion in `phase` is delivered with.
    public init(motionPhase: MotionPhase) {
        switch motionPhase {
        case .began: self = .motionBegan
        case .ended: self = .motionEnded
        case .cancelled: self = .motionCancelled
        }
    }

    /// The trigger of the method touches in `phase` are delivered with (stationary: none).
    public init?(phase: TouchPhase) {
        switch phase {
        case .began: self = .touchesBegan
        case .moved: self = .touchesMoved
        case .ended: self = .touchesEnded
        case .cancelled: self = .touchesCancelled
        case .stationary: return nil
        }
    }
}

/// A handler attached to a responder: what an override of one of its methods would do.
///
/// It emits an action (a name and a static payload) and then either passes the event on to the next
/// responder, as calling `super` does (the default, like UIKit's default implementation), or consumes it.
public struct Handler: Hashable, Sendable {
    public var responder: ResponderID
    public var trigger: HandlerTrigger
    public var action: String
    public var payload: JSONValue
    /// Whether the event continues to the next responder after this handler (calling `super`).
    public var passesOn: Bool
    /// Only when one of the delivered touches has this tap count.
    public var tapCount: Int?
    /// For ``HandlerTrigger/action``: the action name the handler takes.
    public var selector: String?
    /// For the press triggers: only when one of the presses is this key (`KEY_ENTER`).
    public var key: String?
    /// For ``HandlerTrigger/remoteControl``: only for this command.
    public var remoteControl: RemoteControlSubtype?
    /// What the handler does to the first responder when it runs (`becomeFirstResponder()`,
    /// `resignFirstResponder()`).
    public var firstResponderEffect: FirstResponderEffect?

    public init(
        responder: ResponderID, trigger: HandlerTrigger, action: String, payload: JSONValue = .object([]),
        passesOn: Bool = true, tapCount: Int? = nil, selector: String? = nil, key: String? = nil,
        remoteControl: RemoteControlSubtype? = nil, firstResponderEffect: FirstResponderEffect? = nil
    ) {
        self.key = key
        self.remoteControl = remoteControl
        self.firstResponderEffect = firstResponderEffect
        self.responder = responder
        self.trigger = trigger
        self.action = action
        self.payload = payload
        self.passesOn = passesOn
        self.tapCount = tapCount
        self.selector = selector
    }

    /// Whether the handler runs for `trigger` with these touches.
    public func matches(_ trigger: HandlerTrigger, touches: [Touch]) -> Bool {
        guard trigger == self.trigger else { return false }
        guard let tapCount else { return true }
        return touches.contains { $0.tapCount == tapCount }
    }

    /// Whether the handler runs for a non-touch `trigger` with these key names (presses) or this
    /// remote-control command.
    public func matches(_ trigger: HandlerTrigger, keys: [String], remoteControl command: RemoteControlSubtype? = nil) -> Bool {
        guard trigger == self.trigger else { return false }
        if let key, !keys.contains(key) { return false }
        if let remoteControl, remoteControl != command { return false }
        return true
    }
}

/// The handlers of every responder, in layout order.
public struct HandlerTable: Hashable, Sendable {
    var byResponder: [ResponderID: [Handler]] = [:]
    /// The triggers some handler of some responder runs for, one bit per trigger: a call whose
    /// trigger no handler has passes along the whole chain unchanged, with no look-up.
    private var triggerBits: UInt32 = 0

    public init(_ handlers: [Handler] = []) {
        for handler in handlers { add(handler) }
    }

    public mutating func add(_ handler: Handler) {
        byResponder[handler.responder, default: []].append(handler)
        triggerBits |= Self.bit(handler.trigger)
    }

    /// Removes every handler of `responder` (when it leaves the tree).
    public mutating func removeAll(for responder: ResponderID) {
        guard byResponder.removeValue(forKey: responder) != nil else { return }
        triggerBits = byResponder.values.reduce(0) { bits, handlers in
            handlers.reduce(bits) { $0 | Self.bit($1.trigger) }
        }
    }

    public func handlers(for responder: ResponderID) -> [Handler] { byResponder[responder] ?? [] }

    /// Whether any responder has a handler for `trigger`.
    public func hasHandlers(for trigger: HandlerTrigger) -> Bool { triggerBits & Self.bit(trigger) != 0 }

    public var count: Int { byResponder.values.reduce(0) { $0 + $1.count } }

    private static func bit(_ trigger: HandlerTrigger) -> UInt32 {
        let index: UInt32 =
            switch trigger {
            case .touchesBegan: 0
            case .touchesMoved: 1
            case .touchesEnded: 2
            case .touchesCancelled: 3
            case .action: 4
            case .pressesBegan: 5
            case .pressesEnded: 6
            case .pressesCancelled: 7
            case .remoteControl: 8
            case .motionBegan: 9
            case .motionEnded: 10
            case .motionCancelled: 11
            }
        return 1 << index
    }
}
