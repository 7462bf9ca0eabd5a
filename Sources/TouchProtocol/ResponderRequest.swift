import TouchCore

/// The requests about who receives events without touches: a window's first responder, and
/// whether the application receives remote-control events.
public enum ResponderRequest: Hashable, Sendable, RequestFamily {
    /// `becomeFirstResponder()` on a window, view or controller.
    case becomeFirstResponder(responder: ResponderID)
    /// `resignFirstResponder()` on a window, view or controller.
    case resignFirstResponder(responder: ResponderID)
    /// `UIApplication.beginReceivingRemoteControlEvents()`.
    case beginReceivingRemoteControl
    /// `UIApplication.endReceivingRemoteControlEvents()`.
    case endReceivingRemoteControl

    static let commands: [(name: String, arguments: Set<String>)] = [
        ("become_first_responder", ["responder"]), ("resign_first_responder", ["responder"]), ("begin_receiving_remote_control", []),
        ("end_receiving_remote_control", []),
    ]

    init(command: String, fields d: [String: JSONValue]) throws(RequestError) {
        switch command {
        case "become_first_responder": self = .becomeFirstResponder(responder: try RequestField.identifier(d["responder"], "responder"))
        case "resign_first_responder": self = .resignFirstResponder(responder: try RequestField.identifier(d["responder"], "responder"))
        case "begin_receiving_remote_control": self = .beginReceivingRemoteControl
        default: self = .endReceivingRemoteControl
        }
    }

    public var command: String {
        switch self {
        case .becomeFirstResponder: "become_first_responder"
        case .resignFirstResponder: "resign_first_responder"
        case .beginReceivingRemoteControl: "begin_receiving_remote_control"
        case .endReceivingRemoteControl: "end_receiving_remote_control"
        }
    }

    /// Each changes the application.
    public var requiredRole: ClientRole { .control }
}
