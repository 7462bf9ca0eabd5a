/// Checks that bytes are well-formed UTF-8 (RFC 3629): no stray continuation bytes, no truncated
/// sequences, no overlong forms, no surrogates (U+D800 to U+DFFF), nothing above U+10FFFF.
enum UTF8Validation {
    /// The offset of the first byte of the first ill-formed sequence, or `nil` when all of
    /// `bytes` is well-formed.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            guard let length = sequenceLength(bytes, at: i) else { return i }
            i += length
        }
        return nil
    }

    /// The length of the well-formed multi-byte sequence that starts at `i`, or `nil`. The
    /// second byte's range depends on the first: that is what refuses overlong forms, surrogates
    /// and values above U+10FFFF.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int? {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[i] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard i + length <= bytes.count, second.contains(bytes[i + 1]) else { return nil }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return nil }
        return length
    }
}
