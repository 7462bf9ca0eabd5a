import Testing
@testable import TouchEvdev

/// The evemu variants met in real recordings, and errors that point at the line.
@Suite(.timeLimit(.minutes(10))) struct EvemuParserTests {
    static let headerless = """
        N: N-Trig-MultiTouch
        I: 0003 1b96 0001 0110
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 03 00 00 00 00 00 73 00
        A: 00 0 9600 75 0
        A: 01 0 7200 78 0
        A: 35 0 9600 0 0
        A: 36 0 7200 0 0

        """

    @Test func aHeaderlessDescriptionWithFourNumberAxisLines() throws {
        let recording = try Recording.parse(text: Self.headerless, name: "ntrig.device")
        let device = recording.description
        #expect(device.name == "N-Trig-MultiTouch")
        #expect([device.bus, device.vendor, device.product, device.version] == [0x3, 0x1b96, 0x1, 0x110])
        #expect(device.properties.isEmpty)
        #expect(device.codes[EventType.syn] == [0, 1, 3])
        // The sixth B: 01 line holds bytes 40…47 of the key mask: 0x04 is bit 330, BTN_TOUCH.
        #expect(device.codes[EventType.key] == [KeyCode.btnTouch])
        #expect(device.codes[EventType.abs] == [0, 1, 0x30, 0x31, 0x34, 0x35, 0x36])
        #expect(device.absInfo[AbsCode.x] == AbsInfo(minimum: 0, maximum: 9600, fuzz: 75, flat: 0, resolution: 0))
        #expect(recording.events.isEmpty)
        #expect(recording.format == .evemu)
    }

    @Test func aHeaderWithCommentsFiveNumberAxesAndCommentedEvents() throws {
        let text = """
            # EVEMU 1.3
            # Kernel: 4.14.0-rc7+
            # Input device name: "Advanced Silicon S.A. CoolTouch® System"
            # Supported events:
            #   Event type 3 (EV_ABS)
            #     Event code 47 (ABS_MT_SLOT)
            #       Value        3
            #       Min          0
            #       Max          4
            ################################
            #      Waiting for events      #
            ################################
            N: Advanced Silicon S.A. CoolTouch® System
            I: 0003 2575 0204 0111
            P: 02 00 00 00 00 00 00 00
            A: 2f 0 4 0 0 0
            A: 35 0 32767 0 0 55
            A: 36 0 32767 0 0 98
            E: 0.000001 0003 0039 0000\t# EV_ABS / ABS_MT_TRACKING_ID   0
            E: 0.000001 0003 0035 -001\t# EV_ABS / ABS_MT_POSITION_X    -1
            E: 1288981453.965969 0004 0004 852034
            E: 75.280138 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
            """
        let recording = try Recording.parse(text: text, name: "canvas.evemu")
        #expect(recording.description.name == "Advanced Silicon S.A. CoolTouch® System")
        #expect(recording.description.properties == [InputProperty.direct])
        #expect(recording.description.absInfo[AbsCode.mtPositionY]?.resolution == 98)
        #expect(recording.description.absInfo[AbsCode.mtSlot]?.value == 3, "the header comment's value")
        #expect(recording.events == [
            InputEvent(time: EventTime(microseconds: 1), type: 3, code: 0x39, value: 0),
            InputEvent(time: EventTime(microseconds: 1), type: 3, code: 0x35, value: -1),
            InputEvent(time: EventTime(seconds: 1_288_981_453, microseconds: 965_969), type: 4, code: 4, value: 852_034),
            InputEvent(time: EventTime(seconds: 75, microseconds: 280_138), type: 0, code: 0, value: 0),
        ])
    }

    @Test func crlfLineEndingsAndControlCharactersInTheName() throws {
        let text = "N: Beijing\u{11} IRTOUCH\u{1a}\u{2028}x\r\nA: 00 0 10 0 0\r\nE: 1.5 0003 0000 0007\r\n"
        let recording = try Recording.parse(text: text, name: "crlf.ev")
        #expect(recording.description.name == "Beijing\u{11} IRTOUCH\u{1a}\u{2028}x")
        #expect(recording.events == [InputEvent(time: EventTime(microseconds: 1_500_000), type: 3, code: 0, value: 7)])
    }

    /// The space after `N:` separates the name even when a combining mark follows it (one
    /// character with the space): the name is the rest of the line, as written, without the spaces
    /// and tabs around it.
    @Test func aNameStartingWithACombiningMarkKeepsNoSpace() throws {
        for text in ["N:\u{0599}x\n", "N: \u{0599}x\n", "N:\t \u{0599}x \t\n"] {
            let parsed = try EvemuParser(name: "mark").parse(text)
            #expect(parsed.description?.name == "\u{0599}x", "\(text.debugDescription)")
        }
        #expect(try EvemuParser(name: "inner").parse("N:  My  Device \t\n").description?.name == "My  Device")
    }

    @Test func timesAndFieldsAreReadFromTheirCharacters() {
        #expect(NumberText.time("1330496011.108581") == EventTime(seconds: 1_330_496_011, microseconds: 108_581))
        #expect(NumberText.time("0.5") == EventTime(microseconds: 500_000))
        #expect(NumberText.time("75") == EventTime(microseconds: 75_000_000))
        #expect(NumberText.time("1.12345678") == EventTime(microseconds: 1_123_456))
        #expect(NumberText.time("000000000001.000001") == EventTime(microseconds: 1_000_001))
        for bad in ["", ".", "5.", ".5", "1.2.3", "-1.0", "+1", "1e3", "1 .0", "1234567890123.0", "1.\u{303}5", "1\u{303}.5", "1.5\u{303}", "１.5"] {
            #expect(NumberText.time(bad) == nil, "\(bad)")
        }
        #expect("E:  0.1\t0003  0035 -1 ".fields() == ["E:", "0.1", "0003", "0035", "-1"])
        #expect("".fields().isEmpty)
        // Not ASCII: a space followed by a combining mark is one character, not a separator.
        #expect("N: a \u{301}b c".fields() == ["N:", "a \u{301}b", "c"])
    }

    @Test func anEventsOnlyFileNeedsADescription() throws {
        let events = "E: 1330496011.108581 0003 002f 0\nE: 1330496011.108610 0000 0000 0\n"
        #expect {
            try Recording.parse(text: events, name: "x.events")
        } throws: { error in
            guard let error = error as? RecordingError, case .missingDescription = error.kind else { return false }
            return error.file == "x.events"
        }
        let description = try Recording.parse(text: Self.headerless, name: "ntrig.device").description
        let combined = try Recording.parse(text: events, name: "x.events", description: description)
        #expect(combined.description.name == "N-Trig-MultiTouch")
        #expect(combined.descriptionSource == .given)
        #expect(combined.events.count == 2)
    }

    @Test(arguments: [
        ("N: x\nE: 0.1 0003 0035\n", 2, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'"),
        ("N: x\nE: 0.1 0003 00zz 1\n", 2, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'"),
        ("N: x\n\n# fine\nA: 35 0 x 0 0\n", 4, "'A: <code hex, 00-3f> <min> <max> <fuzz> <flat> [<resolution>]' in decimal"),
        ("N: x\nA: 35 0 1 0 0 0 0\n", 2, "'A: <code hex, 00-3f> <min> <max> <fuzz> <flat> [<resolution>]' in decimal"),
        ("N: x\nI: 0003 1b96 0001\n", 2, "'I: <bus> <vendor> <product> <version>' in hex"),
        ("N: x\nB: 03 0g\n", 2, "'B: <type> <hex bytes>'"),
        ("N: x\nB: 40 00\n", 2, "'B: <type> <hex bytes>' with a type from 00 to 1f"),
        ("N: x\nN: y\n", 2, "a single 'N:' line (one device per file)"),
        ("N: x\nP:" + String(repeating: " ff", count: 9000) + "\n", 2, "at most 8 bytes of 'P:' properties"),
        ("N: x\nhello\n", 2, "an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment)"),
        ("N: x\nE: 99999999999999999.1 0003 0000 1\n", 2, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'"),
        ("N: x\nE: 1.1 0003 0000 99999999999\n", 2, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'"),
        ("# only a comment\n", 1, "at least one 'N:' or 'E:' line"),
    ])
    func badLinesAreReportedWithTheirNumber(text: String, line: Int, expected: String) {
        #expect {
            try Recording.parse(text: text, name: "bad.ev")
        } throws: { error in
            guard let error = error as? RecordingError, case .unexpected(let what, _) = error.kind else { return false }
            return error.line == line && what == expected && error.description.hasPrefix("bad.ev:\(line): expected")
        }
    }

    /// Random fragments of the formats' syntax: each text is read or refused with an error that
    /// names the file, and a line inside the text when it blames one.
    @Test func garbageIsReadOrRefusedWithItsLine() {
        var generator = SplitMix(seed: 0x5eed)
        let pieces = [
            "N:", "E:", "A:", "B:", "P:", "I:", "#", " ", "\t", "\n", "\r\n", "0003", "-", ".", "ffff", "ÿ", "\u{0}",
            "99999999999999999999", "-2147483649", "2f", "0x", "EV_ABS", "[", "]", "version:", "devices:", "- [",
        ]
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<generator.next(below: 40) {
                text += pieces[generator.next(below: pieces.count)]
            }
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            do {
                let recording = try Recording.parse(text: text, name: "garbage")
                #expect(recording.events.count <= lines, "seed 0x5eed: \(text.debugDescription)")
            } catch {
                // Typed throws: the parser can throw nothing but a RecordingError.
                #expect(error.file == "garbage")
                if let line = error.line { #expect((1...max(lines, 1)).contains(line), "seed 0x5eed: \(error) in \(text.debugDescription)") }
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func theCompanionRulePicksTheLongestStemThatPrefixesTheName() {
        let candidates: [(entry: String, stem: String)] = [
            ("SynPS2 Synaptics TouchPad.desc", "SynPS2 Synaptics TouchPad"),
            ("SynPS2 Synaptics TouchPad.lenovo-p50.desc", "SynPS2 Synaptics TouchPad.lenovo-p50"),
            ("ntrig-xt2.device", "ntrig-xt2"),
            ("n4.desc", "n4"),
            ("N-Trig MultiTouch.desc", "N-Trig MultiTouch"),
        ]
        let cases: [(String, String?)] = [
            ("SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events", "SynPS2 Synaptics TouchPad.desc"),
            ("SynPS2 Synaptics TouchPad.lenovo-p50.tap.events", "SynPS2 Synaptics TouchPad.lenovo-p50.desc"),
            ("ntrig-xt2-3-tap.event", "ntrig-xt2.device"),
            ("n4.events", "n4.desc"),
            ("n45.events", nil),
            ("N-Trig MultiTouch.2-fingers-touch-release.events", "N-Trig MultiTouch.desc"),
            ("wetab.event", nil),
        ]
        for (name, expected) in cases {
            #expect(Recording.companionName(for: name, among: candidates.map(\.entry) + [name]) == expected, "\(name)")
        }
    }
}

/// A small deterministic generator for garbage input.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
