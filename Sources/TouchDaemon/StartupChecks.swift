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
        return issues
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
