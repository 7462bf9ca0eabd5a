import Testing
import TouchCore
import TouchEvdev

/// Seeded mutations of small recordings in every format: each mutant parses, and then decodes and
/// maps without trapping, or is refused with the line at fault. A failure prints its seed and
/// iteration, which reproduce it.
@Suite(.timeLimit(.minutes(10))) struct RecordingMutationTests {
    static let evemu = """
        # EVEMU 1.3
        N: mutant screen
        I: 0018 04f3 200a 0100
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 73 02
        A: 00 0 4095 0 0 13
        A: 01 0 2047 0 0 13
        A: 18 0 255 0 0 0
        A: 2f 0 9 0 0 0
        A: 30 0 255 0 0 0
        A: 35 0 4095 0 0 13
        A: 36 0 2047 0 0 13
        A: 39 0 65535 0 0 0
        A: 3a 0 255 0 0 0
        E: 0.000001 0003 0039 0001
        E: 0.000001 0003 0035 0100
        E: 0.000001 0003 0036 0200
        E: 0.000001 0003 003a 0050
        E: 0.000001 0001 014a 0001
        E: 0.000001 0000 0000 0000
        E: 0.010000 0003 002f 0001
        E: 0.010000 0003 0039 0002
        E: 0.010000 0003 0035 3000
        E: 0.010000 0003 0036 1500
        E: 0.010000 0000 0000 0000
        E: 0.020000 0000 0003 0000
        E: 0.030000 0003 002f 0000
        E: 0.030000 0003 0039 -001
        E: 0.030000 0000 0000 0000
        E: 0.040000 0003 002f 0001
        E: 0.040000 0003 0039 -001
        E: 0.040000 0001 014a 0000
        E: 0.040000 0000 0000 0000

        """

    static let libinputRecord = """
        # libinput record
        version: 1
        ndevices: 1
        libinput:
          version: "1.22.0"
        devices:
        - node: /dev/input/event5
          evdev:
            name: "mutant screen"
            id: [3, 1267, 8202, 0]
            codes:
              0: [0, 1, 3]
              1: [330]
              3: [0, 1, 47, 53, 54, 57]
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
            - ID_INPUT_TOUCHSCREEN=1
            - LIBINPUT_CALIBRATION_MATRIX=0 -1 1 1 0 0
          events:
          - evdev:
            - [0, 0, 3, 57, 1]
            - [0, 0, 3, 53, 100]
            - [0, 0, 3, 54, 200]
            - [0, 0, 1, 330, 1]
            - [0, 0, 0, 0, 0]
          - evdev:
            - [0, 12000, 3, 57, -1]
            - [0, 12000, 1, 330, 0]
            - [0, 12000, 0, 0, 0]

        """

    static let getevent = """
        add device 1: /dev/input/event2
          name:     "mutant tablet"
        [   213130.350752] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000001
        [   213130.350752] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000002b
        [   213130.350752] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    0000047d
        [   213130.350752] /dev/input/event2: EV_ABS       ABS_MT_PRESSURE      00000030
        [   213130.350752] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
        [   213130.350752] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   213130.360752] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
        [   213130.360752] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000002
        [   213130.360752] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000100
        [   213130.360752] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
        [   213130.370752] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
        [   213130.370752] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
        [   213130.370752] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
        [   213130.370752] /dev/input/event2: EV_KEY       BTN_TOUCH            UP
        [   213130.370752] /dev/input/event2: EV_SYN       SYN_REPORT           00000000

        """

    /// The numbers mutants try: the 32-bit and 64-bit edges, and text that looks like a number.
    static let numbers = [
        "2147483647", "-2147483648", "2147483648", "-2147483649", "4294967295", "9223372036854775807", "-1", "0", "00",
        "ffffffff", "7fffffff", "80000000", "0x2f", "999999999999.999999", "1e308", "nan", "-0", "+1", "",
    ]

    /// Lines mutants may gain: lost events, slot and axis extremes, YAML aliases and nesting.
    static let lines = [
        "E: 0.5 0000 0003 0000", "E: 0.5 0003 002f 2147483647", "E: 0.5 0003 0039 -2147483648", "A: 2f 0 255 0 0",
        "A: 35 -2147483648 2147483647 2147483647 0 0", "E: 0.5 0000 0002 0000", "N: second",
        "    - [0, 0, 0, 3, 0]", "  events: &a [*a]", "- &x [*x, *x]", "      47: [0, 2147483647, 0, 0, 0]", "[[[[[[[[",
        "[ 1.0 ] /dev/input/event2: EV_SYN SYN_DROPPED 00000000", "[ 1.0 ] EV_ABS ABS_MT_SLOT 7fffffff", "\u{0}\u{1}\u{7f}",
    ]

    @Test(arguments: [(Self.evemu, "mutant.evemu"), (Self.libinputRecord, "mutant.yml"), (Self.getevent, "mutant.txt")], [1, 2, 3] as [UInt64])
    func mutantsParseOrAreRefusedWithALine(original: (text: String, name: String), seed: UInt64) {
        var generator = SplitMix(seed: seed)
        #expect(throws: Never.self) { try Recording.parse(text: original.text, name: original.name) }
        for iteration in 0..<300 {
            let text = Self.mutate(original.text, &generator)
            check(text, name: original.name, seed: seed, iteration: iteration)
        }
    }

    /// An events-only evemu file is parsed with its companion description, each mutated in turn.
    @Test(arguments: [4, 5] as [UInt64])
    func companionDescriptionsMutateToo(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        let lines = Self.evemu.split(separator: "\n").map(String.init)
        let description = lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        let events = lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n")
        for iteration in 0..<200 {
            let mutatedDescription = iteration % 2 == 0 ? Self.mutate(description, &generator) : description
            let mutatedEvents = iteration % 2 == 1 ? Self.mutate(events, &generator) : events
            do {
                let recording = try Recording.parse(text: mutatedEvents, name: "x.events") { () throws(RecordingError) in
                    ("x.desc", mutatedDescription)
                }
                Self.decode(recording)
            } catch {
                #expect(error.line != nil || Self.wholeFile(error), "seed \(seed), iteration \(iteration): \(error)")
            }
        }
    }

    private func check(_ text: String, name: String, seed: UInt64, iteration: Int) {
        do {
            let recording = try Recording.parse(text: text, name: name)
            Self.decode(recording)
        } catch {
            #expect(error.line != nil || Self.wholeFile(error), "seed \(seed), iteration \(iteration): \(error)\n\(text)")
        }
    }

    /// Errors about a whole file rather than a line of it.
    static func wholeFile(_ error: RecordingError) -> Bool {
        switch error.kind {
        case .unrecognisedFormat, .missingDescription: true
        case .unreadable, .unexpected, .invalidYAML, .exceedsLimit: false
        }
    }

    /// Decodes and maps a recording the way a replay does; traps are the failure.
    static func decode(_ recording: Recording) {
        let classification = DeviceClassification(description: recording.description, udevProperties: recording.udevProperties)
        var assembler = FrameAssembler(description: recording.description, palmThresholds: PalmThresholds(pressure: 100, touchMajor: 100))
        var keys = KeyDecoder()
        var accelerometer = AccelerometerDecoder(description: recording.description, settings: ShakeSettings())
        let mapping = DeviceMapping(
            capabilities: classification.capabilities,
            transform: MappingTransform(calibration: (try? CalibrationMatrix.fromUdev(recording.udevProperties)) ?? .identity),
            target: MappingTarget(windowSize: Size(width: 800, height: 480), pointsPerMillimetre: 4))
        var contacts: [DeviceContact] = []
        for event in recording.events {
            contacts += assembler.feed(event)?.contacts ?? []
            _ = keys.feed(event)
            _ = accelerometer?.feed(event)
        }
        contacts += assembler.finish(at: recording.events.last?.time ?? EventTime(microseconds: 0))?.contacts ?? []
        _ = keys.finish(at: EventTime(microseconds: 0))
        for contact in contacts {
            let mapped = mapping.map(contact)
            #expect(Limits.coordinate.contains(mapped.location.x) && Limits.coordinate.contains(mapped.location.y))
        }
    }

    static func mutate(_ text: String, _ generator: inout SplitMix) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...generator.next(below: 3) {
            guard !lines.isEmpty else { break }
            let index = generator.next(below: lines.count)
            switch generator.next(below: 6) {
            case 0: lines[index] = replacingANumber(in: lines[index], &generator)
            case 1: lines.remove(at: index)
            case 2: lines.insert(contentsOf: Array(repeating: lines[index], count: 1 + generator.next(below: 3)), at: index)
            case 3: lines.swapAt(index, generator.next(below: lines.count))
            case 4: lines.insert(Self.lines[generator.next(below: Self.lines.count)], at: index)
            default: lines[index] = flippingACharacter(in: lines[index], &generator)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func replacingANumber(in line: String, _ generator: inout SplitMix) -> String {
        var fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let numeric = fields.indices.filter { fields[$0].contains(where: \.isNumber) }
        guard let pick = numeric.isEmpty ? nil : numeric[generator.next(below: numeric.count)] else { return line }
        let replacement = numbers[generator.next(below: numbers.count)]
        fields[pick] = fields[pick].hasSuffix(",") ? replacement + "," : fields[pick].hasSuffix("]") ? replacement + "]" : replacement
        return fields.joined(separator: " ")
    }

    private static func flippingACharacter(in line: String, _ generator: inout SplitMix) -> String {
        var scalars = Array(line.unicodeScalars)
        guard !scalars.isEmpty else { return line }
        let choices: [Unicode.Scalar] = ["x", "-", ":", "#", "&", "*", "[", "]", "{", "9", " ", "\t", "\r", "\u{0}", "é"]
        scalars[generator.next(below: scalars.count)] = choices[generator.next(below: choices.count)]
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
