/// Numbers as people read them in a tool's output, with a fixed count of decimals (what C's
/// `%.Nf` prints), without a formatting library.
public enum DecimalText {
    /// `value` with exactly `decimals` decimals (0 to 9), rounded half away from zero: `1.5` with 2
    /// is `1.50`, `-0.004` with 2 is `-0.00`. Values beyond ±10^15, infinities and NaN are written as
    /// Swift writes them (`1e+20`, `inf`, `nan`).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let places = min(max(decimals, 0), 9)
        var unit: Int64 = 1
        for _ in 0..<places { unit *= 10 }
        guard value.isFinite, abs(value) < 1e15,
            let scaled = Int64(exactly: (abs(value) * Double(unit)).rounded(.toNearestOrAwayFromZero))
        else {
            return "\(value)"
        }
        let whole = String(scaled / unit)
        let sign = value < 0 || (value == 0 && value.sign == .minus) ? "-" : ""
        guard places > 0 else { return sign + whole }
        let fraction = String(scaled % unit)
        return sign + whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// ``fixed(_:decimals:)`` padded with spaces on the left to at least `width` characters (`%W.Nf`).
    public static func fixed(_ value: Double, decimals: Int, width: Int) -> String {
        let text = fixed(value, decimals: decimals)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
