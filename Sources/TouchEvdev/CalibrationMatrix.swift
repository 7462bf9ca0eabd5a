import TouchCore

/// A 2×3 affine matrix in normalised coordinates (0…1 on each axis), libinput's calibration:
/// `x' = a·x + b·y + c`, `y' = d·x + e·y + f`.
///
/// libinput reads it from the udev property `LIBINPUT_CALIBRATION_MATRIX` (`"a b c d e f"`);
/// `"0 -1 1 1 0 0"` turns the input 90° clockwise, `"-1 0 1 0 -1 1"` 180°. Coefficients read from
/// outside are checked against ``TouchCore/Limits/calibrationCoefficient``.
public struct CalibrationMatrix: Hashable, Sendable, CustomStringConvertible {
    /// x' per x.
    public var a: Double
    /// x' per y.
    public var b: Double
    /// x' offset.
    public var c: Double
    /// y' per x.
    public var d: Double
    /// y' per y.
    public var e: Double
    /// y' offset.
    public var f: Double

    /// A matrix from its six coefficients, in udev's order.
    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.e = e
        self.f = f
    }

    /// The matrix that changes nothing.
    public static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    /// The six coefficients in udev's order.
    public var coefficients: [Double] { [a, b, c, d, e, f] }

    /// Applies the matrix to a normalised point.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + b * point.y + c, y: d * point.x + e * point.y + f)
    }

    /// The six numbers in udev's order, as `LIBINPUT_CALIBRATION_MATRIX` writes them.
    public var description: String {
        coefficients.map { String($0) }.joined(separator: " ")
    }

    /// Whether the matrix maps the whole plane onto a line or a point (`a·e − b·d` negligible beside
    /// its coefficients): no touch could then be told from another along the lost direction, so
    /// such a matrix is refused wherever it comes from (a layout, a file, udev, a fit).
    public var flattensThePlane: Bool {
        let scale = max(abs(a) + abs(b), abs(d) + abs(e), .leastNormalMagnitude)
        return !(abs(a * e - b * d) > 1e-9 * scale * scale)
    }

    /// The number of the first coefficient outside ``TouchCore/Limits/calibrationCoefficient``
    /// (1 for `a` … 6 for `f`), or nil when all are inside.
    public var firstCoefficientOutsideDomain: Int? {
        coefficients.firstIndex { !Limits.calibrationCoefficient.contains($0) }.map { $0 + 1 }
    }

    /// Parses a `LIBINPUT_CALIBRATION_MATRIX` value: six numbers separated by spaces or tabs.
    ///
    /// - Throws: ``CalibrationError`` naming the field at fault (never its text) when there are not
    ///   exactly six numbers within ``TouchCore/Limits/calibrationCoefficient``.
    public static func parse(udevProperty text: String) throws(CalibrationError) -> CalibrationMatrix {
        let source = "LIBINPUT_CALIBRATION_MATRIX"
        let fields = text.fields()
        guard fields.count == 6 else {
            throw CalibrationError(
                source: source, expected: "6 numbers 'a b c d e f' (found \(fields.count) fields)")
        }
        var values: [Double] = []
        for (index, field) in fields.enumerated() {
            guard field.utf8.count <= 64, let value = Double(field), Limits.calibrationCoefficient.contains(value) else {
                throw CalibrationError(source: source, field: index + 1, expected: "\(Limits.calibrationCoefficient)")
            }
            values.append(value)
        }
        return CalibrationMatrix(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }

    /// The matrix udev gives a device, or nil when it sets none.
    ///
    /// - Throws: ``CalibrationError`` when `LIBINPUT_CALIBRATION_MATRIX` is set but malformed.
    public static func fromUdev(_ properties: [String: String]) throws(CalibrationError) -> CalibrationMatrix? {
        guard let text = properties["LIBINPUT_CALIBRATION_MATRIX"] else { return nil }
        return try parse(udevProperty: text)
    }
}

/// A calibration that could not be read or used: where it came from, the position at fault and
/// what was expected there.
///
/// It never holds the text that was read: a pointercal path may name any file on the system
/// (one holding a password, say), and this error reaches socket clients and logs.
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `LIBINPUT_CALIBRATION_MATRIX`, `pointercal` or `calibration file`.
    public var source: String
    /// The 1-based line at fault, when the source has lines (a pointercal file).
    public var line: Int?
    /// The 1-based field at fault when one is to blame: counted through the whole source for a
    /// pointercal file, along its line for a calibration file (the keyword is field 1).
    public var field: Int?
    /// What was expected there.
    public var expected: String

    /// An error about `source`, at `line` and `field` when one is to blame.
    public init(source: String, line: Int? = nil, field: Int? = nil, expected: String) {
        self.source = source
        self.line = line
        self.field = field
        self.expected = expected
    }

    /// The field and what was expected, without the source or the line (which an error report
    /// places on its own): `field 6: expected a5, a whole number from …`.
    public var problem: String {
        (field.map { "field \($0): " } ?? "") + "expected \(expected)"
    }

    /// One line: the source, the line, the field and what was expected:
    /// `pointercal:2: field 6: expected a5, a whole number from …`.
    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
}
