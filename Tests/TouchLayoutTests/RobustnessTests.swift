import Testing
import TouchCore

@testable import TouchLayout

/// Damaged layouts never crash the loader, and every problem it reports says where and why.
@Suite(.timeLimit(.minutes(10))) struct RobustnessTests {
    func checkReport(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = issues(text)
        for issue in found {
            #expect(!issue.message.isEmpty, sourceLocation: sourceLocation)
            #expect(issue.file == "layout.toml", sourceLocation: sourceLocation)
            // Everything but a missing [[window]] and whole-file problems has a line.
            if issue.keyPath != "window" && issue.kind != .unreadableFile {
                #expect(issue.line != nil, "\(issue)\n--- in:\n\(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyLineRemovedOrDoubled() {
        let lines = fullLayout.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices {
            var removed = lines
            removed.remove(at: index)
            checkReport(removed.joined(separator: "\n"))
            var doubled = lines
            doubled.insert(lines[index], at: index)
            checkReport(doubled.joined(separator: "\n"))
        }
    }

    @Test func truncatedAnywhere() {
        let scalars = Array(fullLayout.unicodeScalars)
        for end in stride(from: 0, to: scalars.count, by: 7) {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[..<end])
            checkReport(text)
        }
    }

    @Test func charactersReplaced() {
        var generator = SplitMix(seed: 0x5EED)
        let scalars = Array(fullLayout.unicodeScalars)
        let replacements: [Unicode.Scalar] = ["[", "]", "{", "}", "\"", "'", "=", ".", ",", "#", "\n", " ", "-", "1", "x", "\\"]
        for _ in 0..<600 {
            var mutated = scalars
            for _ in 0..<3 {
                let at = Int(generator.next() % UInt64(mutated.count))
                mutated[at] = replacements[Int(generator.next() % UInt64(replacements.count))]
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: mutated)
            checkReport(text)
        }
    }

    @Test func windowsLineEndingsKeepLineNumbers() {
        let text = "[[window]]\r\nid = \"w\"\r\nsize = [1, 1]\r\nalpha = 1\r\n"
        check(
            issues(text).first, kind: .unknownKey, keyPath: "window[0].alpha", line: 4,
            mentions: ["unknown key \"alpha\" in a [[window]]"])
    }

    @Test func oddButValidTOML() throws {
        let document = try load(
            """
            # keys may be quoted, and tables may come in any order
            "window" = [ { "id" = "w", size = [ 1_000, 5e2 ] } ]

            [[view]]   # trailing comment
            id = 'literal'
            parent = "w"
            frame = [
              0,  # x
              0,  # y
              1.0,
              +2,
            ]
            """)
        #expect(document.windows.first?.size == Size(width: 1000, height: 500))
        #expect(document.views.first?.frame == Rect(x: 0, y: 0, width: 1, height: 2))
    }
}

/// A small deterministic generator, so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// TOMLKit 0.6.0's parser (toml++) aborts the process on some malformed text instead of
/// reporting it; the loader vets the text first. These are the cases found by fuzzing.
@Suite(.timeLimit(.minutes(10))) struct ParserTrapTests {
    @Test(arguments: [
        ("[=window]]\nid = \"w\"\n", 1, 2, "table header"),
        ("a = 1\n[[[view]]]\n", 2, 3, "table header"),
        ("[[window]]\nsize = [800,}600]\n", 2, 13, "array"),
        ("[[window]]\nsize = [800, \u{2028}600]\n", 2, 14, "array"),
        ("t = 07:3x:00\n", 1, 5, "value"),
        ("alpha = .5\n", 1, 9, "value"),
        ("n = 1__0\n", 1, 5, "value"),
        ("n = 007\n", 1, 5, "value"),
        ("d = 2023-02-29\n", 1, 5, "value"),
    ])
    func malformedTextIsReportedNotCrashedOn(text: String, line: Int, column: Int, context: String) {
        let found = issues(text)
        #expect(found.count == 1)
        #expect(found.first?.kind == .syntax)
        #expect(found.first?.line == line)
        #expect(found.first?.column == column)
        #expect(found.first?.message.hasPrefix("TOML syntax error: Error while parsing \(context): expected") == true, "\(found)")
    }

    @Test(arguments: [
        ("[[window]]\nid = \"w\"\nsize = [800, 600\n\n[[view]]\nid = \"v\"\n", "before line 5"),
        ("[[window]]\nid = \"w\"\nsize = [800,\n  600\nkey = true\n", "before line 5"),
        ("[[window]]\nid = \"w\"\nsize = [800,\n  600,\n", "before the end of the file"),
    ])
    func anUnclosedArrayIsReportedWhereItOpens(text: String, before: String) {
        let found = issues(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.kind == .syntax)
        #expect(found.first?.line == 3 && found.first?.column == 8, "\(found)")
        #expect(found.first?.message == "TOML syntax error: this array is not closed: expected `]` \(before)", "\(found)")
    }

    @Test func bracketedValuesOnTheirOwnLinesAreStillElements() throws {
        let document = try load(
            baseLayout + """
                [[handler]]
                responder = "a"
                on = "touches_began"
                action = "x"
                payload = [
                  [true],
                  [false],
                  [1, 2]
                ]
                """)
        #expect(document.handlers.count == 1)
    }

    @Test func bareWordsAreToldToUseQuotes() {
        let found = issues("[[window]]\nid = main\n")
        #expect(found.first?.description == #"layout.toml:2:6: TOML syntax error: Error while parsing value: expected a string, number, boolean, date or time, saw "main"; text needs quotes: "main""#)
    }

    @Test func everyTOMLValueSpellingStillLoads() throws {
        let document = try load(
            baseLayout + """
                [[handler]]
                responder = "a"
                on = "touches_began"
                action = "x"
                payload = [
                  1_000, 0xDEAD_beef, 0o755, 0b1101, +17, -0, 0,
                  +1.5e-3, -0.0, 1e06, 6.626e-34, 3.1415, 5E+22,
                  true, false,
                  1979-05-27T07:32:00Z, 1979-05-27T00:32:00.999999-07:00, 1979-05-27 07:32:00, 1979-05-27t07:32:00,
                  1979-05-27T07:32:00, 1979-05-27, 07:32:00, 00:32:00.5, 2024-02-29,
                  "basic \\u00e9", 'literal', \"\"\"multi
                line\"\"\", '''raw
                lines''',
                ]
                """)
        guard case .array(let items) = document.handlers.first?.payload else {
            Issue.record("no payload")
            return
        }
        #expect(items.count == 28)
        #expect(items[0] == .int(1000))
        #expect(items[1] == .int(0xDEAD_BEEF))
        #expect(items[2] == .int(0o755))
        #expect(items[3] == .int(13))
        #expect(items[7] == .double(0.0015))
        #expect(items[15] == .string("1979-05-27T07:32:00Z"))
        #expect(items[16] == .string("1979-05-27T00:32:00.999999-07:00"))
        #expect(items[17] == .string("1979-05-27T07:32:00"))
        #expect(items[21] == .string("07:32:00"))
        #expect(items[24] == .string("basic é"))
    }
}
