import TouchCore

/// The requests about the daemon: its layout, devices and counters.
public enum DaemonRequest: Hashable, Sendable, RequestFamily {
    case reload
    case devices
    case stats

    static let commands: [(name: String, arguments: Set<String>)] = [("reload", []), ("devices", []), ("stats", [])]

    init(command: String, fields: [String: JSONValue]) throws(RequestError) {
        switch command {
        case "reload": self = .reload
        case "devices": self = .devices
        default: self = .stats
        }
    }

    public var command: String {
        switch self {
        case .reload: "reload"
        case .devices: "devices"
        case .stats: "stats"
        }
    }

    public var requiredRole: ClientRole {
        switch self {
        case .devices, .stats: .readOnly
        case .reload: .control
        }
    }
}
