import TouchCore

/// Writes evemu text, as `evemu-record` writes it (`# EVEMU 1.3`): what ``EvemuParser`` and
/// `evemu-play` read back.
///
/// - The header comments give each absolute axis's value at recording time (`Event type 3`,
///   `Event code N`, `Value V`), which `A:` lines lack: the parser takes the initial `ABS_MT_SLOT`
///   from there.
/// - `N:` is the name with line breaks replaced by spaces (a name is one line); `I:` the ids in
///   hex; `P:` the property mask, 8 bytes a line; `B: 00` the mask of the event types that have
///   codes (evemu's meaning of type 0), then a `B:` mask per type with codes, up to its highest
///   code, 8 bytes a line; `A:` each axis with 5 numbers (resolution included).
/// - `E: <seconds>.<microseconds> <type> <code> <value>`: type and code in 4 hex digits, the value
///   in decimal padded to 4 digits (`-001`), exactly as evemu's `%04d`. Times are written as given
///   (a live device's `CLOCK_MONOTONIC`): a replay then stamps its messages as the live run did.
///   A time before 0 is written as 0.
public enum EvemuWriter {
    /// The description, with its header: everything before the first `E:` line.
    public static func description(_ device: DeviceDescription) -> String {
        var lines = ["# EVEMU 1.3", "# Input device name: \"\(oneLine(device.name))\""]
        lines.append("# Input device ID: bus 0x\(hex(device.bus, 2)) vendor 0x\(hex(device.vendor, 4)) product 0x\(hex(device.product, 4)) version 0x\(hex(device.version, 4))")
        lines.append("# Absolute axes and their values when the recording started:")
        let axes = device.absInfo.keys.sorted()
        if !axes.isEmpty { lines.append("#   Event type 3 (EV_ABS)") }
        for code in axes {
            guard let info = device.absInfo[code] else { continue }
            let name = EventCodes.codeName(type: EventType.abs, code: code) ?? "?"
            lines.append("#     Event code \(code) (\(name))")
            lines.append("#       Value \(info.value)")
        }
        lines.append("N: \(oneLine(device.name))")
        lines.append("I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))")
        lines += maskLines(prefix: "P:", bits: device.properties, minimumBytes: 8)
        let types = Set(device.codes.filter { $0.key != EventType.syn && !$0.value.isEmpty }.keys).union([EventType.syn])
        lines += maskLines(prefix: "B: 00", bits: types, minimumBytes: 8)
        for type in device.codes.keys.sorted() where type != EventType.syn {
            guard let codes = device.codes[type], !codes.isEmpty else { continue }
            lines += maskLines(prefix: "B: \(hex(type, 2))", bits: codes, minimumBytes: 8)
        }
        for code in axes {
            guard let a = device.absInfo[code] else { continue }
            lines.append("A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `E:` line, without its newline.
    public static func eventLine(_ event: InputEvent) -> String {
        let time = event.time.microseconds < 0 ? EventTime(microseconds: 0) : event.time
        return "E: \(time) \(hex(event.type, 4)) \(hex(event.code, 4)) \(paddedValue(event.value))"
    }

    /// The whole recording: its description, then one `E:` line per event.
    public static func text(_ recording: Recording) -> String {
        var text = description(recording.description)
        text.reserveCapacity(text.utf8.count + recording.events.count * 28)
        for event in recording.events {
            text += eventLine(event)
            text += "\n"
        }
        return text
    }

    /// `value` as C's `%04d`: at least 4 characters, zeros after the sign.
    static func paddedValue(_ value: Int32) -> String {
        let digits = String(value.magnitude)
        let width = value < 0 ? 3 : 4
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }

    /// `value` in lower-case hex, padded with zeros to `width` digits.
    static func hex(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A bitmask as evemu writes it: `prefix` then 8 bytes a line, as many lines as the highest bit
    /// needs (at least `minimumBytes` bytes).
    private static func maskLines(prefix: String, bits: Set<UInt16>, minimumBytes: Int) -> [String] {
        let highest = bits.max().map { Int($0) } ?? 0
        let byteCount = max(minimumBytes, (highest / 8 + 8) / 8 * 8)
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << UInt8(truncatingIfNeeded: bit % 8) }
        return stride(from: 0, to: byteCount, by: 8).map { start in
            prefix + bytes[start..<start + 8].map { " " + hex($0, 2) }.joined()
        }
    }

    /// A name on one line: line breaks become spaces.
    private static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}

extension DeviceRead {
    /// Every event of the read as a recording keeps it, in order: a `SYN_DROPPED` is followed by a
    /// `SYN_REPORT` (ending the frame it lost, as the kernel's reader discards up to the next one)
    /// and then libevdev's delta, which a replay of the raw stream takes as the frame that brings
    /// the device up to date (``EventSync``): decoded as the live read was.
    public var recordedEvents: [InputEvent] {
        segments.flatMap { segment -> [InputEvent] in
            switch segment {
            case .events(let events): events
            case .resync(let dropped, let delta):
                [dropped, InputEvent(time: dropped.time, type: EventType.syn, code: SynCode.report, value: 0)] + delta
            }
        }
    }
}
