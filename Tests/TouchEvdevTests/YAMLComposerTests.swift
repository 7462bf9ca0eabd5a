import Testing
import TouchCore

@testable import TouchEvdev

/// The YAML composer over libyaml's events: nodes with their lines, scalars' styles and integers,
/// anchors and aliases, and the errors (libyaml's and the composer's own) with their lines.
@Suite(.timeLimit(.minutes(10))) struct YAMLComposerTests {
    func compose(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        try YAMLComposer.compose(text)
    }

    func plain(_ text: String, _ line: Int) -> YAMLNode { .scalar(YAMLScalar(text: text, isPlain: true, line: line)) }

    @Test func nestedSequencesAndMappingsKeepTheirOrderAndLines() throws {
        let text = """
            top:
              - [1, 2]
              - inner: {x: 3}
            last: z

            """
        let root = try #require(try compose(text))
        let expected = YAMLNode.mapping(
            [
                YAMLPair(
                    key: plain("top", 1),
                    value: .sequence(
                        [
                            .sequence([plain("1", 2), plain("2", 2)], line: 2),
                            .mapping(
                                [YAMLPair(key: plain("inner", 3), value: .mapping([YAMLPair(key: plain("x", 3), value: plain("3", 3))], line: 3))],
                                line: 3),
                        ], line: 2)),
                YAMLPair(key: plain("last", 4), value: plain("z", 4)),
            ], line: 1)
        #expect(root == expected)
        #expect(root.mapping?["last"]?.string == "z")
        #expect(root.mapping?["missing"] == nil)
        #expect(root.mapping?["top"]?.sequence?.count == 2)
    }

    @Test func onlyPlainScalarsAreNumbers() throws {
        let text = "plain: 31\ndouble: \"31\"\nsingle: '31'\nhex: 0x1f\nblock: |\n  31\nword: thirty\n"
        let map = try #require(try compose(text)?.mapping)
        #expect(map["plain"]?.int == 31)
        #expect(map["hex"]?.int == 31)
        #expect(map["double"]?.int == nil)
        #expect(map["double"]?.string == "31")
        #expect(map["single"]?.int == nil)
        #expect(map["block"]?.int == nil)
        #expect(map["block"]?.string == "31\n")
        #expect(map["word"]?.int == nil)
        #expect(map["word"]?.string == "thirty")
        // Quoted keys are looked up like plain ones.
        #expect(try compose("\"version\": 1\n")?.mapping?["version"]?.int == 1)
    }

    @Test(arguments: [
        ("0", 0), ("1", 1), ("-42", -42), ("+7", 7), ("1_000", 1000), ("0x1f", 31), ("0X1f", nil), ("-0x10", -16),
        ("017", 15), ("0o17", 15), ("0b101", 5), ("08", nil), ("1:30", 90), ("-1:30", -90), ("1:00:00", 3600),
        ("1.5", nil), ("abc", nil), ("", nil), ("9223372036854775807", Int.max), ("9223372036854775808", nil),
        ("1:1:1:1:1:1:1:1:1:1:1:1", nil),
    ] as [(String, Int?)])
    func integersAreYAML11s(text: String, value: Int?) {
        #expect(YAMLScalar(text: text, isPlain: true, line: 1).int == value)
    }

    @Test func aliasesAreTheirAnchorsNodes() throws {
        let text = """
            list: &l [1, 2]
            copy: *l
            one: &s 5
            again: *s
            list2: &l [3]
            copy2: *l

            """
        let map = try #require(try compose(text)?.mapping)
        #expect(map["copy"] == map["list"])
        #expect(map["copy"]?.line == 1, "an alias is the anchored node, with its line")
        #expect(map["again"]?.int == 5)
        #expect(map["copy2"]?.sequence?.map(\.int) == [3], "a later anchor of the same name replaces the earlier")
    }

    @Test func anUnknownAliasIsAnErrorWithItsLine() {
        #expect(throws: YAMLSyntaxError(problem: "found undefined alias", line: 3)) {
            try compose("a: 1\nb:\n  - *nope\n")
        }
        // An anchor is defined once its node is complete: a collection cannot hold itself.
        #expect(throws: YAMLSyntaxError(problem: "found undefined alias", line: 1)) {
            try compose("a: &x [1, *x]\n")
        }
    }

    @Test(arguments: [
        ("a: [1, 2\nb: 3\n", 2, "did not find expected ',' or ']'"),
        ("a: 1\n b: 2\n", 2, "mapping values are not allowed in this context"),
        ("a: 1\n@b: 2\n", 2, "found character that cannot start any token"),
    ] as [(String, Int, String)])
    func syntaxErrorsNameLibyamlsProblemAndLine(text: String, line: Int, problem: String) {
        #expect(throws: YAMLSyntaxError(problem: problem, line: line)) { try compose(text) }
    }

    @Test func controlCharactersAreReaderErrorsWithTheirLine() {
        #expect(throws: YAMLSyntaxError(problem: "control characters are not allowed", line: 2)) {
            try compose("a: 1\nb: \u{1}\n")
        }
    }

    @Test func duplicateKeysAreRefused() {
        #expect(throws: YAMLSyntaxError(problem: "duplicate keys in a mapping (1 of them)", line: 2)) {
            try compose("x: 0\na: 1\nb: 2\n\"a\": 3\n")
        }
        // The line is the first of the key first in the order of the text: `a`.
        #expect(throws: YAMLSyntaxError(problem: "duplicate keys in a mapping (2 of them)", line: 3)) {
            try compose("outer:\n  b: 1\n  a: 2\n  b: 3\n  a: 4\n")
        }
        #expect(throws: YAMLSyntaxError(problem: "duplicate keys in a mapping (1 of them)", line: 1)) {
            try compose("? [1, 2]\n: a\n? [1, 2]\n: b\n")
        }
    }

    @Test func aSecondDocumentIsRefused() {
        #expect(throws: YAMLSyntaxError(problem: "but found another document", line: 2)) {
            try compose("a: 1\n---\nb: 2\n")
        }
    }

    @Test func anEmptyTextHoldsNoDocument() throws {
        #expect(try compose("") == nil)
        #expect(try compose("# only a comment\n\n") == nil)
        // An empty document is an empty plain scalar.
        let empty = try compose("---\n")
        #expect(empty?.string == "")
        #expect(empty?.int == nil)
    }

    /// A recording's event lists may be aliases: they expand to the anchored events.
    @Test func aLibinputRecordMayUseAliases() throws {
        let text = """
            version: 1
            devices:
            - evdev:
                name: aliased
              frame: &f
              - [0, 0, 3, 57, 1]
              - [0, 0, 0, 0, 0]
              events:
              - evdev: *f
              - evdev: *f

            """
        let recording = try Recording.parse(text: text, name: "alias.yml")
        #expect(recording.description.name == "aliased")
        #expect(recording.events.count == 4)
        #expect(recording.events[2] == InputEvent(time: EventTime(microseconds: 0), type: 3, code: 57, value: 1))
    }

    /// Errors from the composer reach the recording's error with the text's line.
    @Test func aRecordingsYAMLErrorsNameTheirProblem() {
        #expect(throws: RecordingError(file: "r.yml", line: 3, kind: .invalidYAML(problem: "found undefined alias"))) {
            try Recording.parse(text: "version: 1\ndevices:\n- evdev: *missing\n", name: "r.yml")
        }
    }
}
