import Foundation
import Testing
import TouchCore
import TouchEvdev

/// In CI the recordings must be there: a missing ../shared is a failure, not a silent skip.
@Test(.enabled(if: RecordingFixtures.isCI, "CI is not set: the recordings may be absent outside CI"))
func recordingsArePresentInCI() {
    #expect(
        RecordingFixtures.isAvailable,
        "CI is set but the shared recordings are missing at \(RecordingFixtures.directory.path)")
}

/// Every real recording in ../shared/recordings, row by row of INDEX.tsv.
@Suite(.enabled(
    if: RecordingFixtures.isAvailable,
    "../shared/recordings is absent beside the package: the recording tests were skipped (with CI set this fails)"),
    .timeLimit(.minutes(10)))
struct RecordingTests {
    @Test(arguments: RecordingFixtures.rows)
    func parsesAndDescribesTheDeviceAsTheIndexSays(row: IndexRow) throws {
        let recording = try RecordingFixtures.load(path: RecordingFixtures.path(row))
        #expect(recording.events.count == row.integer("n_events"))
        let classification = DeviceClassification(description: recording.description, udevProperties: recording.udevProperties)
        let capabilities = classification.capabilities

        let indexKind = try #require(row["device_kind"])
        // The index calls the keyboard "other (keyboard)": touchd's kind for it is keys.
        let kind = indexKind == "other (keyboard)" ? "keys" : indexKind.split(separator: " ").first.map(String.init)
        #expect(classification.kind.rawValue == kind)

        switch row["mt_protocol"]?.first {
        case "B": #expect(capabilities.multitouch == .slotted(slotCount: row.integer("slots") ?? -1))
        case "A": #expect(capabilities.multitouch == .anonymous)
        case "n": #expect(capabilities.multitouch == .singleTouch)  // "none (single-touch)", "n/a"
        default: break  // "unknown"
        }
        if let x = row.range("x_range"), let y = row.range("y_range"), recording.descriptionSource != .derivedFromEvents {
            let xAxis = try #require(capabilities.xAxis)
            let yAxis = try #require(capabilities.yAxis)
            #expect(xAxis.minimum == x.min && xAxis.maximum == x.max)
            #expect(yAxis.minimum == y.min && yAxis.maximum == y.max)
            if let resolution = x.resolution { #expect(xAxis.resolution == resolution) }
            if let resolution = y.resolution { #expect(yAxis.resolution == resolution) }
        }
        switch row["format"] {
        case let format? where format.contains("events only"):
            guard case .companion(let path) = recording.descriptionSource else {
                Issue.record("an events-only file should take its companion description")
                return
            }
            #expect(path.hasSuffix("/" + (row["companion_desc"] ?? "?")))
        case "libinput-record": #expect(recording.format == .libinputRecord)
        case let format? where format.hasPrefix("other"): #expect(recording.format == .getevent)
        default: #expect(recording.format == .evemu)
        }
    }

    @Test(arguments: RecordingFixtures.rowsWithEvents)
    func everyContactBeginsAndFinishesOnceAndTheCountsMatchTheIndex(row: IndexRow) throws {
        let replay = try Replay(path: RecordingFixtures.path(row))
        #expect(replay.lifecycleProblems() == [])

        let touchDowns = row["touch_downs"] ?? ""
        let presses = row["btn_touch_presses"] ?? ""
        if let expected = Int(touchDowns) {
            #expect(replay.begins == expected, "new tracking ids")
        } else if let expected = Int(touchDowns.prefix { $0.isNumber }), touchDowns.hasSuffix("tracking IDs") {
            #expect(replay.begins == expected, "protocol A with tracking ids")
        } else if let count = presses.split(separator: "x").last.flatMap({ Int($0.prefix { $0.isNumber }) }),
            presses.contains("BTN_LEFT")
        {
            #expect(replay.begins == count, "one contact per BTN_LEFT press")
        } else if let expected = Int(presses), replay.kind == .touchscreen {
            // Protocol A or single-touch screens: one run of contacts per BTN_TOUCH press.
            #expect(replay.sequences == expected)
        } else if let pressesCount = Int(presses) {
            // bcm5974 drops BTN_TOUCH on light pressure while its fingers stay reported.
            #expect(replay.sequences <= pressesCount)
        }
        if let expected = row.integer("max_simultaneous_contacts") {
            #expect(replay.maximumLive == expected)
            #expect(replay.begins >= expected)
        } else {
            #expect(replay.begins == 0, "a device without touches")
        }

        let expectedAnomalies: [DeviceAnomaly.Kind]
        switch row.path {
        case "evemu-devices/eGalax Inc. USB TouchController.events":
            // Its coordinates arrive on ABS_Z/ABS_RX; ABS_X/ABS_Y keep the description's 0, below 42.
            expectedAnomalies = [.beganOutsideAxisRange(x: 0, y: 0), .beganOutsideAxisRange(x: 0, y: 0)]
        default:
            expectedAnomalies = []
        }
        #expect(replay.anomalies.map(\.kind) == expectedAnomalies)
    }

    @Test(arguments: RecordingFixtures.rowsWithEvents)
    func inRangeContactsLandInsideTheWindow(row: IndexRow) throws {
        let replay = try Replay(path: RecordingFixtures.path(row))
        var transform = MappingTransform.identity
        transform.clampsToRegion = false
        let mapping = DeviceMapping(
            capabilities: replay.capabilities, transform: transform,
            target: MappingTarget(windowSize: Size(width: 1000, height: 1000), pointsPerMillimetre: 4))
        let xAxis = mapping.axes.x
        let yAxis = mapping.axes.y
        var checked = 0
        for frame in replay.frames {
            for contact in frame.contacts {
                let mapped = mapping.map(contact)
                #expect(mapped.majorRadius >= 0 && mapped.majorRadius.isFinite)
                #expect(mapped.majorRadiusTolerance >= 0 && mapped.majorRadiusTolerance.isFinite)
                #expect(mapped.force >= 0 && mapped.force <= mapped.maximumPossibleForce)
                guard (xAxis.minimum...xAxis.maximum).contains(contact.x),
                    (yAxis.minimum...yAxis.maximum).contains(contact.y)
                else { continue }
                checked += 1
                #expect((0...1000).contains(mapped.location.x) && (0...1000).contains(mapped.location.y), "\(contact)")
            }
        }
        if replay.begins > 0 && row.path != "evemu-devices/eGalax Inc. USB TouchController.events" {
            #expect(checked > 0)
        }
        if replay.capabilities.hasPressure && replay.begins > 0 {
            #expect(abs(mapping.force(pressure: 0).maximum - 1 / 0.15) < 1e-9)
        }
    }

    @Test func theLGScreenPinchesAndSpreadsWithStableIdentities() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("hid-devices/lg_1fd2_0064_0.ev").path)
        // The distance between the two fingers of each two-finger touch, frame by frame.
        var distances: [[UInt64]: [Double]] = [:]
        for frame in replay.frames {
            let live = frame.liveContacts
            guard live.count == 2 else { continue }
            let dx = Double(live[0].x) - Double(live[1].x)
            let dy = Double(live[0].y) - Double(live[1].y)
            distances[live.map(\.id), default: []].append((dx * dx + dy * dy).squareRoot())
        }
        let pinch = distances.values.first { ($0.first ?? 0) > 1800 && ($0.min() ?? .infinity) < 300 }
        let spread = distances.values.first { ($0.first ?? .infinity) < 600 && ($0.max() ?? 0) > 950 }
        #expect(pinch != nil, "a pinch-in from about 1906 to 225 units: \(distances.mapValues { [$0.first!, $0.last!] })")
        #expect(spread != nil, "a spread from about 480 to 1024 units")
        #expect((pinch?.count ?? 0) > 20, "the pinch is one pair of contacts over many frames")
    }

    @Test func theFaultyAdvancedSiliconScreenChurnsWithoutLosingTrack() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("hid-devices/advanced-silicon_2149_231c_0.ev").path)
        #expect(replay.begins == 947)
        #expect(replay.lifecycleProblems() == [])
        #expect(replay.maximumLive == 10)
        // Bursts of up to ten contacts begin together and end a frame or two later, again and again.
        var framesPerContact: [UInt64: Int] = [:]
        for frame in replay.frames {
            for contact in frame.contacts { framesPerContact[contact.id, default: 0] += 1 }
        }
        #expect(framesPerContact.values.allSatisfy { $0 <= 3 })
        let bursts = replay.frames.filter { frame in frame.contacts.filter { $0.phase == .began }.count >= 4 }
        #expect(bursts.count >= 100)
        #expect(replay.anomalies.isEmpty, "the device sends -1 before each new id, as the protocol asks")
    }

    @Test func aSemiMTTouchpadReportsTwoContactsForItsBoundingBox() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("evemu-devices/AlpsPS2 ALPS GlidePoint.2-finger-tap.events").path)
        #expect(replay.capabilities.isSemiMT)
        #expect(replay.kind == .touchpad)
        #expect(replay.maximumLive == 2)
        #expect(replay.capabilities.pressureCode == AbsCode.pressure, "pressure is device-wide, shared by both corners")
    }

    @Test func theKeyboardSpecimenParsesAndYieldsNoTouches() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("ibus/libinput-test.yml").path)
        #expect(replay.recording.description.name == "AT Translated Set 2 keyboard")
        #expect(replay.recording.udevProperties["ID_INPUT_KEYBOARD"] == "1")
        #expect(replay.kind == .keys, "a keyboard")
        #expect(replay.frames.isEmpty)
    }

    @Test func theGeteventTraceIsATwoFingerDrag() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("MonkeyHelper/tablet-two-finger-drag.txt").path)
        #expect(replay.recording.descriptionSource == .derivedFromEvents)
        #expect(replay.begins == 2)
        let moves = replay.frames.flatMap(\.contacts).filter { $0.phase == .moved }
        #expect(moves.count > 100)
        #expect(Set(moves.map(\.id)) == [1, 2])
        #expect(replay.frames.flatMap(\.contacts).allSatisfy { $0.pressure != nil && $0.touchMajor != nil })
    }

    @Test func aPureMultitouchDeviceWithoutAbsXOrBtnTouchWorks() throws {
        let replay = try Replay(path: RecordingFixtures.directory.appendingPathComponent("xorg-integration-tests/n4.events").path)
        #expect(replay.recording.description.absInfo[AbsCode.x] == nil)
        #expect(!replay.recording.description.has(type: EventType.key, code: KeyCode.btnTouch))
        #expect(replay.begins == 12)
        #expect(replay.frames.flatMap(\.contacts).allSatisfy { $0.pressure != nil && $0.touchMajor != nil })
    }
}
