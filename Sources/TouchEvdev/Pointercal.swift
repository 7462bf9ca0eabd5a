/// A tslib `pointercal` file, as `ts_calibrate` writes it: seven integers `a0 … a6`, then
/// optionally the screen's width and height in pixels and the rotation used while calibrating.
///
/// tslib's `linear` filter computes, from raw device coordinates `x`, `y`, the screen pixel
/// `x' = (a2 + a0·x + a1·y) / a6`, `y' = (a5 + a3·x + a4·y) / a6`.
public struct Pointercal: Hashable, Sendable {
    /// `a0 … a6`.
    public var coefficients: [Int64]
    /// The screen width in pixels at calibration time, if the file says.
    public var screenWidth: Int?
    /// The screen height in pixels at calibration time, if the file says.
    public var screenHeight: Int?
    /// The rotation field (tslib's framebuffer rotation, 0…3 quarter turns), if present. It is
    /// informational: the coefficients already map into the screen as it was then.
    public var rotation: Int?

    /// A pointercal from its parts.
    public init(coefficients: [Int64], screenWidth: Int? = nil, screenHeight: Int? = nil, rotation: Int? = nil) {
        self.coefficients = coefficients
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.rotation = rotation
    }

    /// Parses the file's text: whitespace-separated integers (7, 9 or 10 of them).
    ///
    /// - Throws: ``CalibrationError`` for another count, a non-integer, `a6` = 0 or a non-positive
    ///   screen size.
    public static func parse(_ text: String) throws(CalibrationError) -> Pointercal {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard [7, 9, 10].contains(fields.count) else {
            throw CalibrationError(
                source: "pointercal", text: text,
                problem: "expected 7 integers a0…a6, optionally followed by xres yres [rotation]; found \(fields.count) fields")
        }
        var numbers: [Int64] = []
        for field in fields {
            guard field.count <= 19, let value = Int64(field) else {
                throw CalibrationError(source: "pointercal", text: text, problem: "'\(field)' is not an integer")
            }
            numbers.append(value)
        }
        guard numbers[6] != 0 else {
            throw CalibrationError(source: "pointercal", text: text, problem: "the divisor a6 is 0")
        }
        var result = Pointercal(coefficients: Array(numbers[0..<7]))
        if numbers.count >= 9 {
            guard numbers[7] > 0, numbers[8] > 0, let width = Int(exactly: numbers[7]),
                let height = Int(exactly: numbers[8])
            else {
                throw CalibrationError(source: "pointercal", text: text, problem: "the screen size must be positive")
            }
            result.screenWidth = width
            result.screenHeight = height
        }
        if numbers.count == 10 { result.rotation = Int(exactly: numbers[9]) }
        return result
    }

    /// The equivalent normalised ``CalibrationMatrix`` for a device with these position axes.
    ///
    /// Assumptions: the device's normalised 0…1 spans its axis range (`min…max`), and the screen's
    /// normalised 0…1 spans `0…width` pixels (tslib's pixel `x'` becomes `x' / width`), the screen
    /// being what the window or region shows. With `u = (x − xmin)/(xmax − xmin)` and
    /// `v = (y − ymin)/(ymax − ymin)`, substituting into tslib's formula gives an affine map of
    /// `(u, v)`, which is the matrix returned.
    ///
    /// - Parameters:
    ///   - xAxis: The device's x position axis.
    ///   - yAxis: The device's y position axis.
    ///   - screenWidth: The screen width in pixels, used when the file does not say.
    ///   - screenHeight: The screen height in pixels, used when the file does not say.
    /// - Throws: ``CalibrationError`` when neither the file nor the caller gives the screen size, or
    ///   when ``coefficients`` is not seven numbers with a non-zero `a6`.
    public func normalisedMatrix(
        xAxis: AbsInfo, yAxis: AbsInfo, screenWidth: Int? = nil, screenHeight: Int? = nil
    ) throws(CalibrationError) -> CalibrationMatrix {
        guard coefficients.count == 7, coefficients[6] != 0 else {
            throw CalibrationError(
                source: "pointercal", text: coefficients.map(String.init).joined(separator: " "),
                problem: "expected 7 coefficients a0…a6 with a6 ≠ 0")
        }
        guard let width = self.screenWidth ?? screenWidth, let height = self.screenHeight ?? screenHeight,
            width > 0, height > 0
        else {
            throw CalibrationError(
                source: "pointercal", text: coefficients.map(String.init).joined(separator: " "),
                problem: "the screen size is needed: the file has no 'xres yres' and none was given")
        }
        let a = coefficients.map(Double.init)
        let xMin = Double(xAxis.minimum)
        let yMin = Double(yAxis.minimum)
        let xSpan = Double(xAxis.maximum) - xMin
        let ySpan = Double(yAxis.maximum) - yMin
        let xScale = a[6] * Double(width)
        let yScale = a[6] * Double(height)
        return CalibrationMatrix(
            a: a[0] * xSpan / xScale,
            b: a[1] * ySpan / xScale,
            c: (a[2] + a[0] * xMin + a[1] * yMin) / xScale,
            d: a[3] * xSpan / yScale,
            e: a[4] * ySpan / yScale,
            f: (a[5] + a[3] * xMin + a[4] * yMin) / yScale)
    }
}
