/// One problem found in a layout file.
///
/// ``description`` reads `FILE:LINE:COLUMN: LOCATION: MESSAGE`, for example
/// `layout.toml:14:1: view "blue" (view[2]).alpha: 1.5 is out of range: expected a number from 0 to 1`.
/// LINE and COLUMN are left out when unknown (an unreadable file, a key missing from a table
/// that is itself implicit), and LOCATION when the problem concerns the whole file.
public struct LayoutIssue: Error, Hashable, Sendable, CustomStringConvertible {
    /// What sort of problem this is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The file could not be read, or is not UTF-8 text.
        case unreadableFile
        /// The text is not valid TOML.
        case syntax
        /// A key the format does not know (usually a typo).
        case unknownKey
        /// A value of the wrong TOML type.
        case wrongType
        /// A required key is absent.
        case missingKey
        /// A value of the right type outside what is allowed.
        case invalidValue
        /// An id used by two responders.
        case duplicateID
        /// An id that names nothing, or something of the wrong sort.
        case unknownReference
        /// A cycle of view parents, of presenting controllers or of gestures requiring each other to fail.
        case cycle
        /// Keys or entries that contradict each other.
        case conflict
        /// The file, an array of it or the nesting of its values is larger than touchd accepts
        /// (the budgets of `docs/limits.md`).
        case exceedsLimit
    }

    public var kind: Kind
    /// The file name as given to the loader.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column (in characters), when known.
    public var column: Int?
    /// The key path of the offending value, e.g. `view[2].alpha`, `device[0].match.usb`,
    /// `view[2].frame[3]`; empty for problems with the whole file.
    public var keyPath: String
    /// The id of the window, view or controller the key path is in, when it is known.
    public var id: String?
    /// The key path as the description shows it: with the id when known,
    /// e.g. `view "blue" (view[2]).alpha`.
    public var location: String
    /// What is wrong and what was expected.
    public var message: String

    public init(
        kind: Kind, file: String, line: Int? = nil, column: Int? = nil, keyPath: String = "",
        id: String? = nil, location: String? = nil, message: String
    ) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.id = id
        self.location = location ?? keyPath
        self.message = message
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if !location.isEmpty { text += location + ": " }
        return text + message
    }
}

/// Every problem found in a layout file, in line order. Thrown by ``LayoutLoader``; never empty.
public struct LayoutErrors: Error, Hashable, Sendable, CustomStringConvertible {
    public var issues: [LayoutIssue]
    /// Problems found but not listed (past the most listed for a file); `issues` then ends with one
    /// that says how many.
    public var unlisted: Int

    public init(_ issues: [LayoutIssue], unlisted: Int = 0) {
        self.issues = issues
        self.unlisted = unlisted
    }

    /// How many problems were found: those listed, and those the last issue counts.
    public var problemCount: Int { unlisted > 0 ? issues.count - 1 + unlisted : issues.count }

    /// One issue per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
