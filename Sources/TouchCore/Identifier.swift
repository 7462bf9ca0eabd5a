/// The one check of an identifier wherever one enters touchd (a layout's ids, references and
/// action names; a request's views, windows, responders and filters): 1 to
/// ``Limits/maximumIdentifierBytes`` bytes and no control character. A control character (C0,
/// DEL, C1, and the line and paragraph separators U+2028 and U+2029) in a name would reach
/// terminals, logs and pictures as it is: ESC starts an escape sequence, CR rewrites a line.
public enum Identifier {
    /// What an identifier is expected to be, for messages.
    public static let expectation = "a string of 1 to \(Limits.maximumIdentifierBytes) bytes without control characters"

    /// Whether `scalar` is a control character an identifier may not hold.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    /// What is wrong with `text` as an identifier, or `nil` when it is one: `"is empty"`, `"is 300
    /// bytes long"`, `"holds the control character U+001B at byte 4"` (the text itself is never
    /// repeated: it may be what a terminal should not see).
    public static func problem(in text: String, maximumBytes: Int = Limits.maximumIdentifierBytes) -> String? {
        let bytes = text.utf8.count
        if bytes == 0 { return "is empty" }
        if bytes > maximumBytes { return "is \(bytes) bytes long" }
        var offset = 0
        for scalar in text.unicodeScalars {
            if isControl(scalar) { return "holds the control character \(codePoint(scalar)) at byte \(offset)" }
            offset += UTF8.width(scalar)
        }
        return nil
    }

    /// `U+001B`: a scalar's code point as Unicode writes it.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
    }
}
