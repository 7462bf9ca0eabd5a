/// Reads a fuzzer's bytes as a stream of small choices: each read takes what it needs from the
/// front and gives a default (zero) once the bytes run out, so every input means something.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    var isAtEnd: Bool { index >= bytes.count }

    /// The bytes not read yet.
    var remaining: ArraySlice<UInt8> { bytes[min(index, bytes.count)...] }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    mutating func int32() -> Int32 {
        let high = UInt32(uint16())
        return Int32(bitPattern: high << 16 | UInt32(uint16()))
    }

    /// A number from 0 to `count - 1` (`count` at least 1).
    mutating func choice(_ count: Int) -> Int { Int(byte()) % max(count, 1) }
}
