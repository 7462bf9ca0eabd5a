import Testing
import TouchCore
import TouchEvdev

/// The budgets of docs/limits.md, checked while a recording is parsed and before anything is kept:
/// each refusal names the line where the budget ran out.
@Suite(.timeLimit(.minutes(10))) struct RecordingBudgetTests {
    static let header = """
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.0"
        devices:
        - node: /dev/input/event0
          evdev:
            name: "alias bomb"
            absinfo:
              53: [0, 1000, 0, 0, 0]
              54: [0, 1000, 0, 0, 0]
            properties: [1]

        """

    func expectLimit(_ text: String, _ what: String, line: Int? = nil, name: String = "bomb.yml") {
        #expect {
            try Recording.parse(text: text, name: name)
        } throws: { error in
            guard let error = error as? RecordingError, case .exceedsLimit(let counted, _) = error.kind else { return false }
            return counted == what && (line == nil || error.line == line) && error.line != nil
        }
    }

    /// 64 KB of YAML whose event entries are aliases of one list of 2,000 events: about nine
    /// million events once expanded. It is refused in one pass over the text, before it is composed.
    @Test func aLibinputRecordOfAliasesOfAliasesIsRefusedQuickly() {
        var text = Self.header + "  frame: &f\n"
        for i in 0..<2_000 { text += "  - [0, \(i), 3, 53, 1]\n" }
        text += "  entry: &e {evdev: *f}\n  events:\n"
        while text.utf8.count < 64 * 1024 { text += "  - *e\n" }
        expectLimit(text, "YAML nodes once aliases are expanded")
    }

    /// The classic "billion laughs", hidden in a key the reader ignores: expansion counts wherever it is.
    @Test func nestedAliasesInAnIgnoredKeyAreRefusedToo() {
        var text = Self.header + "  laughs0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "  laughs\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        text += "  events: []\n"
        expectLimit(text, "YAML nodes once aliases are expanded", line: 18)
    }

    @Test func deepNestingIsRefusedBeforeItIsComposed() {
        let block = Self.header + "  deep:\n  " + String(repeating: "- ", count: 100) + "x\n"
        expectLimit(block, "levels of YAML nesting", line: 14)
        // Flow nesting this deep libyaml refuses by itself, also with the line.
        let depth = 100_000
        let flow = Self.header + "  deep: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        #expect {
            try Recording.parse(text: flow, name: "deep.yml")
        } throws: { error in
            (error as? RecordingError)?.line == 13
        }
    }

    @Test func aRecordingLargerThanTheBudgetIsRefusedBeforeItIsRead() {
        let text = "N: big\n" + String(repeating: "#", count: Limits.maximumRecordingBytes)
        #expect(throws: RecordingError(file: "big.ev", kind: .exceedsLimit(what: "bytes", limit: Limits.maximumRecordingBytes))) {
            try Recording.parse(text: text, name: "big.ev")
        }
    }

    @Test func theEventBudgetStopsAtTheFirstEventPastIt() {
        let text = "N: many\n" + String(repeating: "E: 0 0 0 0\n", count: Limits.maximumRecordingEvents + 1)
        expectLimit(text, "events", line: Limits.maximumRecordingEvents + 2, name: "many.ev")
    }

    @Test func aDescriptionPastItsBudgetIsRefused() {
        let lines = String(repeating: "A: 00 0 1 0 0\n", count: Limits.maximumDescriptionLines)
        expectLimit("N: wordy\n" + lines, "description lines", line: Limits.maximumDescriptionLines + 1, name: "wordy.ev")
    }

    @Test(arguments: [
        ("N: " + String(repeating: "n", count: Limits.maximumDeviceNameBytes + 1) + "\n", 1, "a device name of at most 1024 bytes"),
        ("N: x\nE: 0.1 0020 0000 1\n", 2, "an event type from 0x00 to 0x1f (EV_MAX)"),
        ("N: x\nE: 0.1 0001 0300 1\n", 2, "an event code from 0x000 to 0x2ff (KEY_MAX)"),
        ("N: x\nB: 01" + String(repeating: " 00", count: 97) + "\n", 2, "at most 96 mask bytes for a type (codes up to 0x2ff)"),
        ("N: x\nA: 00 0 2147483648 0 0\n", 2, "'A: <code hex, 00-3f> <min> <max> <fuzz> <flat> [<resolution>]' in decimal"),
        ("[ 1.0 ] 0021 0000 00000001\n", 1, "an event type from 0x00 to 0x1f (EV_MAX)"),
        // An EV_ABS code past ABS_MAX would become an axis of a description derived from the events.
        ("[ 1.0 ] 0003 0035 00000001\n[ 1.0 ] 0003 014a 00000000\n", 2, "an EV_ABS code from 0x00 to 0x3f (ABS_MAX)"),
        ("N: x\nE: 0.1 0003 0040 1\n", 2, "an EV_ABS code from 0x00 to 0x3f (ABS_MAX)"),
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3, 330, 1]\n", 7,
            "an EV_ABS code from 0x00 to 0x3f (ABS_MAX)"),
    ] as [(String, Int, String)])
    func numbersOutsideTheirDomainsAreRefusedWithTheirLine(text: String, line: Int, expected: String) {
        #expect {
            try Recording.parse(text: text, name: "bad")
        } throws: { error in
            guard let error = error as? RecordingError, case .unexpected(let what, _) = error.kind else { return false }
            return error.line == line && what == expected
        }
    }

    @Test func libinputRecordNumbersAreCheckedToo() {
        let cases: [(String, Int)] = [
            ("    codes: {1: [768]}\n", 9),
            ("      47: [0, 2147483648, 0, 0, 0]\n", 9),
            ("  events:\n  - evdev:\n    - [1000000000000, 0, 3, 53, 1]\n", 11),
            ("  events:\n  - evdev:\n    - [0, 0, 32, 53, 1]\n", 11),
        ]
        for (tail, line) in cases {
            let text = "version: 1\ndevices:\n- evdev:\n    name: x\n    properties: [1]\n    absinfo:\n      53: [0, 10, 0, 0, 0]\n      54: [0, 10, 0, 0, 0]\n" + tail
            #expect {
                try Recording.parse(text: text, name: "bad.yml")
            } throws: { error in
                (error as? RecordingError)?.line == line
            }
        }
    }

    /// `n` as six digits.
    static func sixDigits(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// A getevent trace's events go to its device's list in place: a long trace is read in linear
    /// time (it used to copy the list on each event).
    @Test func aLongGeteventTraceIsReadInLinearTime() throws {
        var text = "add device 1: /dev/input/event2\n  name: \"screen\"\n"
        for i in 0..<50_000 {
            let time = "1." + Self.sixDigits(i % 1_000_000)
            text += "[ \(time) ] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 0000002b\n"
            text += "[ \(time) ] /dev/input/event2: EV_SYN SYN_REPORT 00000000\n"
        }
        let recording = try Recording.parse(text: text, name: "long.txt")
        #expect(recording.events.count == 100_000)
    }
}


