/// A 2×3 affine matrix in normalised coordinates (0…1 on each axis), libinput's calibration:
/// `x' = a·x + b·y + c`, `y' = d·x + e·y + f`.
///
/// libinput reads it from the udev property `LIBINPUT_CALIBRATION_MATRIX` (`"a b c d e f"`);
/// `"0 -1 1 1 0 0"` turns the input 90° clockwise, `"-1 0 1 0 -1 1"` 180°.
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

    /// Applies the matrix to a normalised point.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// The six numbers in udev's order, as `LIBINPUT_CALIBRATION_MATRIX` writes them.
    public var description: String {
        [a, b, c, d, e, f].map { String($0) }.joined(separator: " ")
    }

    /// Parses a `LIBINPUT_CALIBRATION_MATRIX` value: six numbers separated by spaces or tabs.
    ///
    /// - Throws: ``CalibrationError`` when there are not exactly six finite numbers.
    public static func parse(udevProperty text: String) throws(CalibrationError) -> CalibrationMatrix {
        let fields = text.fields()
        guard fields.count == 6 else {
            throw CalibrationError(
                source: "LIBINPUT_CALIBRATION_MATRIX", text: text,
                problem: "expected 6 numbers 'a b c d e f', found \(fields.count) fields")
        }
        var values: [Double] = []
        for field in fields {
            guard let value = Double(field), value.isFinite else {
                throw CalibrationError(
                    source: "LIBINPUT_CALIBRATION_MATRIX", text: text, problem: "'\(field)' is not a finite number")
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

/// A calibration that could not be read: where it came from, the text, and what is wrong.
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `LIBINPUT_CALIBRATION_MATRIX` or `pointercal`.
    public var source: String
    /// The text that was read.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    /// An error about `text` from `source`.
    public init(source: String, text: String, problem: String) {
        self.source = source
        self.text = text
        self.problem = problem
    }

    /// One line: the source, the text and the problem.
    public var description: String {
        "\(source) '\(RecordingError.abbreviated(text))': \(problem)"
    }
}
