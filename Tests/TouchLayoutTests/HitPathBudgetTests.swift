import Testing
import TouchCore

@testable import TouchLayout

/// A touch is offered to every recognizer of the view it lands on and of the views above it: the
/// layout bounds how many one view's hit path carries (``Limits/maximumRecognizersOnHitPath``),
/// not how many a window holds.
@Suite(.timeLimit(.minutes(10))) struct HitPathBudgetTests {
    /// A tap gesture on `view`.
    func gesture(_ id: String, on view: String) -> String { "[[gesture]]\nid = \"\(id)\"\nview = \"\(view)\"\nkind = \"tap\"\n" }

    @Test func theMostRecognizersOnOneHitPathLoad() throws {
        // "a.child"'s path is itself, "a" and "home.root": the bound is shared out along it.
        let limit = Limits.maximumRecognizersOnHitPath
        let views = ["home.root", "a", "a.child"]
        let text = baseLayout + (0..<limit).map { gesture("g\($0)", on: views[$0 % 3]) }.joined()
        let document = try load(text)
        #expect(document.gestures.count == limit)
        #expect(try document.makeApplication().gestureRecognizerSpecs.count == limit)
    }

    @Test func oneMoreOnTheViewIsRefusedAtTheGestureThatGoesPast() {
        let limit = Limits.maximumRecognizersOnHitPath
        let text = baseLayout + (0...limit).map { gesture("g\($0)", on: "a") }.joined()
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "gesture[\(limit)].view",
            line: line(of: "id = \"g\(limit)\"", in: text).map { $0 + 1 },
            mentions: [
                "view \"a\"'s hit path (the view and the views above it) carries \(limit + 1) gesture recognizers",
                "expected at most \(limit)",
            ])
    }

    @Test func recognizersAboveCountForTheViewsBelowAndAreReportedOnce() {
        // Half the bound on "home.root", half on "a": "a" is full; one on "a.child" goes past it,
        // and "b" (beside "a") stays within it with as many of its own.
        let limit = Limits.maximumRecognizersOnHitPath
        var text = baseLayout + (0..<(limit / 2)).map { gesture("root\($0)", on: "home.root") }.joined()
        text += (0..<(limit / 2)).map { gesture("a\($0)", on: "a") }.joined()
        text += (0..<(limit / 2)).map { gesture("b\($0)", on: "b") }.joined()
        text += gesture("child0", on: "a.child") + gesture("child1", on: "a.child")
        let issue = singleIssue(text)
        check(
            issue, kind: .exceedsLimit, keyPath: "gesture[\(3 * (limit / 2))].view", line: line(of: "id = \"child0\"", in: text).map { $0 + 1 },
            mentions: ["view \"a.child\"'s hit path", "carries \(limit + 2) gesture recognizers (2 on the view itself)"])
    }

    @Test func aPathTooFullAboveIsReportedThereOnly() {
        // Every level of a chain of views carries one: the view whose own takes the path past the
        // bound is reported, not each below it.
        let limit = Limits.maximumRecognizersOnHitPath
        var text = baseLayout
        var parent = "home.root"
        for n in 0..<(limit + 10) {
            text += "[[view]]\nid = \"level\(n)\"\nparent = \"\(parent)\"\nframe = [0, 0, 10, 10]\n"
            text += gesture("g\(n)", on: "level\(n)")
            parent = "level\(n)"
        }
        check(
            singleIssue(text), kind: .exceedsLimit, keyPath: "gesture[\(limit)].view", line: line(of: "id = \"g\(limit)\"", in: text).map { $0 + 1 },
            mentions: ["view \"level\(limit)\"'s hit path", "carries \(limit + 1) gesture recognizers (1 on the view itself)"])
    }

    @Test func recognizersSpreadOverManyViewsLoad() throws {
        // As many gestures as a layout may list, a few to a view side by side: every hit path
        // carries a handful.
        var text = "[[window]]\nid = \"main\"\nsize = [1000, 1000]\n"
        let views = Limits.maximumLayoutEntries / 5
        for i in 0..<views { text += "[[view]]\nid = \"v\(i)\"\nparent = \"main\"\nframe = [\(i % 100 * 10), \(i / 100 * 10), 10, 10]\n" }
        for i in 0..<Limits.maximumLayoutEntries { text += gesture("g\(i)", on: "v\(i % views)") }
        let document = try load(text)
        #expect(document.gestures.count == Limits.maximumLayoutEntries)
    }
}
