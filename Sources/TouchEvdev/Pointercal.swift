import TouchCore

/// A tslib `pointercal` file, as `ts_calibrate` writes it: seven integers `a0 … a6`, then
/// optionally the screen's width and height in pixels and the rotation used while calibrating.
///
/// tslib's `linear` filter computes, from raw device coordinates `x`, `y`, the screen pixel
/// `x' = (a2 + a0·x + a1·y) / a6`, `y' = (a5 + a3·x + a4·y) / a6`.
public struct Pointercal: Hashable, Sendable {
    /// `a0 … a6`, each within ``TouchCore/Limits/pointercalCoefficient``; `a6` is not 0.
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

    /// What each field of the file is, by position, with its domain.
    static let fieldMeanings: [(name: String, domain: NumberDomain)] =
        (0...6).map { ("a\($0)", Limits.pointercalCoefficient) }
        + [("xres", Limits.pointercalScreenSize), ("yres", Limits.pointercalScreenSize), ("rotation", Limits.pointercalRotation)]

    /// Parses the file's text: whitespace-separated integers (7, 9 or 10 of them).
    ///
    /// - Throws: ``CalibrationError`` naming the line and field at fault and what was expected
    ///   there (never the text itself): another count, a field that is not an integer in its
    ///   domain (``TouchCore/Limits``), or `a6` = 0.
    public static func parse(_ text: String) throws(CalibrationError) -> Pointercal {
        var numbers: [Int64] = []
        var fieldCount = 0
        var lastLine = 1
        for (number, line) in TextLines(text) {
            for field in line.split(whereSeparator: \.isWhitespace) {
                fieldCount += 1
                lastLine = number
                guard fieldCount <= fieldMeanings.count else { continue }
                let meaning = fieldMeanings[fieldCount - 1]
                guard field.utf8.count <= 20, let value = Int64(field), meaning.domain.contains(value) else {
                    throw CalibrationError(
                        source: "pointercal", line: number, field: fieldCount, expected: "\(meaning.name), \(meaning.domain)")
                }
                numbers.append(value)
            }
        }
        guard [7, 9, 10].contains(fieldCount) else {
            throw CalibrationError(
                source: "pointercal", line: lastLine,
                expected: "7 integers a0 … a6, optionally followed by xres yres [rotation] (found \(fieldCount) fields)")
        }
        guard numbers[6] != 0 else {
            throw CalibrationError(source: "pointercal", line: lastLine, field: 7, expected: "a6, a divisor other than 0")
        }
        var result = Pointercal(coefficients: Array(numbers[0..<7]))
        if numbers.count >= 9 {
            result.screenWidth = Int(exactly: numbers[7])
            result.screenHeight = Int(exactly: numbers[8])
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
    ///   - screenSize: The screen's size (the window's or region's, in points), used when the
    ///     file does not give one.
    /// - Throws: ``CalibrationError`` when neither the file nor the caller gives a positive,
    ///   finite screen size, when ``coefficients`` is not seven numbers with a non-zero `a6`, or
    ///   when the matrix for these axes falls outside ``TouchCore/Limits/calibrationCoefficient``
    ///   (a file made for another device).
    public func normalisedMatrix(xAxis: AbsInfo, yAxis: AbsInfo, screenSize: Size? = nil) throws(CalibrationError) -> CalibrationMatrix {
        guard coefficients.count == 7, coefficients[6] != 0 else {
            throw CalibrationError(source: "pointercal", expected: "7 coefficients a0 … a6 with a6 other than 0")
        }
        let width = screenWidth.map(Double.init) ?? screenSize?.width ?? 0
        let height = screenHeight.map(Double.init) ?? screenSize?.height ?? 0
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw CalibrationError(
                source: "pointercal", expected: "a screen size: the file has no 'xres yres' and the window or region gives none")
        }
        let matrix = Self.matrix(Self.doubles(coefficients), xAxis: xAxis, yAxis: yAxis, width: width, height: height)
        if let index = matrix.firstCoefficientOutsideDomain {
            throw CalibrationError(
                source: "pointercal",
                expected: "coefficients that map this device's axes within \(Limits.calibrationCoefficient); "
                    + "coefficient \(index) of the matrix they give is not (a file made for another device?)")
        }
        return matrix
    }

    private static func doubles(_ values: [Int64]) -> [Double] { values.map { Double($0) } }

    private static func matrix(_ a: [Double], xAxis: AbsInfo, yAxis: AbsInfo, width: Double, height: Double) -> CalibrationMatrix {
        let xMin = Double(xAxis.minimum)
        let yMin = Double(yAxis.minimum)
        let xSpan = Double(xAxis.maximum) - xMin
        let ySpan = Double(yAxis.maximum) - yMin
        let xScale = a[6] * width
        let yScale = a[6] * height
        return CalibrationMatrix(
            a: a[0] * xSpan / xScale,
            b: a[1] * ySpan / xScale,
            c: (a[2] + a[0] * xMin + a[1] * yMin) / xScale,
            d: a[3] * xSpan / yScale,
            e: a[4] * ySpan / yScale,
            f: (a[5] + a[3] * xMin + a[4] * yMin) / yScale)
    }
}
