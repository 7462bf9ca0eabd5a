/// The one check that bytes are well-formed UTF-8 (RFC 3629: no stray continuation bytes, no
/// truncated sequences, no overlong forms, no surrogates, nothing above U+10FFFF), by the standard
/// library's strict decoder. Request lines, layouts, recordings and pointercal files are all
/// checked by it before they are read as text.
public enum UTF8Text {
    /// The offset of the first byte of the first ill-formed sequence, or `nil` when all of `bytes`
    /// is well-formed.
    ///
    /// Runs of ASCII, most of any request or layout, are stepped over a byte at a time; each other
    /// sequence goes through the strict decoder, one scalar at a time.
    public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] < 0x80 {
                offset += 1
                continue
            }
            var decoder = UTF8()
            var iterator = bytes[offset...].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return offset }
            offset += UTF8.width(scalar)
        }
        return nil
    }
}
