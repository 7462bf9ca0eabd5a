import TouchCore

/// Changes to a view's properties, as a `set` or `add_view` request gives them. Absent = unchanged.
public struct ViewChanges: Hashable, Sendable {
    public var frame: Rect?
    public var boundsOrigin: Point?
    public var isHidden: Bool?
    public var alpha: Double?
    public var isUserInteractionEnabled: Bool?
    public var clipsToBounds: Bool?
    public var isMultipleTouchEnabled: Bool?
    public var isExclusiveTouch: Bool?
    public var hitExpansion: EdgeInsets?
    public var transform: ViewTransform?

    public init() {}

    /// Applies the changes to `props`.
    public func apply(to props: inout ViewProperties) {
        if let frame { props.frame = frame }
        if let boundsOrigin { props.boundsOrigin = boundsOrigin }
        if let isHidden { props.isHidden = isHidden }
        if let alpha { props.alpha = alpha }
        if let isUserInteractionEnabled { props.isUserInteractionEnabled = isUserInteractionEnabled }
        if let clipsToBounds { props.clipsToBounds = clipsToBounds }
        if let isMultipleTouchEnabled { props.isMultipleTouchEnabled = isMultipleTouchEnabled }
        if let isExclusiveTouch { props.isExclusiveTouch = isExclusiveTouch }
        if let hitExpansion { props.hitExpansion = hitExpansion }
        if let transform { props.transform = transform }
    }
}

/// A client's request. See `docs/protocol.md`.
public enum Request: Hashable, Sendable {
    case ping
    case subscribe(topics: Set<Topic>, views: [String]?, actions: Set<String>?, touchSamples: TouchSampleForm = .default)
    case unsubscribe(subscription: Int)
    case hitTest(point: Point, window: ResponderID?)
    case set(view: ResponderID, changes: ViewChanges)
    /// A control's value (a toggle's `true`/`false`, a slider's number) and whether it is enabled;
    /// nil leaves either as it is.
    case setControl(view: ResponderID, value: JSONValue?, enabled: Bool?)
    /// A view added on top of `parent`'s subviews. It belongs to the connection (and leaves with
    /// it) unless `keep`: then it stays until removed or reloaded, like a layout's view.
    case addView(view: ResponderID, parent: ResponderID, changes: ViewChanges, keep: Bool = false)
    case removeView(view: ResponderID)
    case reload
    case devices
    case views
    case stats
    /// A picture of a window with the last touches' paths (none with `touches` false).
    case snapshot(window: ResponderID?, heatmap: Bool, touches: Bool = true)
    /// `becomeFirstResponder()` on a window, view or controller.
    case becomeFirstResponder(responder: ResponderID)
    /// `resignFirstResponder()` on a window, view or controller.
    case resignFirstResponder(responder: ResponderID)
    /// `UIApplication.beginReceivingRemoteControlEvents()`.
    case beginReceivingRemoteControl
    /// `UIApplication.endReceivingRemoteControlEvents()`.
    case endReceivingRemoteControl
    /// Send this client a device's raw events (`raw` messages) until stopped: one device by its
    /// identity, or every touch device present (nil).
    case record(device: String?)
    /// Stop sending raw events of one device (or of every device this client records: nil).
    case stopRecording(device: String?)
    /// Start calibrating a touch device (nil: the only touch device present): its touches are held
    /// out of dispatch and sent to this client raw, for `targets` (window points; nil: five).
    case calibrate(device: String?, targets: [Point]?)
    /// Say which target a calibration sample was for.
    case calibrationPoint(sample: Int, target: Int)
    /// Fit, apply and keep the calibration, ending the session.
    case finishCalibration
    /// End the calibration session without changing anything.
    case cancelCalibration
}

/// Why a request was refused: a machine-readable code and a sentence.
public struct RequestError: Error, Hashable, Sendable {
    public var code: RequestErrorCode
    public var message: String

    public init(_ code: RequestErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// The `code` of a refused request's `error`: the one list of them, whose raw values are the
/// strings `docs/protocol.md` documents (a test holds the two together).
public enum RequestErrorCode: String, CaseIterable, Hashable, Sendable {
    case malformedJSON = "malformed_json"
    case malformedRequest = "malformed_request"
    case unknownCommand = "unknown_command"
    case badArgument = "bad_argument"
    case unknownView = "unknown_view"
    case unknownWindow = "unknown_window"
    case unknownControl = "unknown_control"
    /// The layout has no window to default to.
    case noWindow = "no_window"
    case unknownSubscription = "unknown_subscription"
    case reloadFailed = "reload_failed"
    case unsupported
    /// A `snapshot` over its size budget.
    case pictureTooLarge = "picture_too_large"
    /// The connection's role does not allow the command.
    case forbidden
    case tooManySubscriptions = "too_many_subscriptions"
    /// The connection's budget of added views, or the tree's bound.
    case tooManyViews = "too_many_views"
    /// Replies of that kind are still being written, or a device is taken by another session.
    case busy
    /// The reply would be longer than its bound.
    case replyTooLarge = "reply_too_large"
    case unknownResponder = "unknown_responder"
    case notInWindow = "not_in_window"
    case cannotBecomeFirstResponder = "cannot_become_first_responder"
    case hidden
    case refusedToResign = "refused_to_resign"
    case notFirstResponder = "not_first_responder"
    /// The connection ended while its request waited.
    case gone
    case unknownDevice = "unknown_device"
    case noDevice = "no_device"
    case notATouchDevice = "not_a_touch_device"
    /// No calibration session on this connection.
    case noCalibration = "no_calibration"
    case notRecording = "not_recording"
    case calibrationFailed = "calibration_failed"
}

extension RequestError {
    /// A first-responder request refused by the application.
    public init(_ error: FirstResponderError) {
        let code: RequestErrorCode =
            switch error {
            case .unknownResponder: .unknownResponder
            case .notInWindow: .notInWindow
            case .cannotBecome: .cannotBecomeFirstResponder
            case .hidden: .hidden
            case .currentRefusesToResign: .refusedToResign
            case .notFirstResponder: .notFirstResponder
            }
        self.init(code, error.description)
    }
}
