import Logging
import TouchSystem

/// A swift-log handler writing one line per message to standard error.
///
/// Under systemd (standard error is the `JOURNAL_STREAM`, ``JournalStream``) each line starts with the syslog priority in angle brackets
/// (`<3>` for errors), which journald turns into the entry's priority; a message of several lines
/// (a refused reload lists every problem of the layout) carries it on each line, since journald
/// makes every line an entry of its own. Elsewhere lines read
/// `2026-11-22T10:00:00Z warning touchd: message key=value`.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    let label: String
    let forJournal: Bool

    public init(label: String, forJournal: Bool) {
        self.label = label
        self.forJournal = forJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The syslog priority of a level.
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// `text` as journald reads it from a stream: every line prefixed with the priority of `level`.
    public static func journalLines(_ text: String, level: Logger.Level) -> String {
        let prefix = "<\(priority(level))>"
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 + "\n" }.joined()
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.keys.sorted().map { "\($0)=\(all[$0]!)" }.joined(separator: " ")
        let text = event.message.description + (fields.isEmpty ? "" : " " + fields)
        let line: String
        if forJournal {
            line = Self.journalLines(text, level: event.level)
        } else {
            line = "\(WallClock.timestampUTC()) \(event.level) \(label): \(text)\n"
        }
        // A line standard error does not take has nowhere else to go.
        Array(line.utf8).withUnsafeBytes { StandardError.write($0) }
    }
}
