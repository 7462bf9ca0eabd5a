import TOMLKit
import TouchSystem

/// Reads and validates layout files.
///
/// Both entry points either return a complete ``LayoutDocument`` (every default filled in, every
/// reference checked) or throw ``LayoutErrors`` listing every problem found, in line order.
/// They never return a partly loaded layout.
public enum LayoutLoader {
    /// Layout files larger than this are refused (16 MiB).
    public static let maximumFileSize = 16 << 20

    /// Reads the layout file at `path`. Relative `pointercal` paths resolve against its directory.
    public static func load(path: String) throws(LayoutErrors) -> LayoutDocument {
        let bytes: [UInt8]
        switch readFile(path) {
        case .success(let contents): bytes = contents
        case .failure(let issue): throw LayoutErrors([issue])
        }
        return try parse(decodeUTF8(bytes, file: path), file: path)
    }

    /// Parses layout text. `file` names it in messages (and relative `pointercal` paths resolve
    /// against its directory).
    public static func parse(_ text: String, file: String) throws(LayoutErrors) -> LayoutDocument {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        if let position = firstPosition(of: "\0", in: text) {
            throw LayoutErrors([
                LayoutIssue(
                    kind: .syntax, file: file, line: position.line, column: position.column,
                    message: "TOML syntax error: a NUL character: expected text without control characters")
            ])
        }
        let locator = SourceLocator(text: text)
        if let trap = locator.parserTrap {
            var found = ""
            PayloadValue.writeJSONString(trap.found, to: &found)
            throw LayoutErrors([
                LayoutIssue(
                    kind: .syntax, file: file, line: trap.position.line, column: trap.position.column,
                    message: "TOML syntax error: Error while parsing \(trap.context): expected \(trap.expected), saw \(found)"
                        + (trap.hint.map { "; \($0)" } ?? ""))
            ])
        }
        let root: [String: TOMLNode]
        do {
            root = try TOMLNode.parse(text)
        } catch let error as TOMLParseError {
            throw LayoutErrors([
                LayoutIssue(
                    kind: .syntax, file: file, line: error.source.begin.line, column: error.source.begin.column,
                    message: "TOML syntax error: \(error.description)")
            ])
        } catch {
            throw LayoutErrors([LayoutIssue(kind: .syntax, file: file, message: "TOML syntax error: \(error)")])
        }
        let log = IssueLog(file: file, locator: locator)
        var draft = LayoutReader(log: log, file: file).read(root)
        var validator = LayoutValidator(log: log)
        validator.validate(&draft)
        guard log.issues.isEmpty else { throw LayoutErrors(log.sortedIssues) }
        return LayoutDocument(
            version: draft.version, application: draft.application, tap: draft.tap, queue: draft.queue,
            windows: draft.windows.map(\.spec), controllers: draft.controllers.map(\.spec),
            views: draft.views.map(\.spec), handlers: draft.handlers.map(\.spec), devices: draft.devices.map(\.spec),
            gestures: draft.gestures.map(\.spec), daemon: draft.daemon, controls: draft.controls.map(\.spec))
    }

    // MARK: reading the file

    private static func unreadable(_ path: String, _ reason: String) -> LayoutIssue {
        LayoutIssue(kind: .unreadableFile, file: path, message: "cannot read the layout file: \(reason)")
    }

    private static func readFile(_ path: String) -> Result<[UInt8], LayoutIssue> {
        do throws(FileReadError) {
            return .success(try FileReader.read(path, limit: maximumFileSize))
        } catch {
            return .failure(unreadable(path, error.reason))
        }
    }

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
