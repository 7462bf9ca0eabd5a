import TouchCore

/// The tokens that let a WebSocket client in, each with the role it gives: the file named by
/// `[daemon] websocket_tokens` (by default `/var/lib/touchd/websocket-tokens`).
///
/// One token a line, after its role: `control TOKEN` or `read_only TOKEN`; blank lines and lines
/// starting with `#` are skipped. A token is 16 to 256 characters of `A-Z a-z 0-9 . _ ~ -` (what
/// fits in a subprotocol and a header unchanged; `head -c 24 /dev/urandom | base64 | tr '+/' '-_'`
/// makes one). The file is at most ``maximumFileBytes`` and ``maximumTokens`` tokens.
public struct WebSocketTokens: Sendable, Hashable {
    public static let maximumFileBytes = 64 * 1024
    public static let maximumTokens = 256
    public static let tokenLength = 16...256

    /// The tokens and their roles, in the file's order.
    public private(set) var entries: [(token: [UInt8], role: ClientRole)] = []

    public init() {}

    public static func == (a: Self, b: Self) -> Bool { a.entries.elementsEqual(b.entries) { $0 == $1 } }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.token)
            hasher.combine(entry.role)
        }
    }

    /// A line of the file that is not a token with its role.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1 (0: the whole file).
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// Reads the file's bytes.
    /// - Throws: ``Problem`` for the first line that is neither blank, a comment nor `ROLE TOKEN`,
    ///   a token given twice, or a file over its bounds.
    public init(parsing bytes: [UInt8]) throws(Problem) {
        guard bytes.count <= Self.maximumFileBytes else {
            throw Problem(line: 0, message: "\(bytes.count) bytes: expected at most \(Self.maximumFileBytes)")
        }
        guard UTF8Text.firstInvalidOffset(in: bytes) == nil else { throw Problem(line: 0, message: "not UTF-8 text") }
        for (index, line) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 13 })
            guard let first = words.first, first.first != UInt8(ascii: "#") else { continue }
            let number = index + 1
            guard words.count == 2 else {
                throw Problem(line: number, message: "expected a role and a token (\"control TOKEN\" or \"read_only TOKEN\")")
            }
            guard let role = ClientRole(rawValue: String(decoding: first, as: UTF8.self)) else {
                throw Problem(line: number, message: "the role is not control or read_only")
            }
            let token = Array(words[1])
            guard Self.isValid(token) else {
                throw Problem(line: number, message: "a token is \(Self.tokenLength.lowerBound) to \(Self.tokenLength.upperBound) characters of A-Z a-z 0-9 . _ ~ -")
            }
            guard !entries.contains(where: { $0.token == token }) else { throw Problem(line: number, message: "this token is given twice") }
            guard entries.count < Self.maximumTokens else {
                throw Problem(line: number, message: "more than \(Self.maximumTokens) tokens")
            }
            entries.append((token, role))
        }
    }

    /// Whether `token` has a token's length and characters.
    public static func isValid(_ token: some Collection<UInt8>) -> Bool {
        tokenLength.contains(token.count)
            && token.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"): true
                default: false
                }
            }
    }

    /// The token `presented` is (its place among ``entries``) and the role it gives, or `nil` when
    /// it is none of them. Every token is compared in full, whatever matched, so the time taken
    /// does not tell how much of a token was right.
    public func match(_ presented: String) -> (index: Int, role: ClientRole)? {
        let candidate = Array(presented.utf8)
        var found: (index: Int, role: ClientRole)?
        for (index, entry) in entries.enumerated() where Self.sameBytes(entry.token, candidate) && found == nil { found = (index, entry.role) }
        return found
    }

    /// Compares without stopping at the first difference.
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0 && a.count == b.count
    }
}
