import Testing
import TouchCore

@testable import TouchLayout

@Suite(.timeLimit(.minutes(10))) struct LocatorTests {
    func position(_ path: String, in text: String) -> SourcePosition? {
        let locator = SourceLocator(text: text)
        return locator.positions.first { $0.key.description == path }?.value
    }

    @Test func findsKeysInArraysOfTablesDottedKeysAndSubtables() {
        let text = """
            title = "a # not a comment [[view]]"
            [[device]]
            match.kind = "any"   # comment
            [[device]]
              window = "w"
            [device.match]
            name = 'x'
            [[view]]
            "quoted key" = { inner = [1,
              2] }
            notes = \"\"\"
            [[view]]
            id = "fake"
            \"\"\"
            [[view]]
            id = "real"
            """
        #expect(position("title", in: text) == SourcePosition(line: 1, column: 1))
        #expect(position("device[0]", in: text)?.line == 2)
        #expect(position("device[0].match.kind", in: text) == SourcePosition(line: 3, column: 7))
        #expect(position("device[1].window", in: text) == SourcePosition(line: 5, column: 3))
        #expect(position("device[1].match", in: text)?.line == 6)
        #expect(position("device[1].match.name", in: text)?.line == 7)
        #expect(position("view[0].\"quoted key\".inner[1]", in: text) == SourcePosition(line: 10, column: 3))
        #expect(position("view[1]", in: text)?.line == 15)
        #expect(position("view[1].id", in: text)?.line == 16)
        #expect(position("view[2]", in: text) == nil)
    }

    @Test func fallsBackToTheEnclosingTable() {
        let locator = SourceLocator(text: "[[view]]\nid = \"a\"\n[[view]]\nid = \"b\"\n")
        let path = TOMLPath.root.appending("view").appending(index: 1).appending("frame")
        #expect(locator.position(of: path)?.line == 3)
        #expect(locator.exactPosition(of: path) == nil)
    }

    @Test func stopsAtTheNestingBudget() {
        for text in [
            "a = " + String(repeating: "[", count: 100_000), "a = " + String(repeating: "{b=", count: 100_000),
            (0..<100_000).map { "k\($0)" }.joined(separator: ".") + " = 1", "[" + (0..<100_000).map { "k\($0)" }.joined(separator: ".") + "]",
        ] {
            let locator = SourceLocator(text: text)
            #expect(locator.refusal?.kind == .exceedsLimit, "\(text.prefix(20))")
            #expect(locator.refusal?.position.line == 1)
            #expect(locator.positions.count <= Limits.maximumLayoutNesting + 1)
        }
    }

    @Test func recordsTheFirstTrapAndGoesOn() {
        let locator = SourceLocator(text: "a = yes\nb = .5\n[[view]]\nid = \"v\"\n")
        #expect(locator.refusal?.kind == .syntax)
        #expect(locator.refusal?.position == SourcePosition(line: 1, column: 5))
        #expect(locator.refusal?.message.contains("text needs quotes") == true)
        #expect(locator.exactPosition(of: TOMLPath.root.appending("view").appending(index: 0).appending("id"))?.line == 4)
    }

    @Test func neverGetsStuckOnOddText() {
        for text in ["[", "[[", "a = [", "a = {", "\"", "x = \"\"\"", "= = =", "[a.\"b", "a = [1, {b = ", "]]]"] {
            _ = SourceLocator(text: text)
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct GlobTests {
    func matches(_ pattern: String, _ name: String) -> Bool {
        DeviceMatchSpec(name: pattern).nameMatches(name)
    }

    @Test func matchesLikeAShell() {
        #expect(matches("Atmel*", "Atmel maXTouch Digitizer"))
        #expect(!matches("Atmel*", "ELAN Touchscreen"))
        #expect(matches("*Touch*", "Atmel maXTouch Digitizer"))
        #expect(matches("event?", "event5"))
        #expect(!matches("event?", "event15"))
        #expect(matches("event[0-4]", "event3"))
        #expect(!matches("event[0-4]", "event5"))
        #expect(matches("event[!0-4]", "event5"))
        #expect(matches("a[]]b", "a]b"))
        #expect(matches("a\\*b", "a*b"))
        #expect(!matches("a\\*b", "axb"))
        #expect(matches("*", ""))
        #expect(matches("**a*", "bab"))
        #expect(DeviceMatchSpec().nameMatches("anything"))
    }

    @Test func findsBadPatterns() {
        #expect(Glob.problem(in: "Atmel*") == nil)
        #expect(Glob.problem(in: "a[b") != nil)
        #expect(Glob.problem(in: "a\\") != nil)
        #expect(Glob.problem(in: "[]") != nil)
        #expect(Glob.problem(in: "[]]") == nil)
    }

    @Test func usbIDs() {
        #expect(USBID("03eb:8C1F") == USBID(vendor: 0x03eb, product: 0x8c1f))
        for bad in ["3eb:8c1f", "03eb8c1f", "03eb:8c1g", "03eb:8c1f:0", "+3eb:8c1f", ""] {
            #expect(USBID(bad) == nil, "\(bad)")
        }
    }
}
