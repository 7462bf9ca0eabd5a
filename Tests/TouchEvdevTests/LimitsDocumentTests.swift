import Foundation
import Testing
import TouchCore
import TouchEvdev

/// docs/limits.md gives the budgets of recordings, calibration files and the view tree as the code
/// has them.
@Suite(.timeLimit(.minutes(10))) struct LimitsDocumentTests {
    @Test func everyInputBudgetIsDocumentedWithItsValue() throws {
        let path = RecordingFixtures.packageRoot.appendingPathComponent("docs/limits.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rows: [(String, Int)] = [
            ("events in a recording", Limits.maximumRecordingEvents),
            ("description lines of an evemu file", Limits.maximumDescriptionLines),
            ("device name", Limits.maximumDeviceNameBytes),
            ("code mask of one event type", Limits.maximumCodeMaskBytes),
            ("property mask", Limits.maximumPropertyMaskBytes),
            ("YAML nodes of a libinput-record file", Limits.maximumYAMLNodes),
            ("YAML nesting of a libinput-record file", Limits.maximumYAMLDepth),
            ("recording file", Limits.maximumRecordingBytes),
            ("device description file", Limits.maximumDescriptionBytes),
            ("pointercal file", Limits.maximumPointercalBytes),
            ("calibration file", Limits.maximumCalibrationFileBytes),
            ("calibration targets", Limits.maximumCalibrationPoints),
            ("calibration samples", Limits.maximumCalibrationSamples),
            ("slot count", Limits.maximumSlots),
            // The tree's own bound, which views a client adds at run time meet.
            ("nesting of a view below its window", ViewTree.maximumDepth),
        ]
        let lines = text.split(separator: "\n")
        for (name, value) in rows {
            let line = lines.first { $0.hasPrefix("| \(name)") }
            #expect(line?.contains("\(value)") == true, "docs/limits.md: '\(name)' should say \(value)")
        }
        let bound = formatNumber(Limits.maximumComposedScale)
        #expect(text.contains("| composed scale | 1/\(bound) to \(bound) |"), "docs/limits.md should give the composed scale's bound")
        for domain in [Limits.eventType, Limits.eventCode, Limits.absoluteAxisCode, Limits.inputProperty] {
            let upper = "0x" + String(Int(domain.range.upperBound), radix: 16)
            #expect(text.contains(upper), "docs/limits.md should give \(upper)")
        }
    }
}
