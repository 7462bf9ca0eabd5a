import Testing
import TouchCore
@testable import TouchEvdev

/// `touchd measure`'s findings: each contact's largest size and pressure, in physical units, and
/// the palm thresholds they suggest with the reason.
@Suite(.timeLimit(.minutes(10))) struct ContactSizeSurveyTests {
    /// A touchscreen at 16 units/mm whose contacts press `pressures` with sizes `majors`, one after another.
    static func survey(majors: [Int32], pressures: [Int32]) -> ContactSizeSurvey {
        var device = TestDevices.slotted(pressure: true, touchMajor: true)
        device.absInfo[AbsCode.mtPositionX]?.resolution = 16
        device.absInfo[AbsCode.mtPositionY]?.resolution = 16
        var assembler = FrameAssembler(description: device)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        var script = EventScript()
        for (i, (major, pressure)) in zip(majors, pressures).enumerated() {
            script.down(slot: 0, id: Int32(i + 1), x: 100, y: 100)
            script.abs(AbsCode.mtTouchMajor, major / 2)
            script.abs(AbsCode.mtPressure, pressure / 2)
            script.syn()
            script.abs(AbsCode.mtTouchMajor, major)
            script.abs(AbsCode.mtPressure, pressure)
            script.syn()
            script.up(slot: 0)
            script.syn()
        }
        for event in script.events { if let frame = assembler.feed(event) { survey.add(frame) } }
        survey.finish()
        return survey
    }

    /// A recording's epoch-sized timestamps: each contact's times count from the measurement's
    /// start (the recording's first event), in the text as in the JSON.
    @Test func timesCountFromTheMeasurementsStart() {
        let device = TestDevices.slotted(pressure: true, touchMajor: true)
        var assembler = FrameAssembler(description: device)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        var script = EventScript()
        script.down(slot: 0, id: 1, x: 100, y: 100)
        script.syn()
        script.up(slot: 0)
        script.syn()
        let recordedAt: Int64 = 1_330_495_944_185_000
        let shift = recordedAt + 2_500_000 - script.events[0].time.microseconds
        let events = script.events.map { InputEvent(time: EventTime(microseconds: $0.time.microseconds + shift), type: $0.type, code: $0.code, value: $0.value) }
        survey.begin(at: EventTime(microseconds: recordedAt))
        for event in events { if let frame = assembler.feed(event) { survey.add(frame) } }
        survey.finish()
        let report = survey.report
        #expect(report.contacts.count == 1)
        #expect(report.contacts.first.map { report.secondsFromStart($0.began) } == 2.5)
        #expect(report.lines.dropFirst().first?.hasPrefix("      1        2.5  ") == true, "\(report.lines)")
    }

    /// A recording whose clock jumps back (a device reset, files joined): the survey's clock never
    /// runs backwards, so no contact begins before the start or ends before it began; a frame
    /// earlier than the one before is taken at that one's time, the frames after it keep their
    /// spacing.
    @Test func timesStayInOrderWhenTheRecordingsTimeGoesBackwards() {
        let device = TestDevices.slotted(pressure: true, touchMajor: true)
        var assembler = FrameAssembler(description: device)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        var script = EventScript()
        for id in Int32(1)...2 {
            script.down(slot: 0, id: id, x: 100, y: 100)
            script.syn()
            script.up(slot: 0)
            script.syn()
        }
        // Contact 1 at 10 s to 10.05 s; contact 2 at 4 s to 4.03 s, after it in the file.
        let times: [Int64] = [10_000_000, 10_050_000, 4_000_000, 4_030_000]
        var frame = 0
        let events = script.events.map { event in
            let moved = InputEvent(time: EventTime(microseconds: times[min(frame, times.count - 1)]), type: event.type, code: event.code, value: event.value)
            if event.type == EventType.syn { frame += 1 }
            return moved
        }
        survey.begin(at: events[0].time)
        for event in events { if let frame = assembler.feed(event) { survey.add(frame) } }
        survey.finish()
        let report = survey.report
        #expect(report.contacts.map { report.secondsFromStart($0.began) } == [0, 0.05])
        #expect(report.contacts.map { report.secondsFromStart($0.last) } == [0.05, 0.08])
        #expect(report.lines.dropFirst().prefix(2).allSatisfy { !$0.contains("-") }, "\(report.lines)")
    }

    @Test func eachContactKeepsItsLargestSizeAndPressure() {
        let survey = Self.survey(majors: [96, 100, 112], pressures: [40, 60, 50])
        #expect(survey.contacts.map(\.largestTouchMajor) == [96, 100, 112])
        #expect(survey.contacts.map(\.largestPressure) == [40, 60, 50])
        #expect(survey.contacts.map(\.frames) == [3, 3, 3])
        #expect(survey.unitsPerMillimetre == 16)
        let report = survey.report
        #expect(report.touchMajor.format(96) == "96 (6 mm)")
        #expect(report.pressure.format(51) == "51 (20 % of the range)")
        #expect(report.touchMajor.percentile(0.5) == 100)
    }

    @Test func fingersAndPalmsWithAGapSuggestAThresholdInTheGap() {
        let survey = Self.survey(majors: [90, 96, 100, 104, 250, 300], pressures: [40, 45, 50, 48, 200, 230])
        let (size, sizeReason) = survey.report.touchMajor.suggestion
        #expect(size == 177)
        #expect(sizeReason.hasPrefix("4 contacts reached at most 104 (6.5 mm) and 2 reached 250 (15.63 mm) or more"))
        let (pressure, _) = survey.report.pressure.suggestion
        #expect(pressure == 125)
        #expect(survey.report.lines.contains { $0.hasPrefix("suggested palm_touch_major = 177: ") })
        #expect(survey.report.lines.contains("touch major over 6 contacts: least 90 (5.63 mm), median 104 (6.5 mm), 90 % 300 (18.75 mm), most 300 (18.75 mm)"))
    }

    @Test func contactsThatLookAlikeAreTakenForFingers() {
        let survey = Self.survey(majors: [90, 96, 100], pressures: [40, 45, 200])
        let (size, reason) = survey.report.touchMajor.suggestion
        #expect(size == 150)
        #expect(reason.contains("taken to be fingers"))
        // 1.5 × 200 is past the pressure axis's 255: no threshold can tell palms apart.
        let pressure = PalmThresholdSuggestion.suggest([40, 45, 200], axisMaximum: 255, name: "pressure", format: { "\($0)" })
        #expect(pressure.value == 122)  // in the gap from 45 to 200
        let flat = PalmThresholdSuggestion.suggest([180, 190, 200], axisMaximum: 255, name: "pressure", format: { "\($0)" })
        #expect(flat.value == nil && flat.reason.contains("cannot tell palms apart"))
    }

    @Test func neighboursOnTheDevicesScaleAreNoGap() {
        // Sizes reported in steps of 40 (a Wacom panel's fingers): 80 to 120 is 1.5× but no gap.
        let stepped = PalmThresholdSuggestion.suggest([80, 80, 80] + Array(repeating: 120, count: 60) + [160, 160], axisMaximum: 2000, name: "touch major", format: { "\($0)" })
        #expect(stepped.value == 240)
        #expect(stepped.reason.contains("taken to be fingers"))
        #expect(PalmThresholdSuggestion.scaleStep(of: [80, 80, 120, 160]) == 40)
        // A gap that skips values the device could have reported still splits fingers from palms.
        let palms = PalmThresholdSuggestion.suggest([80, 120, 120, 160, 400, 440], axisMaximum: 2000, name: "touch major", format: { "\($0)" })
        #expect(palms.value == 280)
        // Two distinct values show no step: their gap counts.
        #expect(PalmThresholdSuggestion.scaleStep(of: [100, 100, 300]) == 0)
        #expect(PalmThresholdSuggestion.suggest([100, 100, 300], axisMaximum: 2000, name: "touch major", format: { "\($0)" }).value == 200)
    }

    @Test func aScaleThatDoesNotStartAtZeroIsMeasuredFromItsMinimum() {
        // Pressure from 1000 to 2000: fingers press 30 % of the range, palms 90 %, three times as
        // far from the minimum; the raw values (1350, 1900) are only 1.4× apart.
        let offset = PalmThresholdSuggestion.suggest(
            [1300, 1320, 1350, 1900, 1950], axisMinimum: 1000, axisMaximum: 2000, name: "pressure", format: { "\($0)" })
        #expect(offset.value == 1625)
        #expect(offset.reason.contains("from the axis's minimum 1000"))
        // Fingers alike: 1.5× the largest distance from the minimum, still inside the axis.
        let fingers = PalmThresholdSuggestion.suggest(
            [1300, 1320, 1350], axisMinimum: 1000, axisMaximum: 2000, name: "pressure", format: { "\($0)" })
        #expect(fingers.value == 1525)

        // From -100 to 100: fingers near -90, palms near -20. No threshold from 0 (the layout's
        // domain) keeps those palms above it: none is suggested, rather than 0.
        let negative = PalmThresholdSuggestion.suggest(
            [-90, -88, -85, -20, -15], axisMinimum: -100, axisMaximum: 100, name: "pressure", format: { "\($0)" })
        #expect(negative.value == nil)
        #expect(negative.reason.contains("below 0"))
        // Palms above 0: the threshold is brought up to 0, which still parts them from the fingers.
        let parted = PalmThresholdSuggestion.suggest(
            [-90, -88, -85, 20, 25], axisMinimum: -100, axisMaximum: 100, name: "pressure", format: { "\($0)" })
        #expect(parted.value == 0)
    }

    @Test func palmsTheDeviceFlagsAreMeasuredToo() {
        // Two fingertips, then the flat of a hand that the device flags MT_TOOL_PALM from the start.
        var device = TestDevices.slotted(toolType: true, touchMajor: true)
        device.absInfo[AbsCode.mtPositionX]?.resolution = 10
        device.absInfo[AbsCode.mtPositionY]?.resolution = 10
        var assembler = ContactSizeSurvey.assembler(for: device)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        var script = EventScript()
        for (i, major) in [Int32(80), 90].enumerated() {
            script.down(slot: 0, id: Int32(i + 1), x: 100, y: 100)
            script.abs(AbsCode.mtTouchMajor, major)
            script.syn()
            script.up(slot: 0)
            script.syn()
        }
        script.down(slot: 0, id: 3, x: 100, y: 100)
        script.abs(AbsCode.mtTouchMajor, 400)
        script.abs(AbsCode.mtToolType, MTToolType.palm)
        script.syn()
        script.abs(AbsCode.mtTouchMajor, 450)
        script.syn()
        script.up(slot: 0)
        script.syn()
        for event in script.events { if let frame = assembler.feed(event) { survey.add(frame) } }
        survey.finish()
        #expect(survey.contacts.map(\.largestTouchMajor) == [80, 90, 450])
        #expect(survey.contacts.map(\.flaggedPalm) == [false, false, true])
        #expect(survey.report.lines.contains("1 contact was flagged a palm by the device (MT_TOOL_PALM): touchd cancels those whatever the thresholds"))
    }

    @Test func tooFewContactsSuggestNothing() {
        let survey = Self.survey(majors: [90, 300], pressures: [40, 200])
        #expect(survey.report.touchMajor.suggestion.value == nil)
        #expect(survey.report.touchMajor.suggestion.reason.hasPrefix("only 2 contacts"))
        let none = PalmThresholdSuggestion.suggest([], axisMaximum: nil, name: "pressure", format: { "\($0)" })
        #expect(none.value == nil && none.reason.hasPrefix("no contact reported a pressure"))
    }
}
