import Testing
import TouchCore
@testable import TouchEvdev

/// The calibration file: written and read back exactly, and every problem refused with its line,
/// field and what was expected, never with what the file holds.
@Suite(.timeLimit(.minutes(10))) struct CalibrationFileTests {
    @Test func aFileReadsBackAsItWasWritten() throws {
        let file = CalibrationFile(
            matrix: CalibrationMatrix(a: 1.0213456789, b: 0.0104, c: -0.0117, d: -5e-7, e: 0.9786, f: 0.0252),
            device: "1234:0001/vm touchscreen", residualsMillimetres: [0.31, 0.42, 0.2, 0.18, 0.25])
        #expect(try CalibrationFile.parse(file.text) == file)
        #expect(file.text.contains("\nversion 1\nmatrix 1.0213456789 0.0104 -0.0117 -5e-07 0.9786 0.0252\n"))
    }

    @Test func onlyTheMatrixIsNeeded() throws {
        let file = try CalibrationFile.parse("# by hand\n\nversion 1\n  matrix 1 0 0 0 1 0\n")
        #expect(file == CalibrationFile(matrix: .identity))
    }

    @Test func problemsNameTheLineAndFieldNeverTheText() {
        let cases: [(String, CalibrationError)] = [
            ("matrix 1 0 0 0 1 0\n", CalibrationError(source: "calibration file", line: 1, field: 1, expected: "'version 1' first")),
            ("version 2\n", CalibrationError(source: "calibration file", line: 1, field: 2, expected: "version 1 (the only version there is)")),
            ("version 1\n", CalibrationError(source: "calibration file", expected: "a 'matrix a b c d e f' line")),
            ("version 1\nmatrix 1 0 0 0 1\n", CalibrationError(source: "calibration file", line: 2, expected: "6 coefficients a b c d e f (found 5)")),
            ("version 1\nmatrix 1 0 secret 0 1 0\n", CalibrationError(source: "calibration file", line: 2, field: 4, expected: "\(Limits.calibrationCoefficient)")),
            ("version 1\nmatrix 1 0 0 0 1 nan\n", CalibrationError(source: "calibration file", line: 2, field: 7, expected: "\(Limits.calibrationCoefficient)")),
            ("version 1\nmatrix 1 0 0 0 1 2e6\n", CalibrationError(source: "calibration file", line: 2, field: 7, expected: "\(Limits.calibrationCoefficient)")),
            ("version 1\nmatrix 1 0 0 0 1 0\nmatrix 1 0 0 0 1 0\n", CalibrationError(source: "calibration file", line: 3, field: 1, expected: "'matrix' once")),
            (
                "version 1\nmatrix 1 1 0 1 1 0\n",
                CalibrationError(
                    source: "calibration file", line: 2, field: 2,
                    expected: "a matrix that keeps the plane (a·e − b·d other than 0), not one that maps the screen onto a line")
            ),
            ("version 1\nmatrix 1 0 0 0 1 0\nresidual_mm -1\n", CalibrationError(source: "calibration file", line: 3, field: 2, expected: "\(Limits.millimetres)")),
            ("version 1\npassword hunter2\n", CalibrationError(source: "calibration file", line: 2, field: 1, expected: "version, matrix, device or residual_mm")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.debugDescription)") { try CalibrationFile.parse(text) }
            do {
                _ = try CalibrationFile.parse(text)
            } catch {
                #expect(!"\(error)".contains("secret") && !"\(error)".contains("hunter2"))
            }
        }
    }
}
