import TouchCore
import TouchEvdev

/// Writes a recording as evemu text (`N:`, `I:`, `P:`, `B:`, `A:` lines, the axes' values in header
/// comments, `E:` lines), for checking that what any format parses to is a recording evemu can
/// say again, and that the evemu parser reads it back the same.
enum EvemuText {
    static func write(_ recording: Recording) -> String {
        let d = recording.description
        var lines = ["# EVEMU 1.3"]
        for (code, info) in d.absInfo.sorted(by: { $0.key < $1.key }) {
            lines += ["# Event type 3 (EV_ABS)", "#   Event code \(code)", "#     Value \(info.value)"]
        }
        // A name evemu cannot hold (a line break in a YAML string) is written on one line; the
        // round trip then compares everything but the name.
        let name = canWrite(name: d.name) ? d.name : String(String.UnicodeScalarView(d.name.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
        lines.append("N: \(name)")
        lines.append("I: " + [d.bus, d.vendor, d.product, d.version].map { hex($0, width: 4) }.joined(separator: " "))
        lines += maskLines(prefix: "P:", d.properties)
        for (type, codes) in d.codes.sorted(by: { $0.key < $1.key }) where !codes.isEmpty {
            lines += maskLines(prefix: "B: \(hex(type, width: 2))", codes)
        }
        for (code, info) in d.absInfo.sorted(by: { $0.key < $1.key }) {
            lines.append("A: \(hex(code, width: 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)")
        }
        for event in recording.events {
            lines.append("E: \(time(event.time)) \(hex(event.type, width: 4)) \(hex(event.code, width: 4)) \(event.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Bitmask lines of at most 8 bytes each, as evemu writes them.
    private static func maskLines(prefix: String, _ bits: Set<UInt16>) -> [String] {
        guard let highest = bits.max() else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(highest) / 8 + 1)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return stride(from: 0, to: bytes.count, by: 8).map { start in
            prefix + " " + bytes[start..<min(start + 8, bytes.count)].map { hex($0, width: 2) }.joined(separator: " ")
        }
    }

    /// `seconds.microseconds`; only times from 0 can be written (evemu has no sign).
    private static func time(_ time: EventTime) -> String {
        let micros = String(time.microseconds % 1_000_000)
        return "\(time.microseconds / 1_000_000)." + String(repeating: "0", count: 6 - micros.count) + micros
    }

    private static func hex(_ value: some BinaryInteger, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    /// Whether evemu text can hold `name` as it is: one line, no surrounding spaces or tabs.
    static func canWrite(name: String) -> Bool {
        let scalars = name.unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        return !scalars.contains("\n") && !scalars.contains("\r") && !(scalars.first.map(isSpace) ?? false)
            && !(scalars.last.map(isSpace) ?? false)
    }
}
