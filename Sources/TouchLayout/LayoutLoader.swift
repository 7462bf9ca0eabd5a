import TouchCore
import TouchSystem

/// Reads and validates layout files.
///
/// Both entry points either return a complete ``LayoutDocument`` (every default filled in, every
/// number within its domain, every reference checked, every budget kept) or throw
/// ``LayoutErrors`` listing the problems found, in line order. They never return a partly loaded
/// layout. The budgets that bound the work are checked before the work: the file's size before it
/// is read, the nesting of its values and the length of its keys before TOMLKit parses it
/// (``SourceLocator``), the number of entries before they are read.
public enum LayoutLoader {
    /// Layout files larger than this are refused: ``TouchCore/Limits/maximumLayoutBytes``, under
    /// the name callers used before that home existed.
    public static var maximumFileSize: Int { Limits.maximumLayoutBytes }

    /// Reads the layout file at `path` (of at most ``TouchCore/Limits/maximumLayoutBytes``).
    /// Relative `pointercal` paths resolve against its directory.
    public static func load(path: String) throws(LayoutErrors) -> LayoutDocument {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try FileReader.read(path, limit: Limits.maximumLayoutBytes)
        } catch {
            let kind: LayoutIssue.Kind = if case .tooLarge = error { .exceedsLimit } else { .unreadableFile }
            throw LayoutErrors([LayoutIssue(kind: kind, file: path, message: "cannot read the layout file: \(error.reason)")])
        }
        return try parse(bytes, file: path)
    }

    /// Parses a layout file's bytes, as ``load(path:)`` does once it has read them: UTF-8 text (an
    /// issue at the first byte that is not), then ``parse(_:file:)-(String,_)``.
    public static func parse(_ bytes: [UInt8], file: String) throws(LayoutErrors) -> LayoutDocument {
        try parse(decodeUTF8(bytes, file: file), file: file)
    }

    /// Parses layout text. `file` names it in messages (and relative `pointercal` paths resolve
    /// against its directory).
    public static func parse(_ text: String, file: String) throws(LayoutErrors) -> LayoutDocument {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let size = text.utf8.count
        guard size <= Limits.maximumLayoutBytes else {
            throw LayoutErrors([
                LayoutIssue(kind: .exceedsLimit, file: file, message: "the layout is \(size) bytes: expected at most \(Limits.maximumLayoutBytes)")
            ])
        }
        if let position = firstPosition(of: "\0", in: text) {
            throw LayoutErrors([
                LayoutIssue(
                    kind: .syntax, file: file, line: position.line, column: position.column,
                    message: "TOML syntax error: a NUL character: expected text without control characters")
            ])
        }
        let locator = SourceLocator(text: text)
        if let refusal = locator.refusal {
            throw LayoutErrors([
                LayoutIssue(
                    kind: refusal.kind, file: file, line: refusal.position.line, column: refusal.position.column,
                    message: refusal.message)
            ])
        }
        let root = try parseTOML(text, file: file)
        let log = IssueLog(file: file, locator: locator)
        var draft = LayoutReader(log: log, file: file).read(root)
        var validator = LayoutValidator(log: log)
        validator.validate(&draft)
        guard log.isEmpty else { throw log.errors }
        return LayoutDocument(
            version: draft.version, application: draft.application, settings: draft.settings,
            windows: draft.windows.map(\.spec), controllers: draft.controllers.map(\.spec), views: draft.views.map(\.spec),
            handlers: draft.handlers.map(\.spec), devices: draft.devices.map(\.spec), gestures: draft.gestures.map(\.spec),
            daemon: draft.daemon, controls: draft.controls.map(\.spec) + draft.classControls)
    }

    /// The TOML tree of text that ``SourceLocator`` let through.
    private static func parseTOML(_ text: String, file: String) throws(LayoutErrors) -> [String: TOMLNode] {
        do {
            return try TOMLNode.parse(text)
        } catch {
            throw LayoutErrors([
                LayoutIssue(
                    kind: .syntax, file: file, line: error.line, column: error.column, message: "TOML syntax error: \(clarified(error, in: text))")
            ])
        }
    }

    /// toml++'s description of a syntax error, or a plainer one where toml++ names a symptom: a
    /// basic or literal string that is not closed on its line reaches the line's end, which toml++
    /// reports as an unescaped control character (the newline).
    static func clarified(_ error: TOMLSyntaxError, in text: String) -> String {
        guard error.description.contains("control characters other than TAB"), error.line >= 1, error.column >= 1 else { return error.description }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard error.line <= lines.count else { return error.description }
        let line = lines[error.line - 1]
        let atEnd = error.column > line.unicodeScalars.count || line.unicodeScalars.dropFirst(error.column - 1).first == "\r"
        guard atEnd else { return error.description }
        return "the string on this line is not closed: expected its closing quote before the end of the line "
            + "(a \"...\" or '...' string ends on the line it begins; \"\"\"...\"\"\" spans lines)"
    }

    // MARK: reading the file

    /// The text of the file, or an issue at the first byte that is not UTF-8.
    private static func decodeUTF8(_ bytes: [UInt8], file: String) throws(LayoutErrors) -> String {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var text = String.UnicodeScalarView()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                text.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return String(text)
            case .error:
                throw LayoutErrors([
                    LayoutIssue(
                        kind: .unreadableFile, file: file, line: line, column: column,
                        message: "the file is not UTF-8 text: expected a UTF-8 encoded TOML file")
                ])
            }
        }
    }

    private static func firstPosition(of target: Unicode.Scalar, in text: String) -> SourcePosition? {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            if scalar == target { return SourcePosition(line: line, column: column) }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return nil
    }
}
