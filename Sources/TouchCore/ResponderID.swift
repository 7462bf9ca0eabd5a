/// The name of a responder (a view, window, view controller, the application or its delegate)
/// as the layout gives it. Names are unique across all responders of a layout.
public struct ResponderID: Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

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
