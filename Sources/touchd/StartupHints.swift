import TouchSystem

/// What to do about an error that stops the daemon from starting, when there is something to do.
enum StartupHints {
    /// A hint for a socket that cannot be bound: its directory missing (made by
    /// `systemd-tmpfiles` when installed), or not writable by the daemon's user.
    static func socket(_ error: SystemError, path: String) -> String? {
        guard error.call == "bind" else { return nil }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let elsewhere = "or choose another path with --socket (or the layout's [daemon] socket)"
        if error.isMissing {
            return "the socket's directory \(directory) does not exist and could not be made: "
                + "`systemd-tmpfiles --create` makes /run/touchd as installed (docs/operations.md), \(elsewhere)"
        }
        if error.isPermissionDenied {
            return "this user may not create the socket in \(directory): run touchd as the touchd user, as its systemd unit does, \(elsewhere)"
        }
        return nil
    }
}
