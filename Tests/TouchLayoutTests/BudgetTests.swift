import Testing
import TouchCore

@testable import TouchLayout

/// The budgets that bound the work of a load are checked before that work: the nesting of values
/// and the length of keys before TOMLKit parses the text, the number of entries before they are
/// read. Each refusal says where, and names the limit.
@Suite(.timeLimit(.minutes(10))) struct BudgetTests {
    /// `count` views side by side in window "main" (the base layout's), each with a handler when
    /// `handlers` (so the handlers reach the views).
    func flatViews(_ count: Int, handlers: Bool = false) -> String {
        var text = "[[window]]\nid = \"main\"\nsize = [1000, 1000]\n"
        for i in 0..<count {
            text += "[[view]]\nid = \"v\(i)\"\nparent = \"main\"\nframe = [\(i % 1000), \(i / 1000), 1, 1]\n"
        }
        if handlers {
            for i in 0..<count { text += "[[handler]]\nresponder = \"v\(i)\"\non = \"touches_began\"\naction = \"a\(i)\"\n" }
        }
        return text
    }

    @Test func theMostViewsLoad() throws {
        let document = try load(flatViews(Limits.maximumViews, handlers: true))
        #expect(document.views.count == Limits.maximumViews)
        #expect(document.handlers.count == Limits.maximumViews)
        #expect(try document.makeApplication().tree.viewCount == Limits.maximumViews)
    }

    @Test func oneViewMoreIsRefusedNamingTheLimit() {
        let text = flatViews(Limits.maximumViews + 1)
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "view[\(Limits.maximumViews)]",
            line: line(of: "id = \"v\(Limits.maximumViews)\"", in: text).map { $0 - 1 },
            mentions: ["\(Limits.maximumViews + 1) [[view]] entries: expected at most \(Limits.maximumViews)"])
    }

    @Test func everyArrayOfTablesIsBounded() {
        // Spread over views side by side, each within the recognizers a hit path may carry.
        let views = Limits.maximumLayoutEntries / Limits.maximumRecognizersOnHitPath + 1
        let text = baseLayout + (0..<views).map { "[[view]]\nid = \"s\($0)\"\nparent = \"home.root\"\nframe = [0, 0, 1, 1]\n" }.joined()
            + (0...Limits.maximumLayoutEntries).map { "[[gesture]]\nid = \"g\($0)\"\nview = \"s\($0 % views)\"\nkind = \"tap\"\n" }.joined()
        let found = issues(text)
        #expect(found.count == 1, "\(found.prefix(2))")
        #expect(found.first?.kind == .exceedsLimit)
        #expect(found.first?.keyPath == "gesture[\(Limits.maximumLayoutEntries)]")
        #expect(found.first?.line == line(of: "id = \"g\(Limits.maximumLayoutEntries)\"", in: text).map { $0 - 1 })
        #expect(found.first?.message.contains("expected at most \(Limits.maximumLayoutEntries)") == true)
    }

    @Test func listsOfIdsAreBounded() {
        let ids = (0...Limits.maximumLayoutEntries).map { "\"g\($0)\"" }.joined(separator: ",")
        let text = baseLayout + "[[gesture]]\nid = \"g\"\nview = \"a\"\nkind = \"tap\"\nrequires_failure_of = [\(ids)]\n"
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "gesture[0].requires_failure_of", line: line(of: "requires_failure_of", in: text),
            mentions: ["\(Limits.maximumLayoutEntries + 1) elements", "at most \(Limits.maximumLayoutEntries)"])
    }

    /// Text nested `depth` deep in one of the ways TOML allows, each on line 2 of a file.
    static let deepShapes: [(name: String, make: @Sendable (Int) -> String)] = [
        ("arrays", { "x = 1\na = " + String(repeating: "[", count: $0) + String(repeating: "]", count: $0) + "\n" }),
        ("inline tables", { "x = 1\na = " + String(repeating: "{b = ", count: $0) + "1" + String(repeating: "}", count: $0) + "\n" }),
        ("dotted keys", { "x = 1\n" + (0..<$0).map { "k\($0)" }.joined(separator: ".") + " = 1\n" }),
        ("table headers", { "x = 1\n[" + (0..<$0).map { "k\($0)" }.joined(separator: ".") + "]\n" }),
        ("arrays of tables", { "x = 1\n[[" + (0..<$0).map { "k\($0)" }.joined(separator: ".") + "]]\n" }),
    ]

    @Test(arguments: [2_500, 5_000, Limits.maximumLayoutNesting + 1])
    func deepNestingIsRefusedBeforeParsing(depth: Int) {
        for shape in Self.deepShapes {
            let found = issues(shape.make(depth))
            #expect(found.count == 1, "\(shape.name): \(found)")
            #expect(found.first?.kind == .exceedsLimit, "\(shape.name): \(found)")
            #expect(found.first?.line == 2, "\(shape.name): \(found)")
            #expect(found.first?.column != nil, "\(shape.name): \(found)")
            #expect(found.first?.message.contains("expected at most \(Limits.maximumLayoutNesting) levels") == true, "\(shape.name)")
        }
    }

    @Test func nestingUpToTheBudgetIsParsed() {
        // Each key part is 1 level, each array (of tables too) 1 more; `a = ` of the arrays and
        // inline tables is the first of them.
        let depth = Limits.maximumLayoutNesting
        for shape in Self.deepShapes {
            let oneMore = ["arrays", "inline tables", "arrays of tables"].contains(shape.name)
            let found = issues(shape.make(oneMore ? depth - 1 : depth))
            #expect(found.allSatisfy { $0.kind != .exceedsLimit && $0.kind != .syntax }, "\(shape.name): \(found.map(\.description))")
        }
    }

    @Test func aDeepPayloadWithinTheBudgetLoads() throws {
        // handler[0].payload is 3 levels; the arrays inside take the rest.
        let depth = Limits.maximumLayoutNesting - 3
        let text = baseLayout + "[[handler]]\nresponder = \"a\"\non = \"touches_began\"\naction = \"x\"\npayload = "
            + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + "\n"
        var value = try #require(try load(text).handlers.first?.payload)
        var levels = 0
        while case .array(let items) = value, let first = items.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func tooManyValuesAreRefusedBeforeParsing() {
        // Every element of the array is a value, and `a` is one more.
        let text = "x = 1\na = [" + String(repeating: "0,", count: Limits.maximumLayoutValues) + "]\n"
        let found = issues(text)
        #expect(found.count == 1 && found.first?.kind == .exceedsLimit && found.first?.line == 2, "\(found)")
        #expect(found.first?.message.contains("expected at most \(Limits.maximumLayoutValues)") == true, "\(found)")
        let fewer = "a = [" + String(repeating: "0,", count: Limits.maximumLayoutValues - 2) + "]\n"
        #expect(!issues(fewer).contains { $0.kind == .exceedsLimit })
    }

    @Test func longKeysAreRefusedBeforeParsing() {
        let key = String(repeating: "k", count: Limits.maximumIdentifierBytes + 1)
        for text in ["x = 1\n\(key) = 1\n", "x = 1\n[a.\(key)]\n", "x = 1\n\"\(key)\" = 1\n", "x = 1\na = { \(key) = 1 }\n"] {
            let found = issues(text)
            #expect(found.count == 1 && found.first?.kind == .exceedsLimit && found.first?.line == 2, "\(found)")
            #expect(found.first?.message.contains("at most \(Limits.maximumIdentifierBytes) bytes") == true, "\(found)")
        }
        let longest = issues("x = 1\n" + String(repeating: "k", count: Limits.maximumIdentifierBytes) + " = 1\n")
        #expect(!longest.contains { $0.kind == .exceedsLimit }, "\(longest)")
    }

    @Test func longIdentifiersAreRefused() {
        let id = String(repeating: "é", count: Limits.maximumIdentifierBytes / 2 + 1)  // two bytes each
        let text = baseLayout.replacingOccurrences(of: "id = \"b\"", with: "id = \"\(id)\"")
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "view[3].id", line: line(of: id, in: text),
            mentions: ["is \(id.utf8.count) bytes long", "at most \(Limits.maximumIdentifierBytes) bytes"])
    }

    @Test func aFileLargerThanTheBudgetIsRefused() {
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let text = baseLayout + String(repeating: comment, count: Limits.maximumLayoutBytes / comment.utf8.count + 1)
        let found = issues(text)
        #expect(found.count == 1 && found.first?.kind == .exceedsLimit, "\(found.map(\.message))")
        #expect(found.first?.message.contains("expected at most \(Limits.maximumLayoutBytes)") == true)
    }

    @Test func aFileOfMistakesGivesABoundedReport() {
        let text = baseLayout.replacingOccurrences(
            of: "frame = [200, 10, 100, 100]",
            with: "frame = [200, 10, 100, 100]\n" + (0..<500).map { "colour\($0) = 1" }.joined(separator: "\n"))
        let found = issues(text)
        #expect(found.count == IssueLog.maximumIssues + 1)
        #expect(found.prefix(IssueLog.maximumIssues).allSatisfy { $0.kind == .unknownKey })
        #expect(found.last?.message.hasPrefix("\(500 - IssueLog.maximumIssues) more problems, not listed") == true, "\(found.last!)")
        #expect(found.last?.message.contains("(the first of them at line ") == true, "\(found.last!)")
        #expect(found.last?.line == nil, "the count is about the whole file")
        // The problems found, listed or not: what `touchd check` says in its last line.
        do {
            _ = try LayoutLoader.parse(text, file: "layout.toml")
            Issue.record("a file of mistakes loaded")
        } catch {
            #expect(error.problemCount == 500)
            #expect(error.unlisted == 500 - IssueLog.maximumIssues)
        }
        #expect(LayoutErrors(Array(found.prefix(3))).problemCount == 3)
    }

    /// The problems listed are the first found, which need not be the first in the file (the
    /// references are checked after every entry is read): the count of the others takes no line,
    /// so the list stays in line order.
    @Test func theCountOfUnlistedProblemsKeepsTheLineOrder() {
        let typos = (0..<IssueLog.maximumIssues).map { "colour\($0) = 1" }.joined(separator: "\n")
        let text = "[[window]]\nid = \"w\"\nsize = [10, 10]\n[[view]]\nid = \"v\"\nparent = \"nowhere\"\nframe = [0, 0, 1, 1]\n" + typos + "\n"
        let found = issues(text)
        #expect(found.count == IssueLog.maximumIssues + 1)
        let lines = found.compactMap(\.line)
        #expect(lines == lines.sorted(), "\(lines)")
        #expect(found.last?.line == nil)
        #expect(found.last?.message.hasPrefix("1 more problem, not listed (the first of them at line 6, column 1)") == true, "\(found.last!)")
    }
}
