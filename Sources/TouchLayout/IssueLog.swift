/// Collects the problems of one load, giving each its line and its readable location.
///
/// At most ``maximumIssues`` are kept; the others are counted, and reported as one last issue,
/// so that a file full of mistakes gives a bounded report (and costs no suggestions past the
/// limit: see ``isFull``).
final class IssueLog {
    /// The most problems listed for one file.
    static let maximumIssues = 100

    let file: String
    let locator: SourceLocator
    private(set) var issues: [LayoutIssue] = []
    /// Problems found past ``maximumIssues``, and the first of them.
    private var omitted = 0
    private var firstOmitted: LayoutIssue?
    /// The ids of `[[window]]`, `[[view]]` and `[[controller]]` entries by their path
    /// (`view[2]` → `"blue"`), so locations can read `view "blue" (view[2]).alpha`.
    private var ids: [TOMLPath: String] = [:]

    init(file: String, locator: SourceLocator) {
        self.file = file
        self.locator = locator
    }

    /// Whether no more problems are listed: callers may skip work that only improves a message.
    var isFull: Bool { issues.count >= Self.maximumIssues }

    /// Whether any problem was found.
    var isEmpty: Bool { issues.isEmpty }

    /// What the log found, listed and counted, as the loader throws it.
    var errors: LayoutErrors { LayoutErrors(sortedIssues, unlisted: firstOmitted == nil ? 0 : omitted) }

    func name(_ path: TOMLPath, id: String) {
        ids[path] = id
    }

    /// `view "blue" (view[2])` when the id of that entry is known, else `view[2]`.
    func entryName(_ path: TOMLPath) -> String {
        location(of: path)
    }

    func add(_ kind: LayoutIssue.Kind, _ path: TOMLPath, _ message: String) {
        if isFull {
            omitted += 1
            if firstOmitted != nil { return }
        }
        let position = locator.position(of: path)
        var id: String?
        if path.components.count >= 2 {
            id = ids[TOMLPath(components: Array(path.components.prefix(2)))]
        }
        let issue = LayoutIssue(
            kind: kind, file: file, line: position?.line, column: position?.column,
            keyPath: path.description, id: id, location: location(of: path), message: message)
        if isFull { firstOmitted = issue } else { issues.append(issue) }
    }

    /// Issues sorted by line (issues without a line last), keeping the order of same-line ones,
    /// then the count of those not listed, as a problem of the whole file that says where the first
    /// of them is: the problems kept are the first found, not the first in the file, so the count
    /// takes no line of its own, which would break the line order.
    var sortedIssues: [LayoutIssue] {
        var sorted = issues.enumerated().sorted { a, b in
            let lineA = a.element.line ?? Int.max
            let lineB = b.element.line ?? Int.max
            if lineA != lineB { return lineA < lineB }
            let columnA = a.element.column ?? 0
            let columnB = b.element.column ?? 0
            if columnA != columnB { return columnA < columnB }
            return a.offset < b.offset
        }.map(\.element)
        if let firstOmitted {
            let position = firstOmitted.line.map { line in firstOmitted.column.map { " at line \(line), column \($0)" } ?? " at line \(line)" }
            sorted.append(
                LayoutIssue(
                    kind: firstOmitted.kind, file: file,
                    message: "\(omitted) more problem\(omitted == 1 ? "" : "s"), not listed (the first of them\(position ?? " in the file")): "
                        + "at most \(Self.maximumIssues) problems are listed per file"))
        }
        return sorted
    }

    private func location(of path: TOMLPath) -> String {
        guard path.components.count >= 2, case .key(let section) = path.components[0],
            case .index = path.components[1]
        else { return path.description }
        let entry = TOMLPath(components: Array(path.components.prefix(2)))
        guard let id = ids[entry] else { return path.description }
        let rest = TOMLPath(components: Array(path.components.dropFirst(2)))
        var text = "\(section) \(quote(id)) (\(entry))"
        if case .key = rest.components.first { text += "." }
        return text + rest.description
    }
}
