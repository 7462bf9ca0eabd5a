import TouchCore
import TouchEvdev

/// An input device as the protocol shows it: one entry of the `devices` reply, and (without its
/// identity and grab) the `description` of a `device` `added` message. Input sources list their
/// devices with it (the device's one description, and what became of it); only this type writes
/// them as JSON.
public struct DeviceListing: Hashable, Sendable {
    /// What became of the device.
    public enum Use: Hashable, Sendable {
        /// Taken by a layout entry (`explanation` says which and how), with the identity messages
        /// and requests name it by; `grabbed` for a live device (nil for a recording).
        case used(id: String, matched: String, grabbed: Bool?)
        /// Seen but not used, and why.
        case ignored(reason: String)
    }

    /// The device: its node (none for a recording, `"source":"recording"`), name and kind
    /// (`docs/layout.md`'s device kinds) are listed.
    public var facts: DeviceFacts
    /// What became of it.
    public var use: Use

    /// A device listed with what became of it.
    public init(_ facts: DeviceFacts, use: Use) {
        self.facts = facts
        self.use = use
    }

    /// The identity of a device in use (nil for one ignored).
    public var id: String? {
        guard case .used(let id, _, _) = use else { return nil }
        return id
    }

    /// The `devices` reply's entry: `device` (in use), `devnode`, `name`, `kind`, then `matched`
    /// and `grabbed` (in use) or `ignored`, then `source` (a recording).
    public var listed: JSONValue { .object(members(listing: true)) }

    /// What the `devices` topic is told of a device in use: as listed, without its identity (the
    /// message carries it) and its grab.
    public var announced: JSONValue { .object(members(listing: false)) }

    private func members(listing: Bool) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if listing, let id { members.append(("device", .string(id))) }
        if let devnode = facts.devnode { members.append(("devnode", .string(devnode))) }
        members.append(("name", .string(facts.name)))
        members.append(("kind", .string(facts.kind.rawValue)))
        switch use {
        case .used(_, let matched, let grabbed):
            members.append(("matched", .string(matched)))
            if listing, let grabbed { members.append(("grabbed", .bool(grabbed))) }
        case .ignored(let reason):
            members.append(("ignored", .string(reason)))
        }
        if facts.isRecording { members.append(("source", .string("recording"))) }
        return members
    }
}
