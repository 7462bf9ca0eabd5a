/// The lines of a text with their 1-based numbers, split on `\n` alone (a `\r` before it is
/// dropped), so a stray control character or a Unicode line separator inside a device name never
/// shifts the line numbers an error reports.
struct TextLines: Sequence {
    private let lines: [Substring.UnicodeScalarView]

    init(_ text: String) {
        lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    }

    func makeIterator() -> AnyIterator<(number: Int, text: String)> {
        var index = 0
        let lines = self.lines
        return AnyIterator {
            guard index < lines.count else { return nil }
            defer { index += 1 }
            var scalars = lines[index]
            if scalars.last == "\r" { scalars.removeLast() }
            var line = ""
            line.unicodeScalars.append(contentsOf: scalars)
            return (index + 1, line)
        }
    }
}

extension StringProtocol {
    /// The text without leading spaces and tabs.
    func trimmingLeadingSpaces() -> SubSequence {
        drop(while: { $0 == " " || $0 == "\t" })
    }

    /// The text without leading or trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var result = Substring(self.trimmingLeadingSpaces())
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return String(result)
    }

    /// The fields separated by runs of spaces or tabs.
    func fields() -> [SubSequence] {
        split(whereSeparator: { $0 == " " || $0 == "\t" })
    }
}

/// Number parsing shared by the text formats, without traps on any input.
enum NumberText {
    /// A hexadecimal number of at most 16 bits (`"014a"`, `"0x14a"`).
    static func hex16(_ text: some StringProtocol) -> UInt16? {
        let digits = withoutHexPrefix(text)
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        return UInt16(digits, radix: 16)
    }

    /// A hexadecimal 32-bit value as the kernel's signed event value (`"ffffffff"` → -1).
    static func hex32(_ text: some StringProtocol) -> Int32? {
        let digits = withoutHexPrefix(text)
        guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: 16) else { return nil }
        return Int32(bitPattern: value)
    }

    private static func withoutHexPrefix(_ text: some StringProtocol) -> Substring {
        let all = Substring(text)
        return all.hasPrefix("0x") || all.hasPrefix("0X") ? all.dropFirst(2) : all
    }

    /// A decimal event value; unsigned 32-bit values (as `MSC_SERIAL` may be printed) wrap to the
    /// kernel's signed value. Leading zeros and a sign are allowed (`"-001"`).
    static func decimal32(_ text: some StringProtocol) -> Int32? {
        guard text.count <= 20, let value = Int64(text) else { return nil }
        if let exact = Int32(exactly: value) { return exact }
        if value > 0, let unsigned = UInt32(exactly: value) { return Int32(bitPattern: unsigned) }
        return nil
    }

    /// `seconds.fraction` (`"1330496011.108581"`, `"0.000001"`, `"75"`) as an ``EventTime``.
    /// Fractions shorter than six digits are microseconds scaled up; longer ones are cut.
    static func time(_ text: some StringProtocol) -> EventTime? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let secondsText = parts.first, !secondsText.isEmpty, secondsText.count <= 12,
            secondsText.allSatisfy(\.isASCIIDigit), let seconds = Int64(secondsText)
        else { return nil }
        var micros: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            let six = fraction.prefix(6)
            micros = Int64(six)! * pow10(6 - six.count)
        }
        return EventTime(seconds: seconds, microseconds: micros)
    }

    private static func pow10(_ n: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<n { result *= 10 }
        return result
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
