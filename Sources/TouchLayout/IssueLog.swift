/// Collects the problems of one load, giving each its line and its readable location.
final class IssueLog {
    let file: String
    let locator: SourceLocator
    private(set) var issues: [LayoutIssue] = []
    /// The ids of `[[window]]`, `[[view]]` and `[[controller]]` entries by their path
    /// (`view[2]` → `"blue"`), so locations can read `view "blue" (view[2]).alpha`.
    private var ids: [TOMLPath: String] = [:]

    init(file: String, locator: SourceLocator) {
        self.file = file
        self.locator = locator
    }

    func name(_ path: TOMLPath, id: String) {
        ids[path] = id
    }

    /// `view "blue" (view[2])` when the id of that entry is known, else `view[2]`.
    func entryName(_ path: TOMLPath) -> String {
        location(of: path)
    }

    func add(_ kind: LayoutIssue.Kind, _ path: TOMLPath, _ message: String) {
        let position = locator.position(of: path)
        var id: String?
        if path.components.count >= 2 {
            id = ids[TOMLPath(components: Array(path.components.prefix(2)))]
        }
        issues.append(
            LayoutIssue(
                kind: kind, file: file, line: position?.line, column: position?.column,
                keyPath: path.description, id: id, location: location(of: path), message: message))
    }

    /// Issues sorted by line (issues without a line last), keeping the order of same-line ones.
    var sortedIssues: [LayoutIssue] {
        issues.enumerated().sorted { a, b in
            let lineA = a.element.line ?? Int.max
            let lineB = b.element.line ?? Int.max
            if lineA != lineB { return lineA < lineB }
            let columnA = a.element.column ?? 0
            let columnB = b.element.column ?? 0
            if columnA != columnB { return columnA < columnB }
            return a.offset < b.offset
        }.map(\.element)
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
