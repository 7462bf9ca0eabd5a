import TouchCore
import TouchSystem

/// The `[daemon]` table: where the socket is and who may use it. Command-line options win.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `socket` | string | `"/run/touchd/touchd.sock"` | the socket's path (absolute, at most 107 bytes) |
/// | `socket_group` | string | the daemon's group | the socket file's group (name or number) |
/// | `socket_mode` | string | `"0660"` | the socket file's mode, in octal |
/// | `allow_users` | array of user names or ids | `[]` (anyone the mode lets in) | who may connect (SO_PEERCRED), with the read-only role at least |
/// | `allow_groups` | array of group names or ids | `[]` | members of these groups may connect |
/// | `control_users` | array of user names or ids | `[]` | who has the control role besides root and the daemon's own user |
/// | `control_groups` | array of group names or ids | `[]` | members of these groups have the control role |
/// | `metrics_file` | string | none | an absolute path the daemon writes its figures to, for node_exporter's textfile collector |
/// | `metrics_interval` | number | `15` | seconds between two writes of the metrics file (1 to 3600) |
/// | `websocket` | string | none | `HOST:PORT` (an IP literal) to serve the protocol over WebSocket on |
/// | `websocket_tokens` | string | `"/var/lib/touchd/websocket-tokens"` | the tokens file (absolute path) |
/// | `websocket_origins` | array of strings | `[]` | the browser origins (`http://host:port`, `https://...`, `null`) let in |
public struct DaemonSpec: Hashable, Sendable {
    public static let defaultWebSocketTokens = "/var/lib/touchd/websocket-tokens"
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
    /// Where the WebSocket listener listens (`HOST:PORT`), when it does.
    public var webSocket: String?
    /// The file of tokens WebSocket clients present.
    public var webSocketTokens: String = DaemonSpec.defaultWebSocketTokens
    /// The `Origin`s a browser's WebSocket may come from.
    public var webSocketOrigins: [String] = []

    public init() {}

    static let keys = [
        "socket", "socket_group", "socket_mode", "allow_users", "allow_groups", "control_users", "control_groups", "metrics_file",
        "metrics_interval", "websocket", "websocket_tokens", "websocket_origins",
    ]

    /// Whether `text` is an origin as a browser sends it: `null`, or `http://` or `https://` and a
    /// host with an optional port, in printable ASCII, without a path.
    public static func isOrigin(_ text: String) -> Bool {
        if text == "null" { return true }
        guard text.utf8.count <= 255, text.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { return false }
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            return !rest.isEmpty && !rest.contains("/") && !rest.contains("?") && !rest.contains("#") && !rest.contains("@")
        }
        return false
    }

    /// Why the socket path `path` cannot be bound, by its length (a Unix socket's address holds at
    /// most ``TouchSystem/UnixSocketAddress/maximumPathBytes`` bytes), or `nil` when it fits: the
    /// one rule for the layout's `socket` and `touchd run --socket`.
    public static func socketPathLengthProblem(_ path: String) -> String? {
        guard path.utf8.count > UnixSocketAddress.maximumPathBytes else { return nil }
        return "the path is \(path.utf8.count) bytes long: expected at most \(UnixSocketAddress.maximumPathBytes), "
            + "the most a Unix socket's address holds"
    }

    /// Whether `text` looks like `HOST:PORT` (the daemon checks the host is an IP literal when it
    /// starts, and `touchd check` does).
    public static func isListenAddress(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":"), colon > text.startIndex, let port = Int(text[text.index(after: colon)...]) else { return false }
        return (0...65535).contains(port) && text.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }
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
