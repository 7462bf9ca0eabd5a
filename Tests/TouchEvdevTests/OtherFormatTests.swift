import Foundation
import Testing
import TouchEvdev

/// libinput-record YAML, Android getevent text, and format detection.
@Suite(.timeLimit(.minutes(10))) struct OtherFormatTests {
    static let libinputRecord = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.28.0"
        devices:
        - node: /dev/input/event5
          evdev:
            # Name: test screen
            name: "test screen"
            id: [3, 1267, 8202, 0]
            codes:
              0: [0, 1, 2, 3] # EV_SYN
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 3776, 0, 0, 13]
              1: [0, 2112, 0, 0, 13]
              47: [0, 9, 0, 0, 0]
              53: [0, 3776, 0, 0, 13]
              54: [0, 2112, 0, 0, 13]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
            - LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0
          quirks:
          - ModelSomething=1
          events:
          # Current time is 08:57:01
          - evdev:
            - [  0,      0,   3,  57,      4] # EV_ABS / ABS_MT_TRACKING_ID 4
            - [  0,      0,   3,  53,    100]
            - [  0,      0,   3,  54,    200]
            - [  0,      0,   1, 330,      1]
            - [  0,      0,   0,   0,      0] # ------------ SYN_REPORT (0) ---------- +0ms
          - libinput:
            - {type: TOUCH_DOWN, time: 0.0}
          - evdev:
            - [  0,  12000,   3,  57,     -1]
            - [  0,  12000,   1, 330,      0]
            - [  0,  12000,   0,   0,      0]
        """

    @Test func libinputRecordGivesDescriptionUdevAndEvents() throws {
        let recording = try Recording.parse(text: Self.libinputRecord, name: "screen.yml")
        #expect(recording.format == .libinputRecord)
        let device = recording.description
        #expect(device.name == "test screen")
        #expect([device.bus, device.vendor, device.product, device.version] == [3, 1267, 8202, 0])
        #expect(device.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 3776, resolution: 13))
        #expect(device.properties == [InputProperty.direct])
        #expect(recording.udevProperties["ID_INPUT_TOUCHSCREEN"] == "1")
        #expect(recording.udevProperties["LIBINPUT_CALIBRATION_MATRIX"] == "0 -1 1 1 0 0")
        #expect(recording.events.count == 8)
        #expect(recording.events[5] == InputEvent(time: EventTime(microseconds: 12_000), type: 3, code: 57, value: -1))

        var assembler = FrameAssembler(description: device)
        let frames = assembler.feed(recording.events)
        #expect(frames.map(\.phases) == [[.began], [.ended]])
    }

    @Test(arguments: [
        ("version: 2\ndevices: []\n", 1, "version 1"),
        ("version: 1\ndevices: []\n", 2, "at least one device"),
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3]\n", 7,
            "'[sec, usec, type, code, value]' as 5 integers in range"),
        ("version: 1\ndevices:\n- evdev:\n    absinfo:\n      0: [0, 10]\n", 5,
            "'[min, max, fuzz, flat, resolution]' as 5 integers"),
        ("version: 1\ndevices:\n- evdev:\n    name: [1, 2]\n", 4, "'name:' with the device's name as text"),
    ])
    func libinputRecordErrorsNameTheLine(text: String, line: Int, expected: String) {
        #expect {
            try Recording.parse(text: text, name: "bad.yml")
        } throws: { error in
            guard let error = error as? RecordingError, case .unexpected(let what, _) = error.kind else { return false }
            return error.line == line && what == expected
        }
    }

    @Test(arguments: [
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3, 53, 340.5]\n", "item 5, '340.5'"),
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3, 70000, 1]\n", "item 4, '70000'"),
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3, 53, 99999999999999999999]\n",
            "item 5, '99999999999999999999'"),
        ("version: 1\ndevices:\n- evdev:\n    name: x\n  events:\n  - evdev:\n    - [0, 0, 3]\n", "3 items"),
        ("version: 1\ndevices:\n- evdev:\n    absinfo:\n      0: [0, x, 0, 0, 0]\n", "item 2, 'x'"),
        ("version: 1\ndevices:\n- evdev:\n    id: [3, 1, 2, -4]\n", "item 4, '-4'"),
    ])
    func libinputRecordErrorsNameWhatWasFound(text: String, found: String) {
        #expect {
            try Recording.parse(text: text, name: "bad.yml")
        } throws: { error in
            guard let error = error as? RecordingError, case .unexpected(_, let what) = error.kind else { return false }
            return what == found
        }
    }

    @Test func ofSeveralDevicesTheOneWithTheMostAxisEventsIsRead() throws {
        // `libinput record --multiple`: a keyboard recorded first, then the touchscreen.
        let keyboard = """
            version: 1
            ndevices: 2
            devices:
            - node: /dev/input/event3
              evdev:
                name: "kbd"
                codes:
                  0: [0]
                  1: [30]
              events:
              - evdev:
                - [  0,      0,   1,  30,      1]
                - [  0,      0,   0,   0,      0]
                - [  0,   5000,   1,  30,      0]
                - [  0,   5000,   0,   0,      0]
                - [  0,   6000,   1,  30,      1]
                - [  0,   6000,   0,   0,      0]
                - [  0,   7000,   1,  30,      0]
                - [  0,   7000,   0,   0,      0]
                - [  0,   8000,   1,  30,      1]
                - [  0,   8000,   0,   0,      0]
            """
        let screen = Self.libinputRecord.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("- node:") }.joined(separator: "\n")
        let recording = try Recording.parse(text: keyboard + "\n" + screen, name: "two.yml")
        #expect(recording.description.name == "test screen")
        #expect(recording.events.count == 8)
        var assembler = FrameAssembler(description: recording.description)
        #expect(assembler.feed(recording.events).map(\.phases) == [[.began], [.ended]])

        // With no axis events anywhere, the first device is read, as with one.
        let quiet = try Recording.parse(text: keyboard, name: "kbd.yml")
        #expect(quiet.description.name == "kbd")
    }

    @Test func invalidYAMLIsReportedWithItsLine() {
        #expect {
            try Recording.parse(text: "version: 1\ndevices: [\n  - {a: \n", name: "broken.yml")
        } throws: { error in
            guard let error = error as? RecordingError, case .invalidYAML = error.kind else { return false }
            return error.line != nil
        }
    }

    /// The YAML reader counts lines its own way: one more at the end of a text without a final
    /// newline, and one at a lone `\r` or a Unicode line separator. Errors name the text's lines
    /// (counted at `\n`, as in every other error), never one past the last.
    @Test(arguments: [
        ("version: 1\ndevices:\n# libinput record\nversit", 4),
        ("# librd\rversio# lni:", 1),
        ("version: 1\r\ndevices:\r\n- evdev:\r\n    name: [1, 2]\r\n", 4),
        ("version: 1\rdevices:\r- evdev:\n    name: [1, 2]\n", 2),
        ("version: 1\ndevices:\u{2028}- evdev:\n    name: [1, 2]\n", 3),
    ] as [(String, Int)])
    func yamlErrorsNameTheTextsLines(text: String, line: Int) {
        #expect {
            try Recording.parse(text: text, name: "odd.yml", format: .libinputRecord)
        } throws: { error in
            (error as? RecordingError)?.line == line
        }
    }

    @Test func geteventTraceDerivesADescription() throws {
        let text = """
            [  213130.350752] EV_ABS       ABS_MT_TRACKING_ID   00000000            \r
            [  213130.350892] EV_ABS       ABS_MT_TOUCH_MAJOR   00000020            \r
            [  213130.350953] EV_ABS       ABS_MT_POSITION_X    0000002b            \r
            [  213130.350982] EV_ABS       ABS_MT_POSITION_Y    000001b8            \r
            [  213130.351011] EV_SYN       SYN_MT_REPORT        00000000            \r
            [  213130.351197] EV_SYN       SYN_REPORT           00000000            \r
            [  213130.360000] EV_KEY       BTN_TOUCH            DOWN                \r
            [  213130.360001] EV_ABS       ABS_MT_TRACKING_ID   ffffffff            \r
            [  213130.360002] EV_SYN       SYN_REPORT           00000000            \r

            """
        let recording = try Recording.parse(text: text, name: "trace.txt")
        #expect(recording.format == .getevent)
        #expect(recording.descriptionSource == .derivedFromEvents)
        #expect(recording.events.count == 9)
        #expect(recording.events[0].time == EventTime(seconds: 213_130, microseconds: 350_752))
        #expect(recording.events[6] == InputEvent(time: EventTime(seconds: 213_130, microseconds: 360_000), type: 1, code: 330, value: 1))
        #expect(recording.events[7].value == -1)
        let device = recording.description
        #expect(device.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 0x2b))
        #expect(device.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 0x1b8))
        #expect(device.properties == [InputProperty.direct])
        #expect(DeviceCapabilities(description: device).multitouch == .anonymous)
    }

    @Test func geteventWithDevicePrefixesKeepsTheTouchDevice() throws {
        let text = """
            add device 1: /dev/input/event1
              name:     "gpio-keys"
            add device 2: /dev/input/event2
              name:     "touch panel"
            could not get driver version for /dev/input/mice, Not a typewriter
            [    1.000000] /dev/input/event1: EV_KEY KEY_POWER DOWN
            [    1.000001] /dev/input/event1: EV_SYN SYN_REPORT 00000000
            [    1.100000] /dev/input/event2: 0003 0035 00000010
            [    1.100000] /dev/input/event2: 0003 0036 00000020
            [    1.100000] /dev/input/event2: 0000 0002 00000000
            [    1.100000] /dev/input/event2: 0000 0000 00000000
            """
        let recording = try Recording.parse(text: text, name: "multi.txt")
        #expect(recording.description.name == "touch panel")
        #expect(recording.events.count == 4)
    }

    @Test func geteventErrorsNameTheLine() {
        #expect {
            try Recording.parse(text: "[ 1.0 ] EV_ABS ABS_X 0001\n[ 1.1 ] EV_ABS ABS_NOPE\n", name: "t.txt")
        } throws: { error in
            (error as? RecordingError)?.line == 2
        }
    }

    @Test func unknownTextIsRejected() {
        #expect(throws: RecordingError(file: "x", line: nil, kind: .unrecognisedFormat)) {
            try Recording.parse(text: "hello world\n", name: "x")
        }
        #expect(throws: RecordingError(file: "x", line: nil, kind: .unrecognisedFormat)) {
            try Recording.parse(text: "", name: "x")
        }
    }
}
