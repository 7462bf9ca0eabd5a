import TouchCore

/// Reads evemu text: every variant found in real recordings.
///
/// - `# EVEMU 1.1`…`1.3` headers, no header at all (2011 files), `# From <url>` comments,
///   `####` separators, `Kernel:`/`DMI:`/`Size in mm:` comments.
/// - `N: <name>` (the rest of the line, control characters and all), `I: bus vendor product version`
///   (hex), `P:` and `B: <type>` bitmask lines (hex bytes, 8 a line, continued on following lines),
///   `A: <code> <min> <max> <fuzz> <flat> [<resolution>]` (4 or 5 values).
/// - `E: <seconds>.<micros> <type> <code> <value>` with type and code in hex, the value in decimal
///   (zero-padded or not, `-001`), optionally followed by a `#` comment; seconds relative, epoch or
///   uptime.
/// - The header comments' `Value` lines give each axis's value at recording time
///   (``AbsInfo/value``), which `A:` lines lack: the initial `ABS_MT_SLOT` comes from there.
///
/// A file may hold a description only (`.desc`, `.device`), events only (`.events`), or both.
/// Every number and size is checked against its domain in ``TouchCore/Limits`` as the line is
/// read, before anything is kept: an error names the line and what was expected there.
struct EvemuParser {
    struct Result {
        var description: DeviceDescription?
        var events: [InputEvent]
    }

    let name: String

    func parse(_ text: String) throws(RecordingError) -> Result {
        var reader = EvemuReader(name: name)
        for (number, line) in TextLines(text) { try reader.read(line, number: number) }
        return try reader.finish()
    }
}

/// The state of reading one evemu text, line by line.
private struct EvemuReader {
    let name: String
    private var description = DeviceDescription(name: "")
    private var hasDescription = false
    private var sawName = false
    private var descriptionLines = 0
    private var events: [InputEvent] = []
    private var maskBytes: [UInt16: Int] = [:]
    private var propertyBytes = 0
    private var comments = HeaderComments()
    private var lastLine = 0

    init(name: String) { self.name = name }

    static let anyLine = "an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment)"

    mutating func read(_ line: String, number: Int) throws(RecordingError) {
        let content = line.trimmingLeadingSpaces()
        if content.isEmpty { return }
        lastLine = number
        if content.hasPrefix("#") {
            comments.read(content.dropFirst())
            return
        }
        // Tags are one ASCII letter and a colon: read as bytes, not characters.
        let bytes = content.utf8
        guard bytes.count >= 2, let tag = bytes.first, bytes[bytes.index(after: bytes.startIndex)] == UInt8(ascii: ":") else {
            throw unexpected(number, Self.anyLine, line)
        }
        let rest = content[bytes.index(bytes.startIndex, offsetBy: 2)...]
        if tag == UInt8(ascii: "E") {
            try readEvent(rest, line: number, text: line)
            return
        }
        descriptionLines += 1
        guard descriptionLines <= Limits.maximumDescriptionLines else {
            throw RecordingError(file: name, line: number, kind: .exceedsLimit(what: "description lines", limit: Limits.maximumDescriptionLines))
        }
        switch tag {
        case UInt8(ascii: "N"): try readName(rest, line: number, text: line)
        case UInt8(ascii: "I"): try readIDs(rest, line: number, text: line)
        case UInt8(ascii: "P"): try readProperties(rest, line: number, text: line)
        case UInt8(ascii: "B"): try readMask(rest, line: number, text: line)
        case UInt8(ascii: "A"): try readAxis(rest, line: number, text: line)
        default: throw unexpected(number, Self.anyLine, line)
        }
        hasDescription = true
    }

    func finish() throws(RecordingError) -> EvemuParser.Result {
        if !hasDescription && events.isEmpty {
            throw RecordingError(
                file: name, line: lastLine > 0 ? lastLine : nil,
                kind: .unexpected(expected: "at least one 'N:' or 'E:' line", found: "end of file"))
        }
        guard hasDescription else { return EvemuParser.Result(description: nil, events: events) }
        var described = description
        for (code, value) in comments.values { described.absInfo[code]?.value = value }
        return EvemuParser.Result(description: described, events: events)
    }

    /// `E: <time> <type> <code> <value> [# comment]`.
    private mutating func readEvent(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        let data = rest.utf8.firstIndex(of: UInt8(ascii: "#")).map { rest[..<$0] } ?? rest
        let fields = data.fields()
        guard fields.count == 4, let time = NumberText.time(fields[0]), let type = NumberText.hex16(fields[1]),
            let code = NumberText.hex16(fields[2]), let value = NumberText.decimal32(fields[3])
        else {
            throw unexpected(line, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'", text)
        }
        try RecordingDomains.checkEvent(type: type, code: code, file: name, line: line, text: text)
        guard events.count < Limits.maximumRecordingEvents else {
            throw RecordingError(file: name, line: line, kind: .exceedsLimit(what: "events", limit: Limits.maximumRecordingEvents))
        }
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    private mutating func readName(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        guard !sawName else { throw unexpected(line, "a single 'N:' line (one device per file)", text) }
        let deviceName = rest.trimmingSpaceScalars()
        guard deviceName.utf8.count <= Limits.maximumDeviceNameBytes else {
            throw unexpected(line, "a device name of at most \(Limits.maximumDeviceNameBytes) bytes", text)
        }
        sawName = true
        description.name = deviceName
    }

    private mutating func readIDs(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        let fields = rest.fields()
        let ids = fields.compactMap { NumberText.hex16($0) }
        guard fields.count == 4, ids.count == 4 else {
            throw unexpected(line, "'I: <bus> <vendor> <product> <version>' in hex", text)
        }
        (description.bus, description.vendor, description.product, description.version) = (ids[0], ids[1], ids[2], ids[3])
    }

    private mutating func readProperties(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        let bytes = try readBytes(rest.fields(), line: line, text: text, expected: "'P: <hex bytes>'")
        guard propertyBytes + bytes.count <= Limits.maximumPropertyMaskBytes else {
            throw unexpected(line, "at most \(Limits.maximumPropertyMaskBytes) bytes of 'P:' properties", text)
        }
        for (offset, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let property = (propertyBytes + offset) * 8 + bit
                guard Limits.inputProperty.contains(property) else {
                    throw unexpected(line, "input properties \(Limits.inputProperty)", text)
                }
                description.properties.insert(UInt16(truncatingIfNeeded: property))
            }
        }
        propertyBytes += bytes.count
    }

    private mutating func readMask(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        let fields = rest.fields()
        guard let typeField = fields.first, let type = NumberText.hex16(typeField), Limits.eventType.contains(type) else {
            throw unexpected(line, "'B: <type> <hex bytes>' with a type from 00 to 1f", text)
        }
        let bytes = try readBytes(fields.dropFirst(), line: line, text: text, expected: "'B: <type> <hex bytes>'")
        let start = maskBytes[type, default: 0]
        guard start + bytes.count <= Limits.maximumCodeMaskBytes else {
            throw unexpected(line, "at most \(Limits.maximumCodeMaskBytes) mask bytes for a type (codes up to 0x2ff)", text)
        }
        for (offset, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                description.codes[type, default: []].insert(UInt16(truncatingIfNeeded: (start + offset) * 8 + bit))
            }
        }
        maskBytes[type] = start + bytes.count
    }

    /// `A: <code> <min> <max> <fuzz> <flat> [<resolution>]`.
    private mutating func readAxis(_ rest: Substring, line: Int, text: String) throws(RecordingError) {
        let fields = rest.fields()
        let numbers = fields.dropFirst().compactMap { NumberText.signed32($0) }
        guard fields.count == 5 || fields.count == 6, let code = NumberText.hex16(fields[0]),
            Limits.absoluteAxisCode.contains(code), numbers.count == fields.count - 1
        else {
            throw unexpected(
                line, "'A: <code hex, 00-3f> <min> <max> <fuzz> <flat> [<resolution>]' in decimal", text)
        }
        let info = AbsInfo(
            minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
            resolution: numbers.count == 5 ? numbers[4] : 0)
        description.absInfo[code] = info
        description.codes[EventType.abs, default: []].insert(code)
    }

    private func readBytes(
        _ fields: some Collection<Substring>, line: Int, text: String, expected: String
    ) throws(RecordingError) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            guard field.count <= 2, let byte = UInt8(field, radix: 16) else {
                throw unexpected(line, expected, text)
            }
            bytes.append(byte)
        }
        return bytes
    }

    private func unexpected(_ line: Int, _ expected: String, _ found: String) -> RecordingError {
        RecordingError(file: name, line: line, kind: .unexpected(expected: expected, found: found))
    }
}

/// Follows `Event type N (…)`, `Event code N (…)` and `Value N` header comments to learn each
/// absolute axis's value at recording time. Anything else in a comment is ignored.
private struct HeaderComments {
    private(set) var values: [UInt16: Int32] = [:]
    private var type: Int?
    private var code: Int?

    mutating func read(_ comment: Substring) {
        let text = comment.trimmingLeadingSpaces()
        func number(after prefix: String) -> Int? {
            guard text.hasPrefix(prefix) else { return nil }
            guard let field = text.dropFirst(prefix.count).fields().first, field.count <= 11 else { return nil }
            return Int(field)
        }
        if let value = number(after: "Event type ") {
            type = value
            code = nil
        } else if let value = number(after: "Event code ") {
            code = value
        } else if let value = number(after: "Value "), type == Int(EventType.abs), let code,
            let axis = UInt16(exactly: code), Limits.absoluteAxisCode.contains(axis), let exact = Int32(exactly: value)
        {
            values[axis] = exact
        }
    }
}
