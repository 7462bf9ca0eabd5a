import TouchCore

// The responders of a layout file: each entry is the core's own properties for it, with the
// facts only the layout has (its id, its parent, its first-responder keys) beside them.
// docs/layout.md describes the TOML keys.

/// `[application]`: the ids of the application object and of its delegate, the last two
/// responders of every responder chain.
public struct ApplicationSpec: Hashable, Sendable {
    /// The application's responder id. Default ``TouchCore/ResponderID/defaultApplication``.
    public var id: ResponderID
    /// The app delegate's responder id. Default ``TouchCore/ResponderID/defaultAppDelegate``.
    public var delegate: ResponderID

    public init(id: ResponderID = .defaultApplication, delegate: ResponderID = .defaultAppDelegate) {
        self.id = id
        self.delegate = delegate
    }
}

/// One `[[window]]`: a root of the view tree (a `UIWindow`).
///
/// The window's properties (`size`, `level`, `key`, `points_per_mm`, `display`,
/// `root_controller`) are the core's ``TouchCore/WindowProperties``, with its defaults; they read
/// as members of the spec (`window.size`).
@dynamicMemberLookup
public struct WindowSpec: Hashable, Sendable {
    public var id: ResponderID
    public var properties: WindowProperties
    /// `first_responder`: the responder of this window that is first responder at start, if any.
    public var firstResponder: ResponderID?
    /// `can_become_first_responder` and `can_resign_first_responder` of the window itself, when
    /// the entry has either (else UIKit's defaults apply).
    public var firstResponderTraits: FirstResponderTraits?
    /// `forward`: what of its touches goes on to its virtual touchscreen, when the entry says.
    public var forward: ForwardMode?

    public init(
        id: ResponderID, properties: WindowProperties, firstResponder: ResponderID? = nil,
        firstResponderTraits: FirstResponderTraits? = nil
    ) {
        self.id = id
        self.properties = properties
        self.firstResponder = firstResponder
        self.firstResponderTraits = firstResponderTraits
    }

    /// A property of ``properties``, read and written as a member of the spec.
    public subscript<Value>(dynamicMember path: WritableKeyPath<WindowProperties, Value>) -> Value {
        get { properties[keyPath: path] }
        set { properties[keyPath: path] = newValue }
    }
}

/// One `[[controller]]`: a view controller, the next responder after its root view. Its `view`
/// and `presented_by` are the core's ``TouchCore/ControllerProperties``.
@dynamicMemberLookup
public struct ControllerSpec: Hashable, Sendable {
    public var id: ResponderID
    public var properties: ControllerProperties
    /// `can_become_first_responder` and `can_resign_first_responder`, when the entry has either.
    public var firstResponderTraits: FirstResponderTraits?

    public init(id: ResponderID, properties: ControllerProperties, firstResponderTraits: FirstResponderTraits? = nil) {
        self.id = id
        self.properties = properties
        self.firstResponderTraits = firstResponderTraits
    }

    /// A property of ``properties``, read and written as a member of the spec.
    public subscript<Value>(dynamicMember path: WritableKeyPath<ControllerProperties, Value>) -> Value {
        get { properties[keyPath: path] }
        set { properties[keyPath: path] = newValue }
    }
}

/// One `[[view]]`. Its properties (`frame`, `bounds_origin`, `hidden`, `alpha`, `interactive`,
/// `clips_to_bounds`, `multiple_touch`, `exclusive_touch`, `hit_expansion`, `hit_test` with
/// `redirect`) are the core's ``TouchCore/ViewProperties``, with its defaults; they read as
/// members of the spec (`view.frame`).
@dynamicMemberLookup
public struct ViewSpec: Hashable, Sendable {
    public var id: ResponderID
    /// `parent`: the id of the superview, or of the window when this is a top-level view.
    public var parent: ResponderID
    public var properties: ViewProperties
    /// `can_become_first_responder` and `can_resign_first_responder`, when the entry has either.
    public var firstResponderTraits: FirstResponderTraits?
    /// `forward`: what of its subtree's touches goes on to the window's virtual touchscreen, when
    /// the entry says (else its superview's mode applies).
    public var forward: ForwardMode?

    public init(
        id: ResponderID, parent: ResponderID, properties: ViewProperties, firstResponderTraits: FirstResponderTraits? = nil
    ) {
        self.id = id
        self.parent = parent
        self.properties = properties
        self.firstResponderTraits = firstResponderTraits
    }

    /// A property of ``properties``, read and written as a member of the spec.
    public subscript<Value>(dynamicMember path: WritableKeyPath<ViewProperties, Value>) -> Value {
        get { properties[keyPath: path] }
        set { properties[keyPath: path] = newValue }
    }
}
