import TouchCore

/// A request as a client writes it (`touchctl`'s commands): its members in the order written,
/// without the `id` its connection gives it. The one place a client's requests become JSON
/// (``ClientRequest`` has a function for each request a command makes); touchd reads them with
/// ``Request/parse(_:)-(JSONValue)``, which ``problem`` runs before anything is sent.
public struct ClientRequest: Sendable {
    /// A value given on a command line: `hidden=true`, `alpha=0.5`, `frame=0,0,10,10`, or a
    /// control's `--value`.
    public enum Value: Hashable, Sendable {
        /// `true` or `false`.
        case bool(Bool)
        /// One number.
        case number(Double)
        /// Comma-separated numbers (a frame, a translation), as an array.
        case numbers([Double])

        var json: JSONValue {
            switch self {
            case .bool(let value): .bool(value)
            case .number(let value): .double(value)
            case .numbers(let values): .array(values.map { .double($0) })
            }
        }
    }

    /// The members after `cmd`, in order.
    private let members: [(String, JSONValue)]

    /// The request `cmd` with `members` after it.
    init(_ cmd: String, _ members: [(String, JSONValue)] = []) {
        self.members = [("cmd", .string(cmd))] + members
    }

    /// Why touchd would refuse the request, in its words (its `bad_argument` message), or nil
    /// when it would take it: the domains are checked exactly as touchd checks them.
    public var problem: String? {
        guard case .failure(let error) = Request.parse(.object(members)).result else { return nil }
        return error.message
    }

    /// The line to send: the request with `id` as its last member, and a newline.
    public func line(id: Int64) -> [UInt8] {
        var line = Array(JSONValue.object(members + [("id", .int(id))]).jsonText.utf8)
        line.append(UInt8(ascii: "\n"))
        return line
    }
}
