/// The `[daemon]` table: where the socket is and who may use it. Command-line options win.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `socket` | string | `"/run/touchd/touchd.sock"` | the socket's path (absolute) |
/// | `socket_group` | string | the daemon's group | the socket file's group (name or number) |
/// | `socket_mode` | string | `"0660"` | the socket file's mode, in octal |
/// | `allow_users` | array of integers | `[]` (anyone the mode lets in) | user ids allowed to connect (SO_PEERCRED); root always is |
/// | `allow_groups` | array of integers | `[]` | group ids allowed to connect |
public struct DaemonSpec: Hashable, Sendable {
    public static let defaultSocket = "/run/touchd/touchd.sock"
    public var socket: String = DaemonSpec.defaultSocket
    public var socketGroup: String?
    public var socketMode: UInt32 = 0o660
    public var allowUsers: [UInt32] = []
    public var allowGroups: [UInt32] = []

    public init() {}

    static let keys = ["socket", "socket_group", "socket_mode", "allow_users", "allow_groups"]
}
