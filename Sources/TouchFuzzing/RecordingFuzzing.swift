import TouchCore
import TouchEvdev

/// A recording in one format (evemu, libinput-record YAML, Android getevent), decoded from bytes
/// as the daemon reads a recording file (bytes that are not UTF-8 become U+FFFD) and parsed with
/// that format's parser.
///
/// Checked: a refusal names a line of the text (when it names one) and says what was wrong; a
/// parsed recording keeps its domains (event types and codes, axis codes, properties, the name's
/// and the events' budgets); written as evemu it parses back the same (``EvemuText``); and its
/// events replayed through a frame assembler for its device give contacts that live as they must
/// and are all ended or cancelled at the end (``FrameFuzzing``).
public enum RecordingFuzzing {
    public static func run(_ bytes: [UInt8], format: RecordingFormat) throws(FuzzViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let recording: Recording
        do throws(RecordingError) {
            recording = try Recording.parse(text: text, name: "fuzz", format: format)
        } catch {
            try checkRefusal(error, of: text)
            return
        }
        try checkDomains(recording)
        try checkRoundTrip(recording)
        try FrameFuzzing.replay(recording)
    }

    private static func checkRefusal(_ error: RecordingError, of text: String) throws(FuzzViolation) {
        let lineCount = text.utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        if let line = error.line {
            try require((1...lineCount).contains(line), "the error names line \(line) of \(lineCount): \(error)")
        }
        try require(!error.description.isEmpty && error.file == "fuzz", "the error does not say where or what: \(error)")
    }

    private static func checkDomains(_ recording: Recording) throws(FuzzViolation) {
        try require(recording.events.count <= Limits.maximumRecordingEvents, "\(recording.events.count) events")
        for event in recording.events {
            try require(
                Limits.eventType.contains(event.type) && Limits.eventCode.contains(event.code),
                "an event of type \(event.type), code \(event.code) outside their domains")
        }
        let d = recording.description
        try require(d.name.utf8.count <= Limits.maximumDeviceNameBytes, "a device name of \(d.name.utf8.count) bytes")
        try require(d.properties.allSatisfy { Limits.inputProperty.contains($0) }, "properties \(d.properties.sorted())")
        try require(d.absInfo.keys.allSatisfy { Limits.absoluteAxisCode.contains($0) }, "axes \(d.absInfo.keys.sorted())")
        for (type, codes) in d.codes {
            try require(Limits.eventType.contains(type) && codes.allSatisfy { Limits.eventCode.contains($0) }, "codes of type \(type)")
        }
    }

    /// Written as evemu, the recording parses back to the same device and events.
    private static func checkRoundTrip(_ recording: Recording) throws(FuzzViolation) {
        for event in recording.events {
            try require(
                (0...999_999_999_999_999_999).contains(event.time.microseconds), "an event at \(event.time.microseconds) µs, before 0")
        }
        let text = EvemuText.write(recording)
        let again: Recording
        do throws(RecordingError) {
            again = try Recording.parse(text: text, name: "fuzz.evemu", format: .evemu)
        } catch {
            throw FuzzViolation("the recording written as evemu does not parse: \(error)\n\(text.prefix(2000))")
        }
        try require(again.events == recording.events, "the events differ once written as evemu")
        var original = normalised(recording.description)
        let reread = normalised(again.description)
        if !EvemuText.canWrite(name: original.name) { original.name = reread.name }
        try require(original == reread, "the device differs once written as evemu: \(original) became \(reread)")
    }

    /// A description as evemu says it: an axis is a code of `EV_ABS`, and a type with no codes is
    /// not listed.
    private static func normalised(_ description: DeviceDescription) -> DeviceDescription {
        var d = description
        if !d.absInfo.isEmpty { d.codes[EventType.abs, default: []].formUnion(d.absInfo.keys) }
        d.codes = d.codes.filter { !$0.value.isEmpty }
        return d
    }
}
