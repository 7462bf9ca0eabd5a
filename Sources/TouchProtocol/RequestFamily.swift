import TouchCore

/// A family of requests, served by one part of the daemon.
///
/// A family's file holds everything about each of its requests: its case, its `cmd`, the arguments
/// it takes, the role it needs and how a line's fields become it. Adding a request is adding it
/// there, plus its handler in the daemon (whose `switch` over the family then asks for it).
protocol RequestFamily {
    /// The family's commands, in the order `docs/protocol.md` lists them, each with the arguments it
    /// takes besides `id` and `cmd`. A key outside its command's list is refused (it is usually a
    /// typo, and ignoring it would do something other than what was asked).
    static var commands: [(name: String, arguments: Set<String>)] { get }

    /// The request `command` (one of ``commands``, its arguments checked) with the line's
    /// `fields`, each checked against its domain (`docs/limits.md`).
    init(command: String, fields: [String: JSONValue]) throws(RequestError)

    /// The request's `cmd`, as a client writes it.
    var command: String { get }

    /// The role a client needs for the request.
    var requiredRole: ClientRole { get }
}

extension RequestFamily {
    /// The request if `command` is one of this family's, else nil.
    static func parse(_ command: String, _ fields: [String: JSONValue]) throws(RequestError) -> Self? {
        guard commands.contains(where: { $0.name == command }) else { return nil }
        return try Self(command: command, fields: fields)
    }
}
