import TouchCore
import TouchLayout
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon refuses at start besides the layout itself, checked against this system: the
/// accounts the `[daemon]` lists name, the socket's directory. `touchd check` and `touchd run`
/// both ask here, so a layout that `check` passes starts, and one that cannot start is a problem of
/// its file and key (exit status 1), never a usage error.
public enum StartupChecks {
    /// The directory the daemon makes for its socket when it is missing: the unit's runtime
    /// directory (`/run/touchd`, made by `touchd.socket` and `systemd-tmpfiles` too). Any other
    /// missing directory is refused.
    public static let runtimeDirectory = directory(of: DaemonSpec.defaultSocket)

    /// The `[daemon]` keys a command-line flag replaces; they are not checked here.
    public struct Overrides: Hashable, Sendable {
        public var keys: Set<String>
        public init(_ keys: Set<String> = []) { self.keys = keys }
    }

    /// The problems that stop the daemon from starting with `document`'s `[daemon]` table: a user or
    /// group name the system does not know, and a socket directory that does not exist (other than
    /// ``runtimeDirectory``). Each names the layout file, the line and the key.
    public static func problems(
        daemon: DaemonSpec, layoutFile: String, lines: LayoutKeyLines, overrides: Overrides = Overrides()
    ) -> [LayoutIssue] {
        var issues: [LayoutIssue] = []
        let lists: [(key: String, accounts: [AccountRef], isGroup: Bool)] = [
            ("allow_users", daemon.allowUsers, false), ("allow_groups", daemon.allowGroups, true),
            ("control_users", daemon.controlUsers, false), ("control_groups", daemon.controlGroups, true),
        ]
        for list in lists where !overrides.keys.contains(list.key) {
            for (index, account) in list.accounts.enumerated() {
                guard case .name(let name) = account, !known(name, isGroup: list.isGroup) else { continue }
                issues.append(
                    lines.issue(
                        .invalidValue, file: layoutFile, keyPath: "daemon.\(list.key)[\(index)]",
                        message: "no \(list.isGroup ? "group" : "user") named \"\(name)\" on this system: expected an existing "
                            + "\(list.isGroup ? "group (groupadd makes one)" : "user") or a numeric id"))
            }
        }
        if let group = daemon.socketGroup, !overrides.keys.contains("socket_group"), gid_t(group) == nil, !known(group, isGroup: true) {
            issues.append(
                lines.issue(
                    .invalidValue, file: layoutFile, keyPath: "daemon.socket_group",
                    message: "no group named \"\(group)\" on this system: expected an existing group or a numeric id"))
        }
        if !overrides.keys.contains("socket"), let problem = socketDirectoryProblem(daemon.socket) {
            issues.append(lines.issue(.invalidValue, file: layoutFile, keyPath: "daemon.socket", message: problem))
        }
        if !overrides.keys.contains("websocket"), let address = daemon.webSocket,
            case .refused(let problem) = webSocketReadiness(address: address, tokensFile: daemon.webSocketTokens)
        {
            issues.append(lines.issue(.invalidValue, file: layoutFile, keyPath: "daemon.websocket", message: problem))
        }
        return issues
    }

    /// Whether the WebSocket listener can start on `address` with the tokens in `tokensFile`.
    public enum WebSocketReadiness: Hashable, Sendable {
        case ready
        /// It starts, but lets nobody in until the tokens file is fixed (on the loopback only).
        case warning(String)
        case refused(String)
    }

    /// The address must be an IP literal and a port; on any address but the loopback the tokens
    /// file must hold tokens (a listener others can reach is never without authentication), while
    /// on the loopback a missing or unusable file is a warning (every connection is refused until
    /// it is fixed; it is read again at each handshake).
    public static func webSocketReadiness(address text: String, tokensFile: String) -> WebSocketReadiness {
        let address: InternetSocketAddress
        do { address = try InternetSocketAddress(parsing: text) } catch {
            return .refused("\(text) is not HOST:PORT with an IP address (127.0.0.1:8765, [::1]:8765): no name is looked up")
        }
        var file = TokensFile(path: tokensFile)
        switch file.current() {
        case .success(let tokens) where !tokens.entries.isEmpty: return .ready
        case .success:
            let problem = "\(tokensFile) holds no token"
            return address.isLoopback ? .warning(problem) : .refused("\(text) is not on the loopback and \(problem): add one (docs/operations.md)")
        case .failure(let problem):
            return address.isLoopback ? .warning(problem.text) : .refused("\(text) is not on the loopback and \(problem.text)")
        }
    }

    /// Why the daemon cannot make its socket at `path` (its directory does not exist, or is no
    /// directory), or nil when it can try: the directory exists, or is ``runtimeDirectory``.
    public static func socketDirectoryProblem(_ path: String) -> String? {
        let directory = directory(of: path)
        guard !directory.isEmpty, directory != runtimeDirectory else { return nil }
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            return "\(path): its directory \(directory) cannot be used (\(reason)): touchd makes only \(runtimeDirectory); "
                + "create the directory first or choose a socket in an existing one"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(path): \(directory) is not a directory" }
        return nil
    }

    /// Warnings about what the daemon will meet but not refuse: a device entry's `devnode` that
    /// does not exist now (the entry waits for it), a metrics file in a directory that does not
    /// exist (the daemon keeps trying to write it).
    public static func warnings(document: LayoutDocument) -> [String] {
        var warnings: [String] = []
        for (index, device) in document.devices.enumerated() {
            guard let node = device.match.devnode, !exists(node) else { continue }
            warnings.append("device[\(index)].match.devnode: \(node) does not exist now: the entry waits until it appears")
        }
        if let file = document.daemon.metricsFile, case let directory = directory(of: file), !directory.isEmpty, !exists(directory) {
            warnings.append("daemon.metrics_file: the directory \(directory) does not exist: the daemon cannot write \(file) until it does")
        }
        if let address = document.daemon.webSocket,
            case .warning(let problem) = webSocketReadiness(address: address, tokensFile: document.daemon.webSocketTokens)
        {
            warnings.append("daemon.websocket: \(problem): every WebSocket connection is refused until there are tokens")
        }
        return warnings
    }

    static func known(_ name: String, isGroup: Bool) -> Bool {
        isGroup ? AccountLookup.groupID(name) != nil : AccountLookup.userID(name) != nil
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
