import TouchCore

/// Where keys are written in a layout's text, for problems found after the layout was loaded (an
/// account the system does not know, a directory that does not exist): so that they are reported
/// with their file, line and key path as the loader's own problems are.
public struct LayoutKeyLines: Sendable {
    private let locator: SourceLocator

    /// Reads the positions of every key in `text` (the layout file's text).
    public init(text: String) {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        locator = SourceLocator(text: text)
    }

    /// The 1-based line where `keyPath` (as a ``LayoutIssue/keyPath`` spells it: `daemon.control_groups[1]`,
    /// `device[0].match.devnode`) is written, or else its nearest enclosing table or array; nil when
    /// neither is written.
    public func line(of keyPath: String) -> Int? {
        locator.position(of: Self.path(keyPath))?.line
    }

    /// A ``LayoutIssue`` at `keyPath`, with its line when it is written.
    public func issue(_ kind: LayoutIssue.Kind, file: String, keyPath: String, message: String) -> LayoutIssue {
        LayoutIssue(kind: kind, file: file, line: line(of: keyPath), keyPath: keyPath, message: message)
    }

    /// `a.b[2].c` as a ``TOMLPath``; keys are bare (the key paths this is given never need quotes).
    static func path(_ keyPath: String) -> TOMLPath {
        var path = TOMLPath.root
        for part in keyPath.split(separator: ".") {
            var pieces = part.split(separator: "[")
            guard !pieces.isEmpty else { continue }
            path = path.appending(String(pieces.removeFirst()))
            for piece in pieces {
                guard let index = Int(piece.prefix { $0 != "]" }) else { continue }
                path = path.appending(index: index)
            }
        }
        return path
    }
}
