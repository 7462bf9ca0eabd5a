import Testing
import TouchCore
import TouchEvdev
import TouchProtocol

/// `touchd measure --json`: the contacts, in seconds from the measurement's start and in
/// millimetres, and the palm thresholds' distributions with their suggestions.
@Suite(.timeLimit(.minutes(10))) struct ContactSizeReportJSONTests {
    @Test func theReportReadsAsDocumented() {
        let description = DeviceDescription(
            name: "panel", properties: [InputProperty.direct],
            codes: [EventType.abs: [AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID, AbsCode.mtTouchMajor]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 255),
            ])
        var survey = ContactSizeSurvey(capabilities: DeviceCapabilities(description: description))
        for (i, major) in [96, 104, 100].enumerated() {
            let began = EventTime(microseconds: 5_000_000 + Int64(i) * 1_000_000)
            let ended = EventTime(microseconds: began.microseconds + 50_000)
            survey.add(ContactFrame(time: began, contacts: [DeviceContact(id: UInt64(i + 1), phase: .began, x: 9, y: 9, touchMajor: 40, slot: 0)]))
            survey.add(ContactFrame(time: ended, contacts: [DeviceContact(id: UInt64(i + 1), phase: .ended, x: 9, y: 9, touchMajor: Int32(major), slot: 0)]))
        }
        survey.finish()
        let json = survey.report.json.jsonText
        #expect(
            json.hasPrefix(
                #"{"units_per_mm":16,"contacts":[{"contact":1,"began":0,"ended":0.05,"frames":2,"touch_major":96,"touch_major_mm":6,"pressure":null,"flagged_palm":false},"#),
            "\(json)")
        #expect(json.contains(#"{"contact":3,"began":2,"ended":2.05,"frames":2,"touch_major":100,"touch_major_mm":6.25,"pressure":null,"flagged_palm":false}],"#), "\(json)")
        #expect(json.contains(#""palm_touch_major":{"least":96,"median":100,"p90":104,"most":104,"contacts":3,"suggested":"#), "\(json)")
        #expect(
            json.hasSuffix(
                #""palm_pressure":{"least":null,"median":null,"p90":null,"most":null,"contacts":0,"suggested":null,"#
                    + #""reason":"no contact reported a pressure (the device has no such axis, or nothing touched it)"}}"#), "\(json)")
    }
}
