import TouchCore

extension JSONValue {
    /// Compact JSON text (no spaces, no newline).
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends compact JSON text to `out`.
    public func write(to out: inout String) {
        var writer = JSONWriter(capacity: 64)
        writer.value(self)
        out += writer.text
    }

    /// The smallest magnitude from which every `Double` is a whole number (2^53): rounding to
    /// millionths changes nothing there, and multiplying by a million could overflow.
    static let wholeNumbersFrom = 9_007_199_254_740_992.0

    /// A number as JSON text: whole values below 2^53 without a fraction, values from 2^53 on in
    /// exponent form with Swift's shortest round-trip digits (`9.007199254740992e+15`, `1e+300`),
    /// others rounded to 6 decimals and then in Swift's shortest form, or without a fraction when
    /// the rounding gives a whole number (`3`, never `3.0`); non-finite numbers (not valid JSON) as
    /// `null`.
    ///
    /// Every finite value gives valid JSON that reads back to the value within a millionth (or
    /// within the last bits of its magnitude).
    static func format(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded() && abs(v) < wholeNumbersFrom { return String(Int64(v)) }
        if abs(v) >= wholeNumbersFrom { return exponentForm(v) }
        // One form: a value that rounds to a whole number is written as one (`1080`, never `1080.0`).
        let rounded = (v * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded() && abs(rounded) < wholeNumbersFrom { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// `v`, from 2^53 on, in exponent form: Swift's own text has one from 1e16 on, and below that
    /// writes the whole number with `.0` (`9007199254740992.0`), which this turns into
    /// `9.007199254740992e+15`.
    static func exponentForm(_ v: Double) -> String {
        let text = String(v)
        guard !text.contains("e") else { return text }
        // A whole number (every double from 2^53 on is one): its digits before the point.
        var digits = Array(text.drop { $0 == "-" }.prefix { $0 != "." })
        guard let first = digits.first else { return text }
        let exponent = digits.count - 1
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let mantissa = digits.count == 1 ? String(first) : "\(first).\(String(digits.dropFirst()))"
        return (v < 0 ? "-" : "") + mantissa + "e+\(exponent)"
    }
}
