/// The name of a responder (a view, window, view controller, the application or its delegate)
/// as the layout gives it. Names are unique across all responders of a layout.
///
/// The name's hash is computed once, when the identifier is made: responders are looked up by
/// identifier for every touch of every frame, and hashing the name each time would cost more than
/// the rest of the look-up.
public struct ResponderID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String
    private let nameHash: Int

    public init(_ rawValue: String) {
        self.rawValue = rawValue
        nameHash = rawValue.hashValue
    }

    public init(stringLiteral value: String) { self.init(value) }

    public static func == (lhs: ResponderID, rhs: ResponderID) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(nameHash) }

    public static func < (lhs: ResponderID, rhs: ResponderID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// What kind of responder a ``ResponderID`` names. The counterparts of `UIView`, `UIWindow`,
/// `UIViewController`, `UIApplication` and `UIApplicationDelegate`.
public enum ResponderKind: String, Hashable, Sendable {
    case view
    case window
    case controller
    case application
    case appDelegate = "app_delegate"
}

extension ResponderID {
    /// The application's id unless a layout names it otherwise.
    public static let defaultApplication: ResponderID = "application"
    /// The app delegate's id unless a layout names it otherwise.
    public static let defaultAppDelegate: ResponderID = "app_delegate"
}
