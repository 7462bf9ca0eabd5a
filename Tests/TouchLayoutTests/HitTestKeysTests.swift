import Testing
import TouchCore

@testable import TouchLayout

/// The layout's hit-testing keys for seed 000's overrides: `hit_test = "redirect-anywhere"` on a
/// view, and `hidden`, `interactive` and `hit_test` on a window.
@Suite(.timeLimit(.minutes(10))) struct HitTestKeysTests {
    static let white = """
        [[window]]
        id = "w"
        size = [400, 400]

        [[view]]
        id = "white"
        parent = "w"
        frame = [50, 50, 250, 250]
        hit_test = "redirect-anywhere"
        redirect = "red"

        [[view]]
        id = "red"
        parent = "white"
        frame = [0, 0, 100, 100]
        hidden = true

        """

    @Test func aViewRedirectsEveryTouchToItsSubviewWhereverItLands() throws {
        let document = try load(Self.white)
        #expect(document.view("white")?.hitTestPolicy == .redirectAnywhere("red"))
        let app = try document.makeApplication()
        #expect(app.tree.hitTest(Point(x: 390, y: 390), inWindow: "w")?.view == "red")
    }

    @Test func redirectAnywhereNeedsItsTargetAndADescendant() {
        let missing = Self.white.replacingOccurrences(of: "redirect = \"red\"\n", with: "")
        check(
            singleIssue(missing), kind: .missingKey, keyPath: "view[0].redirect", line: line(of: "[[view]]", in: missing),
            mentions: [#"required by hit_test = "redirect-anywhere""#])
        let outside = Self.white.replacingOccurrences(of: "parent = \"white\"", with: "parent = \"w\"")
        let issue = singleIssue(outside)
        #expect(issue?.keyPath == "view[0].redirect")
        #expect(issue?.description.contains("is not inside view \"white\"") == true, "\(String(describing: issue))")
    }

    static let windows = """
        [[window]]
        id = "bottom"
        size = [400, 400]
        key = true

        [[window]]
        id = "top"
        size = [400, 400]
        level = 10
        HIT

        [[view]]
        id = "under"
        parent = "bottom"
        frame = [0, 0, 400, 400]

        """

    @Test(arguments: [
        ("hidden = true", "under"), ("interactive = false", "under"), ("hit_test = \"none\"", "under"),
        ("hit_test = \"capture\"", "top"), ("hit_test = \"pass-through\"", "under"), ("hit_test = \"default\"", "top"), ("", "top"),
    ])
    func aWindowsHitTestingKeysDecideWhetherTouchesFallToTheWindowBelow(keys: String, hit: String) throws {
        let document = try load(Self.windows.replacingOccurrences(of: "HIT", with: keys))
        let app = try document.makeApplication()
        #expect(app.tree.hitTest(Point(x: 200, y: 200), onDisplayOf: "bottom")?.view == ResponderID(hit), "\(keys)")
    }

    @Test func aWindowTakesNoRedirect() {
        let text = Self.windows.replacingOccurrences(of: "HIT", with: "hit_test = \"redirect\"")
        let issue = singleIssue(text)
        #expect(issue?.keyPath == "window[1].hit_test")
        #expect(issue?.description.contains(#"expected one of "default", "pass-through", "capture", "none""#) == true, "\(String(describing: issue))")
    }
}
