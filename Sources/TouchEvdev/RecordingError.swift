/// Why a recording could not be read: the file, the line (1-based, when one is to blame) and what
/// was expected there.
///
/// `description` is a single line meant for a person: `"wetab.event:12: expected 'E: <seconds>
/// <type> <code> <value>', found 'E: 12 x'"`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be read (missing, a directory, no permission); `what` says which file
        /// it was meant to be ("the recording", "the device description").
        case unreadable(reason: String, what: String = "the recording")
        /// The text is none of the formats touchd reads (evemu, libinput-record, getevent).
        case unrecognisedFormat
        /// A line (or YAML node) is not what the format allows at that point.
        case unexpected(expected: String, found: String)
        /// An events-only recording came without a device description, and none was found.
        case missingDescription(searched: String)
        /// The YAML of a libinput-record file does not parse.
        case invalidYAML(problem: String)
        /// The file holds more of something than touchd reads (``TouchCore/Limits``): `what` is
        /// the thing counted (`events`, `bytes`, `YAML nodes once aliases are expanded`).
        case exceedsLimit(what: String, limit: Int)
    }

    /// The file's name as the caller gave it (a path or a label).
    public var file: String
    /// The 1-based line at fault, when there is one.
    public var line: Int?
    /// What went wrong.
    public var kind: Kind

    /// An error in `file`, at `line` when one is to blame.
    public init(file: String, line: Int? = nil, kind: Kind) {
        self.file = file
        self.line = line
        self.kind = kind
    }

    /// One line for a person: `file:line: expected …, found '…'`.
    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        switch kind {
        case .unreadable(let reason, let what):
            return "\(place): cannot read \(what): \(reason)"
        case .unrecognisedFormat:
            return "\(place): not a recording touchd reads: expected evemu ('N:'/'E:' lines), "
                + "libinput-record YAML ('version: 1', 'devices:') or Android 'getevent -lt' text"
        case .unexpected(let expected, let found):
            return "\(place): expected \(expected), found '\(Self.abbreviated(found))'"
        case .missingDescription(let searched):
            return "\(place): the recording has events but no device description (N:/I:/P:/B:/A: lines); "
                + "pass one explicitly or put its companion file next to it (\(searched))"
        case .invalidYAML(let problem):
            return "\(place): invalid YAML: \(problem)"
        case .exceedsLimit(let what, let limit):
            return "\(place): more than \(limit) \(what), the most touchd reads from a recording (docs/limits.md)"
        }
    }

    /// At most 80 characters of `text`, with control characters made visible.
    static func abbreviated(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if out.unicodeScalars.count >= 80 {
                out += "…"
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7f {
                out += "\\x" + String(scalar.value, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
