import TouchCore

/// The `[daemon]` table: where the socket is and who may use it. Command-line options win.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `socket` | string | `"/run/touchd/touchd.sock"` | the socket's path (absolute) |
/// | `socket_group` | string | the daemon's group | the socket file's group (name or number) |
/// | `socket_mode` | string | `"0660"` | the socket file's mode, in octal |
/// | `allow_users` | array of user names or ids | `[]` (anyone the mode lets in) | who may connect (SO_PEERCRED), with the read-only role at least |
/// | `allow_groups` | array of group names or ids | `[]` | members of these groups may connect |
/// | `control_users` | array of user names or ids | `[]` | who has the control role besides root and the daemon's own user |
/// | `control_groups` | array of group names or ids | `[]` | members of these groups have the control role |
/// | `metrics_file` | string | none | an absolute path the daemon writes its figures to, for node_exporter's textfile collector |
/// | `metrics_interval` | number | `15` | seconds between two writes of the metrics file (1 to 3600) |
public struct DaemonSpec: Hashable, Sendable {
    public static let defaultSocket = "/run/touchd/touchd.sock"
    public var socket: String = DaemonSpec.defaultSocket
    public var socketGroup: String?
    public var socketMode: UInt32 = 0o660
    public var allowUsers: [AccountRef] = []
    public var allowGroups: [AccountRef] = []
    public var controlUsers: [AccountRef] = []
    public var controlGroups: [AccountRef] = []
    /// Where the daemon writes its metrics (``Limits/metricsInterval``), when anywhere.
    public var metricsFile: String?
    /// Seconds between two writes of the metrics file.
    public var metricsInterval: Double = Limits.defaultMetricsInterval

    public init() {}

    static let keys = [
        "socket", "socket_group", "socket_mode", "allow_users", "allow_groups", "control_users", "control_groups", "metrics_file",
        "metrics_interval",
    ]
}

/// A user or a group as the layout or a command-line flag names it: by number or by name. Names
/// are looked up when the daemon starts (`touchd run`) and by `touchd check`, not when the layout
/// is read.
public enum AccountRef: Hashable, Sendable, CustomStringConvertible {
    case id(UInt32)
    case name(String)

    /// What a list entry or a flag's part must be, for messages.
    public static let expected = "a name of 1 to \(Limits.maximumAccountNameBytes) bytes or a numeric id (\(Limits.unixID))"

    /// Reads `text` (a flag's comma-separated part): digits are an id (in ``Limits/unixID``),
    /// anything else a name (1 to ``Limits/maximumAccountNameBytes`` bytes, no `,`, `:` or
    /// whitespace); `nil` when it is neither.
    public init?(parsing text: String) {
        if let first = text.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            guard let id = UInt32(text), Limits.unixID.contains(id) else { return nil }
            self = .id(id)
            return
        }
        guard !text.isEmpty, text.utf8.count <= Limits.maximumAccountNameBytes,
            !text.contains(where: { $0 == "," || $0 == ":" || $0.isWhitespace })
        else { return nil }
        self = .name(text)
    }

    public var description: String {
        switch self {
        case .id(let id): "\(id)"
        case .name(let name): name
        }
    }
}
