import TouchCore

/// The domain checks every recording format shares (``TouchCore/Limits``), so that an evemu, a
/// libinput-record and a getevent file are held to the same rules.
enum RecordingDomains {
    /// Refuses an event whose type or code no kernel sends.
    static func checkEvent(type: UInt16, code: UInt16, file: String, line: Int?, text: String) throws(RecordingError) {
        guard Limits.eventType.contains(type) else {
            throw RecordingError(file: file, line: line, kind: .unexpected(expected: "an event type from 0x00 to 0x1f (EV_MAX)", found: text))
        }
        guard Limits.eventCode.contains(code) else {
            throw RecordingError(file: file, line: line, kind: .unexpected(expected: "an event code from 0x000 to 0x2ff (KEY_MAX)", found: text))
        }
        // Axes are indexed by code wherever they are read: an EV_ABS code past ABS_MAX (which no
        // kernel sends) would otherwise become an axis of the description derived from the events.
        guard type != EventType.abs || Limits.absoluteAxisCode.contains(code) else {
            throw RecordingError(file: file, line: line, kind: .unexpected(expected: "an EV_ABS code from 0x00 to 0x3f (ABS_MAX)", found: text))
        }
    }

    /// Refuses text larger than a recording may be.
    static func checkSize(_ text: String, file: String, limit: Int = Limits.maximumRecordingBytes) throws(RecordingError) {
        guard text.utf8.count <= limit else {
            throw RecordingError(file: file, kind: .exceedsLimit(what: "bytes", limit: limit))
        }
    }
}
