import TouchSystem
import TouchCore
import TouchLayout
import TouchProtocol

/// Who may connect, and with which role, decided from the peer's credentials when it connects
/// (SO_PEERCRED, and SO_PEERGROUPS for its supplementary groups). `docs/operations.md` explains the
/// defaults:
///
/// - **control** (every request): root, the daemon's own user, a user in ``controlUIDs`` and a
///   member (primary or supplementary group) of a group in ``controlGIDs``;
/// - **read-only** (watching, hit-testing, snapshots): anyone else the socket file's permissions let
///   in when ``allowedUIDs`` and ``allowedGIDs`` are empty; otherwise only listed users and members
///   of listed groups;
/// - everyone else is refused (`goodbye` with `not allowed`).
public struct PeerPolicy: Hashable, Sendable {
    /// Who may connect with the read-only role; both empty: whoever the socket's mode lets in.
    public var allowedUIDs: Set<UInt32>
    public var allowedGIDs: Set<UInt32>
    /// Who has the control role besides root and ``daemonUID``.
    public var controlUIDs: Set<UInt32>
    public var controlGIDs: Set<UInt32>
    /// The daemon's own (effective) user: it always has control.
    public var daemonUID: UInt32

    public init(
        allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = [], controlUIDs: Set<UInt32> = [], controlGIDs: Set<UInt32> = [],
        daemonUID: UInt32 = Accounts.effectiveUserID
    ) {
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
        self.controlUIDs = controlUIDs
        self.controlGIDs = controlGIDs
        self.daemonUID = daemonUID
    }

    /// The role `peer` gets, or `nil` when it may not connect. Unknown credentials get the
    /// read-only role when the socket's mode alone decides, and nothing otherwise.
    public func role(of peer: PeerCredentials?) -> ClientRole? {
        guard let peer else { return allowedUIDs.isEmpty && allowedGIDs.isEmpty ? .readOnly : nil }
        if peer.uid == 0 || peer.uid == daemonUID || Self.listed(peer, controlUIDs, controlGIDs) { return .control }
        if allowedUIDs.isEmpty && allowedGIDs.isEmpty { return .readOnly }
        return Self.listed(peer, allowedUIDs, allowedGIDs) ? .readOnly : nil
    }

    /// Whether `peer` may connect at all.
    public func allows(_ peer: PeerCredentials?) -> Bool { role(of: peer) != nil }

    private static func listed(_ peer: PeerCredentials, _ uids: Set<UInt32>, _ gids: Set<UInt32>) -> Bool {
        uids.contains(peer.uid) || gids.contains(peer.gid) || peer.supplementaryGIDs.contains { gids.contains($0) }
    }

    /// The policy of the layout's `[daemon]` lists, each replaced by its command-line flag when
    /// given, with names looked up in the system's user and group databases.
    /// - Throws: ``AccountLookupError`` naming the list and the name that is no user or group.
    public static func resolving(
        allowUsers: (list: [AccountRef], source: String), allowGroups: (list: [AccountRef], source: String),
        controlUsers: (list: [AccountRef], source: String), controlGroups: (list: [AccountRef], source: String)
    ) throws(AccountLookupError) -> PeerPolicy {
        PeerPolicy(
            allowedUIDs: try AccountLookup.users(allowUsers.list, source: allowUsers.source),
            allowedGIDs: try AccountLookup.groups(allowGroups.list, source: allowGroups.source),
            controlUIDs: try AccountLookup.users(controlUsers.list, source: controlUsers.source),
            controlGIDs: try AccountLookup.groups(controlGroups.list, source: controlGroups.source))
    }
}

/// A user or group name that the system does not know.
public struct AccountLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the name came from: `--control-users`, `[daemon] control_groups`.
    public var source: String
    public var name: String
    public var isGroup: Bool

    public var description: String { "\(source): no \(isGroup ? "group" : "user") named \"\(name)\"" }
}

/// Names to ids, through the system's databases (`getpwnam_r`, `getgrnam_r`: NSS, so LDAP and
/// systemd's dynamic users are found too).
enum AccountLookup {
    static func users(_ accounts: [AccountRef], source: String) throws(AccountLookupError) -> Set<UInt32> {
        var ids: Set<UInt32> = []
        for account in accounts {
            switch account {
            case .id(let id): ids.insert(id)
            case .name(let name):
                guard let id = Accounts.userID(name) else { throw AccountLookupError(source: source, name: name, isGroup: false) }
                ids.insert(id)
            }
        }
        return ids
    }

    static func groups(_ accounts: [AccountRef], source: String) throws(AccountLookupError) -> Set<UInt32> {
        var ids: Set<UInt32> = []
        for account in accounts {
            switch account {
            case .id(let id): ids.insert(id)
            case .name(let name):
                guard let id = Accounts.groupID(name) else { throw AccountLookupError(source: source, name: name, isGroup: true) }
                ids.insert(id)
            }
        }
        return ids
    }

}
