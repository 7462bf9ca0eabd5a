/// The lines of a text with their 1-based numbers, split on `\n` alone (a `\r` before it is
/// dropped), so a stray control character or a Unicode line separator inside a device name never
/// shifts the line numbers an error reports.
struct TextLines: Sequence {
    private let text: String
    /// Where each line starts and ends (before its `\n`), found on the UTF-8 bytes: `\n` and `\r`
    /// are single bytes that never occur inside another character's encoding.
    private let ranges: [Range<String.Index>]

    init(_ text: String) {
        self.text = text
        var ranges: [Range<String.Index>] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            if utf8[i] == UInt8(ascii: "\n") {
                ranges.append(start..<i)
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        ranges.append(start..<utf8.endIndex)
        self.ranges = ranges
    }

    func makeIterator() -> AnyIterator<(number: Int, text: String)> {
        var index = 0
        let ranges = self.ranges
        let text = self.text
        return AnyIterator {
            guard index < ranges.count else { return nil }
            defer { index += 1 }
            var range = ranges[index]
            if range.lowerBound < range.upperBound {
                let last = text.utf8.index(before: range.upperBound)
                if text.utf8[last] == UInt8(ascii: "\r") { range = range.lowerBound..<last }
            }
            return (index + 1, String(decoding: text.utf8[range], as: UTF8.self))
        }
    }
}

extension StringProtocol {
    /// The text without leading spaces and tabs.
    func trimmingLeadingSpaces() -> SubSequence {
        drop(while: { $0 == " " || $0 == "\t" })
    }

    /// The text without leading or trailing space and tab scalars: a space before a combining mark
    /// is still a separator here, where the rest of the line is kept as it is (a device name).
    func trimmingSpaceScalars() -> String {
        let scalars = unicodeScalars.drop(while: { $0 == " " || $0 == "\t" })
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }).map { scalars.index(after: $0) } ?? scalars.startIndex
        return String(String.UnicodeScalarView(scalars[..<end]))
    }

    /// The fields separated by runs of spaces or tabs.
    func fields() -> [SubSequence] {
        // An ASCII line (every event line) is split on its bytes; any other by characters, where
        // a space followed by a combining mark is one character and no separator.
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return split(whereSeparator: { $0 == " " || $0 == "\t" }) }
        var result: [SubSequence] = []
        var fieldStart: String.Index?
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                if let start = fieldStart {
                    result.append(self[start..<i])
                    fieldStart = nil
                }
            } else if fieldStart == nil {
                fieldStart = i
            }
            i = utf8.index(after: i)
        }
        if let start = fieldStart { result.append(self[start..<endIndex]) }
        return result
    }
}

/// Number parsing shared by the text formats, without traps on any input.
enum NumberText {
    /// A hexadecimal number of at most 16 bits (`"014a"`, `"0x14a"`).
    static func hex16(_ text: some StringProtocol) -> UInt16? {
        let digits = withoutHexPrefix(text)
        guard !digits.isEmpty, digits.utf8.count <= 8 else { return nil }
        return UInt16(digits, radix: 16)
    }

    /// A hexadecimal 32-bit value as the kernel's signed event value (`"ffffffff"` → -1).
    static func hex32(_ text: some StringProtocol) -> Int32? {
        let digits = withoutHexPrefix(text)
        guard !digits.isEmpty, digits.utf8.count <= 8, let value = UInt32(digits, radix: 16) else { return nil }
        return Int32(bitPattern: value)
    }

    private static func withoutHexPrefix(_ text: some StringProtocol) -> Substring {
        let all = Substring(text)
        return all.hasPrefix("0x") || all.hasPrefix("0X") ? all.dropFirst(2) : all
    }

    /// A decimal event value; unsigned 32-bit values (as `MSC_SERIAL` may be printed) wrap to the
    /// kernel's signed value. Leading zeros and a sign are allowed (`"-001"`).
    static func decimal32(_ text: some StringProtocol) -> Int32? {
        guard text.utf8.count <= 20, let value = Int64(text) else { return nil }
        if let exact = Int32(exactly: value) { return exact }
        if value > 0, let unsigned = UInt32(exactly: value) { return Int32(bitPattern: unsigned) }
        return nil
    }

    /// A decimal 32-bit signed integer (an axis's range), without the unsigned wrap of
    /// ``decimal32(_:)``. Leading zeros and a sign are allowed.
    static func signed32(_ text: some StringProtocol) -> Int32? {
        guard text.utf8.count <= 20, let value = Int64(text) else { return nil }
        return Int32(exactly: value)
    }

    /// `seconds.fraction` (`"1330496011.108581"`, `"0.000001"`, `"75"`) as an ``EventTime``.
    /// Fractions shorter than six digits are microseconds scaled up; longer ones are cut. At most
    /// twelve digits of seconds (``TouchCore/Limits/eventSeconds``).
    static func time(_ text: some StringProtocol) -> EventTime? {
        var seconds: Int64 = 0
        var secondsDigits = 0
        var micros: Int64 = 0
        var fractionDigits = 0
        var inFraction = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") && !inFraction {
                inFraction = true
                continue
            }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            if inFraction {
                if fractionDigits < 6 { micros = micros * 10 + digit }
                fractionDigits += 1
            } else {
                secondsDigits += 1
                guard secondsDigits <= 12 else { return nil }
                seconds = seconds * 10 + digit
            }
        }
        guard secondsDigits > 0, !inFraction || fractionDigits > 0 else { return nil }
        if fractionDigits < 6 { micros *= pow10(6 - fractionDigits) }
        return EventTime(seconds: seconds, microseconds: micros)
    }

    private static func pow10(_ n: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<n { result *= 10 }
        return result
    }
}
