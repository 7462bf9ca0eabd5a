import Testing
import TouchCore

@testable import TouchLayout

/// Parses `text` as `layout.toml`, expecting success.
func load(_ text: String, file: String = "layout.toml") throws -> LayoutDocument {
    try LayoutLoader.parse(text, file: file)
}

/// Parses `text` as `layout.toml` and returns the issues (empty when it loaded).
func issues(_ text: String, file: String = "layout.toml") -> [LayoutIssue] {
    do {
        _ = try LayoutLoader.parse(text, file: file)
        return []
    } catch {
        return error.issues
    }
}

/// The 1-based line of the first line of `text` containing `marker`.
func line(of marker: String, in text: String, occurrence: Int = 1) -> Int? {
    var seen = 0
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where line.contains(marker) {
        seen += 1
        if seen == occurrence { return offset + 1 }
    }
    return nil
}

/// The only issue of `text`, recording a test failure when there is not exactly one.
func singleIssue(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> LayoutIssue? {
    let found = issues(text)
    #expect(
        found.count == 1, "expected one issue, got:\n\(found.map(\.description).joined(separator: "\n"))",
        sourceLocation: sourceLocation)
    return found.count == 1 ? found[0] : nil
}

/// Checks an issue's kind, key path, line, and that its description names the expectation.
func check(
    _ issue: LayoutIssue?, kind: LayoutIssue.Kind, keyPath: String, line expectedLine: Int?,
    location: String? = nil, mentions phrases: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let issue else {
        Issue.record("no issue", sourceLocation: sourceLocation)
        return
    }
    #expect(issue.kind == kind, "\(issue)", sourceLocation: sourceLocation)
    #expect(issue.keyPath == keyPath, "\(issue)", sourceLocation: sourceLocation)
    #expect(issue.line == expectedLine, "\(issue)", sourceLocation: sourceLocation)
    if let expectedLine {
        #expect(
            issue.description.hasPrefix("layout.toml:\(expectedLine):"), "\(issue)", sourceLocation: sourceLocation)
    }
    if let location {
        #expect(issue.location == location, "\(issue)", sourceLocation: sourceLocation)
        #expect(issue.description.contains(location + ": "), "\(issue)", sourceLocation: sourceLocation)
    }
    for phrase in phrases {
        #expect(
            issue.description.contains(phrase), "\(issue) should mention \(phrase)", sourceLocation: sourceLocation)
    }
}

/// A small valid layout the validation tests add to: window "main", controller "home" with
/// root view "home.root", and views "a" (with child "a.child") and "b".
let baseLayout = """
    [[window]]
    id = "main"
    size = [800, 600]
    root_controller = "home"

    [[controller]]
    id = "home"
    view = "home.root"

    [[view]]
    id = "home.root"
    parent = "main"
    frame = [0, 0, 800, 600]

    [[view]]
    id = "a"
    parent = "home.root"
    frame = [10, 10, 100, 100]

    [[view]]
    id = "a.child"
    parent = "a"
    frame = [5, 5, 20, 20]

    [[view]]
    id = "b"
    parent = "home.root"
    frame = [200, 10, 100, 100]

    """

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct WriteError: Error {}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    guard let file = fopen(path, "wb") else { throw WriteError() }
    defer { fclose(file) }
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw WriteError() }
}

func removeFile(_ path: String) {
    unlink(path)
}
