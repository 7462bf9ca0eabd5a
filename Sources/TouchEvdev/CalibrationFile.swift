import TouchCore

/// A calibration file: the matrix a calibration session fitted, which a `[[device]]` entry's
/// `calibration_file` names and touchd writes (in its state directory, `/var/lib/touchd`).
///
/// Lines of a keyword and its values, separated by spaces; `#` starts a comment line; blank lines
/// are ignored:
///
///     # touchd calibration
///     version 1
///     matrix 1.0213 0.0104 -0.0117 -0.0051 0.9786 0.0252
///     device 1234:0001/vm touchscreen
///     residual_mm 0.31 0.42 0.2 0.18 0.25
///
/// `version 1` comes first. `matrix` (required) is the ``CalibrationMatrix``'s six coefficients in
/// udev's order, each within ``TouchCore/Limits/calibrationCoefficient``. `device` (the device the
/// session calibrated) and `residual_mm` (how far each calibration point landed from its target,
/// in millimetres, at most ``TouchCore/Limits/maximumCalibrationPoints`` of them within
/// ``TouchCore/Limits/millimetres``) are for people: touchd checks them and uses only the matrix.
public struct CalibrationFile: Hashable, Sendable {
    /// The matrix, applied as a layout's `calibration` is.
    public var matrix: CalibrationMatrix
    /// The device's identity when it was calibrated.
    public var device: String?
    /// Each calibration point's residual: how far its touch lands from its target.
    public var residualsMillimetres: [Millimetres]

    public init(matrix: CalibrationMatrix, device: String? = nil, residualsMillimetres: [Millimetres] = []) {
        self.matrix = matrix
        self.device = device
        self.residualsMillimetres = residualsMillimetres
    }

    /// What a calibration file is called in errors.
    public static let source = "calibration file"

    /// The file's text, which ``parse(_:)`` reads back whenever the matrix is within
    /// ``TouchCore/Limits/calibrationCoefficient`` (a fitted one always is): what the reader would
    /// refuse is left out or brought into its domain here. The device's identity loses its control
    /// characters and is cut to ``TouchCore/Limits/maximumDeviceNameBytes`` (a name the line cannot
    /// carry as it is becomes its ASCII form, `?` for the rest, or is left out); the residuals keep
    /// their first ``TouchCore/Limits/maximumCalibrationPoints``, each brought into
    /// ``TouchCore/Limits/millimetres`` (none when one is not a number).
    public var text: String {
        let residuals = Self.writableResiduals(residualsMillimetres)
        let name = device.flatMap(Self.writableName)
        for candidate in [name, Self.asciiForm(name), nil] as [String?] {
            let text = Self.text(matrix: matrix, device: candidate, residuals: residuals)
            if candidate == nil || (try? Self.parse(text))?.device == candidate { return text }
        }
        return Self.text(matrix: matrix, device: nil, residuals: residuals)
    }

    private static func text(matrix: CalibrationMatrix, device: String?, residuals: [Millimetres]) -> String {
        var lines = [
            "# touchd calibration: written by a calibration session (touchctl calibrate), read through",
            "# the calibration_file of a [[device]] entry of the layout (docs/layout.md).",
            "version 1",
            "matrix " + matrix.description,
        ]
        if let device { lines.append("device " + device) }
        if !residuals.isEmpty { lines.append("residual_mm " + residuals.map { String($0.value) }.joined(separator: " ")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A device identity as the `device` line carries it: without control characters or outer
    /// spaces, at most ``TouchCore/Limits/maximumDeviceNameBytes`` (cut between characters), or
    /// `nil` when nothing is left.
    static func writableName(_ name: String) -> String? {
        var kept = String.UnicodeScalarView(name.unicodeScalars.filter { !Identifier.isControl($0) })
        var text = String(kept).trimmingSpaces()
        while text.utf8.count > Limits.maximumDeviceNameBytes {
            kept = String.UnicodeScalarView(text.unicodeScalars.dropLast())
            text = String(kept).trimmingSpaces()
        }
        return text.isEmpty ? nil : text
    }

    /// A name with every scalar outside printable ASCII written as `?`.
    static func asciiForm(_ name: String?) -> String? {
        guard let name else { return nil }
        let ascii = String(String.UnicodeScalarView(name.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? $0 : "?" })).trimmingSpaces()
        return ascii.isEmpty ? nil : ascii
    }

    /// The residuals the `residual_mm` line carries: the first
    /// ``TouchCore/Limits/maximumCalibrationPoints``, each within ``TouchCore/Limits/millimetres``;
    /// none when one is not a number.
    static func writableResiduals(_ residuals: [Millimetres]) -> [Millimetres] {
        let domain = Limits.millimetres.range
        let first = residuals.prefix(Limits.maximumCalibrationPoints)
        guard !first.contains(where: \.value.isNaN) else { return [] }
        return first.map { Millimetres(min(max($0.value, domain.lowerBound), domain.upperBound)) }
    }

    /// Reads a calibration file's text.
    /// - Throws: ``CalibrationError`` naming the line and field at fault and what was expected
    ///   there (never the text): a missing or other `version`, a missing `matrix`, a keyword given
    ///   twice or unknown, a number out of its domain.
    public static func parse(_ text: String) throws(CalibrationError) -> CalibrationFile {
        var reader = Reader()
        for (number, line) in TextLines(text) {
            let content = line.trimmingLeadingSpaces()
            guard !content.isEmpty, !content.hasPrefix("#") else { continue }
            try reader.read(content, line: number)
        }
        guard reader.version != nil, let matrix = reader.matrix else {
            throw CalibrationError(source: source, expected: reader.version == nil ? "'version 1' first" : "a 'matrix a b c d e f' line")
        }
        return CalibrationFile(matrix: matrix, device: reader.device, residualsMillimetres: reader.residuals ?? [])
    }

    /// The state of reading a file, keyword by keyword.
    private struct Reader {
        var version: Int?
        var matrix: CalibrationMatrix?
        var device: String?
        var residuals: [Millimetres]?

        mutating func read(_ content: Substring, line: Int) throws(CalibrationError) {
            let fields = content.fields()
            let keyword = String(fields[0])
            let values = Array(fields.dropFirst())
            guard version != nil || keyword == "version" else { throw error(line, field: 1, "'version 1' first") }
            switch keyword {
            case "version":
                guard version == nil else { throw error(line, field: 1, "'version' once") }
                guard values.count == 1, values[0] == "1" else { throw error(line, field: 2, "version 1 (the only version there is)") }
                version = 1
            case "matrix":
                guard matrix == nil else { throw error(line, field: 1, "'matrix' once") }
                let numbers = try Self.numbers(values, count: 6...6, in: Limits.calibrationCoefficient, line: line, what: "6 coefficients a b c d e f")
                let read = CalibrationMatrix(a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
                guard !read.flattensThePlane else {
                    throw error(line, field: 2, "a matrix that keeps the plane (a·e − b·d other than 0), not one that maps the screen onto a line")
                }
                matrix = read
            case "device":
                guard device == nil else { throw error(line, field: 1, "'device' once") }
                let name = String(content.dropFirst(keyword.utf8.count)).trimmingSpaces()
                guard !name.isEmpty, name.utf8.count <= Limits.maximumDeviceNameBytes else {
                    throw error(line, field: 2, "the device's identity, 1 to \(Limits.maximumDeviceNameBytes) bytes")
                }
                device = name
            case "residual_mm":
                guard residuals == nil else { throw error(line, field: 1, "'residual_mm' once") }
                residuals = try Self.numbers(
                    values, count: 1...Limits.maximumCalibrationPoints, in: Limits.millimetres, line: line,
                    what: "1 to \(Limits.maximumCalibrationPoints) residuals"
                ).map(Millimetres.init(_:))
            default:
                throw error(line, field: 1, "version, matrix, device or residual_mm")
            }
        }

        private static func numbers(
            _ values: [Substring], count: ClosedRange<Int>, in domain: NumberDomain, line: Int, what: String
        ) throws(CalibrationError) -> [Double] {
            guard count.contains(values.count) else {
                throw CalibrationError(source: CalibrationFile.source, line: line, expected: "\(what) (found \(values.count))")
            }
            var numbers: [Double] = []
            for (index, value) in values.enumerated() {
                guard value.utf8.count <= 64, let number = Double(value), domain.contains(number) else {
                    throw CalibrationError(source: CalibrationFile.source, line: line, field: index + 2, expected: "\(domain)")
                }
                numbers.append(number)
            }
            return numbers
        }

        private func error(_ line: Int, field: Int, _ expected: String) -> CalibrationError {
            CalibrationError(source: CalibrationFile.source, line: line, field: field, expected: expected)
        }
    }
}
