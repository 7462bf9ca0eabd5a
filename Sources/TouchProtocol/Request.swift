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

/// A client's request, by the family of requests it belongs to (each family is served by one part
/// of the daemon): what parsing a line gives. See `docs/protocol.md`.
public enum Request: Hashable, Sendable {
    case session(SessionRequest)
    case tree(TreeRequest)
    case responders(ResponderRequest)
    case daemon(DaemonRequest)
    case deviceSession(DeviceSessionRequest)

    /// The request's `cmd`, as a client writes it.
    public var command: String {
        switch self {
        case .session(let request): request.command
        case .tree(let request): request.command
        case .responders(let request): request.command
        case .daemon(let request): request.command
        case .deviceSession(let request): request.command
        }
    }

    /// The role a client needs for this request: `control` for what changes the running tree or
    /// layout, `read_only` for the rest.
    public var requiredRole: ClientRole {
        switch self {
        case .session(let request): request.requiredRole
        case .tree(let request): request.requiredRole
        case .responders(let request): request.requiredRole
        case .daemon(let request): request.requiredRole
        case .deviceSession(let request): request.requiredRole
        }
    }
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
