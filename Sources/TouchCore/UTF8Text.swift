/// The one check that bytes are well-formed UTF-8 (RFC 3629: no stray continuation bytes, no
/// truncated sequences, no overlong forms, no surrogates, nothing above U+10FFFF), by the standard
/// library's strict decoder. Request lines, layouts, recordings and pointercal files are all
/// checked by it before they are read as text.
public enum UTF8Text {
    /// The offset of the first byte of the first ill-formed sequence, or `nil` when all of `bytes`
    /// is well-formed.
    public static func firstInvalidOffset<Bytes: Sequence<UInt8>>(in bytes: Bytes) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
