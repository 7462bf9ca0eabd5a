/// Open Sound Control 1.0 packets, as TUIO sends them: messages of int32, float32 and string
/// arguments, and bundles of messages. Pure: bytes in, bytes out.
///
/// Every part is padded with zeros to a multiple of four bytes (a string with at least one zero);
/// numbers are big-endian; a bundle is `#bundle`, a time tag and each element with its size.
public enum OSC {
    /// One argument of a message.
    public enum Argument: Hashable, Sendable {
        case int32(Int32)
        case float32(Float)
        case string(String)

        /// Its type tag character.
        var tag: UInt8 {
            switch self {
            case .int32: UInt8(ascii: "i")
            case .float32: UInt8(ascii: "f")
            case .string: UInt8(ascii: "s")
            }
        }
    }

    /// The time tag that means "at once" (1), which TUIO trackers send.
    public static let immediately: UInt64 = 1

    /// A message to `address` with `arguments`.
    public static func message(_ address: String, _ arguments: [Argument]) -> [UInt8] {
        var bytes: [UInt8] = []
        appendString(address, to: &bytes)
        appendString(",", tags: arguments.map(\.tag), to: &bytes)
        for argument in arguments {
            switch argument {
            case .int32(let value): appendBigEndian(UInt32(bitPattern: value), to: &bytes)
            case .float32(let value): appendBigEndian(value.bitPattern, to: &bytes)
            case .string(let text): appendString(text, to: &bytes)
            }
        }
        return bytes
    }

    /// A bundle of `elements` (each a message or a bundle) at `timeTag`.
    public static func bundle(_ elements: [[UInt8]], timeTag: UInt64 = immediately) -> [UInt8] {
        var bytes: [UInt8] = []
        appendString("#bundle", to: &bytes)
        appendBigEndian(UInt32(truncatingIfNeeded: timeTag >> 32), to: &bytes)
        appendBigEndian(UInt32(truncatingIfNeeded: timeTag), to: &bytes)
        for element in elements {
            appendBigEndian(UInt32(truncatingIfNeeded: element.count), to: &bytes)
            bytes += element
        }
        return bytes
    }

    /// `text` (its zero bytes left out), then `tags`, then one to four zeros to a multiple of four.
    private static func appendString(_ text: String, tags: [UInt8] = [], to bytes: inout [UInt8]) {
        bytes += text.utf8.filter { $0 != 0 }
        bytes += tags
        let padding = 4 - bytes.count % 4
        bytes += repeatElement(0, count: padding)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
