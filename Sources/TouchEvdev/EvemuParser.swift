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
struct EvemuParser {
    struct Result {
        var description: DeviceDescription?
        var events: [InputEvent]
    }

    let name: String

    /// Bitmask bytes accepted per event type (65536 bits: every possible code).
    private static let maximumMaskBytes = 8192

    func parse(_ text: String) throws(RecordingError) -> Result {
        var description = DeviceDescription(name: "")
        var hasDescription = false
        var sawName = false
        var events: [InputEvent] = []
        var maskBytes: [UInt16: Int] = [:]
        var propertyBytes = 0
        var commentValues: [UInt16: Int32] = [:]
        var commentType: Int?
        var commentCode: Int?
        var lastLine = 0

        for (number, line) in TextLines(text) {
            let content = line.trimmingLeadingSpaces()
            if content.isEmpty { continue }
            lastLine = number
            if content.hasPrefix("#") {
                readHeaderComment(
                    content.dropFirst(), type: &commentType, code: &commentCode, values: &commentValues)
                continue
            }
            guard content.count >= 2, let tag = content.first, content.dropFirst().first == ":" else {
                throw unexpected(
                    number, "an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment)", line)
            }
            let rest = content.dropFirst(2)
            switch tag {
            case "E":
                events.append(try readEvent(rest, line: number, text: line))
            case "N":
                if sawName {
                    throw unexpected(number, "a single 'N:' line (one device per file)", line)
                }
                sawName = true
                hasDescription = true
                description.name = String(rest.trimmingLeadingSpaces()).trimmingSpaces()
            case "I":
                let fields = rest.fields()
                let ids = fields.compactMap { NumberText.hex16($0) }
                guard fields.count == 4, ids.count == 4 else {
                    throw unexpected(number, "'I: <bus> <vendor> <product> <version>' in hex", line)
                }
                hasDescription = true
                description.bus = ids[0]
                description.vendor = ids[1]
                description.product = ids[2]
                description.version = ids[3]
            case "P":
                let bytes = try readBytes(rest.fields(), line: number, text: line, expected: "'P: <hex bytes>'")
                guard propertyBytes + bytes.count <= 64 else {
                    throw unexpected(number, "at most 64 bytes of 'P:' properties", line)
                }
                hasDescription = true
                for (offset, byte) in bytes.enumerated() {
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        description.properties.insert(UInt16((propertyBytes + offset) * 8 + bit))
                    }
                }
                propertyBytes += bytes.count
            case "B":
                let fields = rest.fields()
                guard let typeField = fields.first, let type = NumberText.hex16(typeField), type <= 0x1f else {
                    throw unexpected(number, "'B: <type> <hex bytes>' with a type from 00 to 1f", line)
                }
                let bytes = try readBytes(
                    fields.dropFirst(), line: number, text: line, expected: "'B: <type> <hex bytes>'")
                hasDescription = true
                let start = maskBytes[type, default: 0]
                guard start + bytes.count <= Self.maximumMaskBytes else {
                    throw unexpected(number, "at most \(Self.maximumMaskBytes) mask bytes for a type", line)
                }
                for (offset, byte) in bytes.enumerated() {
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        description.codes[type, default: []].insert(UInt16((start + offset) * 8 + bit))
                    }
                }
                maskBytes[type] = start + bytes.count
            case "A":
                let (code, info) = try readAxis(rest, line: number, text: line)
                hasDescription = true
                description.absInfo[code] = info
                description.codes[EventType.abs, default: []].insert(code)
            default:
                throw unexpected(
                    number, "an evemu line ('N:', 'I:', 'P:', 'B:', 'A:', 'E:' or a '#' comment)", line)
            }
        }

        if !hasDescription && events.isEmpty {
            throw RecordingError(
                file: name, line: lastLine > 0 ? lastLine : nil,
                kind: .unexpected(expected: "at least one 'N:' or 'E:' line", found: "end of file"))
        }
        if hasDescription {
            for (code, value) in commentValues {
                description.absInfo[code]?.value = value
            }
        }
        return Result(description: hasDescription ? description : nil, events: events)
    }

    /// `E: <time> <type> <code> <value> [# comment]`.
    private func readEvent(_ rest: Substring, line: Int, text: String) throws(RecordingError) -> InputEvent {
        let data = rest.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? rest
        let fields = data.fields()
        guard fields.count == 4, let time = NumberText.time(fields[0]), let type = NumberText.hex16(fields[1]),
            let code = NumberText.hex16(fields[2]), let value = NumberText.decimal32(fields[3])
        else {
            throw unexpected(
                line, "'E: <seconds>.<microseconds> <type hex> <code hex> <decimal value>'", text)
        }
        return InputEvent(time: time, type: type, code: code, value: value)
    }

    /// `A: <code> <min> <max> <fuzz> <flat> [<resolution>]`.
    private func readAxis(_ rest: Substring, line: Int, text: String) throws(RecordingError) -> (UInt16, AbsInfo) {
        let fields = rest.fields()
        let numbers = fields.dropFirst().compactMap { NumberText.decimal32($0) }
        guard fields.count == 5 || fields.count == 6, let code = NumberText.hex16(fields[0]), code <= 0x3f,
            numbers.count == fields.count - 1
        else {
            throw unexpected(
                line, "'A: <code hex, 00-3f> <min> <max> <fuzz> <flat> [<resolution>]' in decimal", text)
        }
        let info = AbsInfo(
            minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
            resolution: numbers.count == 5 ? numbers[4] : 0)
        return (code, info)
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

    /// Follows `Event type N (…)`, `Event code N (…)` and `Value N` header comments to learn each
    /// absolute axis's value at recording time. Anything else in a comment is ignored.
    private func readHeaderComment(
        _ comment: Substring, type: inout Int?, code: inout Int?, values: inout [UInt16: Int32]
    ) {
        let text = comment.trimmingLeadingSpaces()
        func number(after prefix: String) -> Int? {
            guard text.hasPrefix(prefix) else { return nil }
            guard let field = text.dropFirst(prefix.count).fields().first, field.count <= 6 else { return nil }
            return Int(field)
        }
        if let value = number(after: "Event type ") {
            type = value
            code = nil
        } else if let value = number(after: "Event code ") {
            code = value
        } else if let value = number(after: "Value "), type == Int(EventType.abs), let code,
            let axis = UInt16(exactly: code), let exact = Int32(exactly: value)
        {
            values[axis] = exact
        }
    }

    private func unexpected(_ line: Int, _ expected: String, _ found: String) -> RecordingError {
        RecordingError(file: name, line: line, kind: .unexpected(expected: expected, found: found))
    }
}
