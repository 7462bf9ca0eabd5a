import Testing
import TouchCore
@testable import TouchEvdev

/// The least-squares fit: a known affine matrix recovered exactly, noise spread as least squares
/// spreads it, and point sets that determine nothing refused with a reason.
@Suite(.timeLimit(.minutes(10))) struct CalibrationFitTests {
    static let skew = CalibrationMatrix(a: 1.04, b: 0.03, c: -0.021, d: -0.02, e: 0.97, f: 0.035)
    /// ts_calibrate's five targets, normalised.
    static let targets = [Point(x: 0.1, y: 0.1), Point(x: 0.9, y: 0.1), Point(x: 0.9, y: 0.9), Point(x: 0.1, y: 0.9), Point(x: 0.5, y: 0.5)]

    /// Points a panel distorted by `skew` reports for each target, and the matrix undoing it.
    static func pairs(noise: [Point] = []) -> (pairs: [(from: Point, to: Point)], expected: CalibrationMatrix) {
        // The panel reports skew(target); the calibration maps reports back: its inverse.
        let m = skew
        let det = m.a * m.e - m.b * m.d
        let inverse = CalibrationMatrix(
            a: m.e / det, b: -m.b / det, c: (m.b * m.f - m.e * m.c) / det,
            d: -m.d / det, e: m.a / det, f: (m.d * m.c - m.a * m.f) / det)
        let pairs = targets.enumerated().map { i, target in
            let reported = skew.apply(to: target)
            let jitter = i < noise.count ? noise[i] : Point(x: 0, y: 0)
            return (from: Point(x: reported.x + jitter.x, y: reported.y + jitter.y), to: target)
        }
        return (pairs, inverse)
    }

    @Test func aKnownAffineMatrixIsRecoveredExactlyFromNoiselessPoints() throws {
        let (pairs, expected) = Self.pairs()
        let fitted = try CalibrationFit.fit(pairs)
        for (got, want) in zip(fitted.coefficients, expected.coefficients) { #expect(abs(got - want) < 1e-12, "\(fitted) vs \(expected)") }
        for residual in CalibrationFit.residuals(of: fitted, pairs) { #expect(abs(residual.x) < 1e-12 && abs(residual.y) < 1e-12) }
    }

    /// With noise, the residuals are what least squares leaves: they sum to zero and are
    /// uncorrelated with the reported coordinates (the normal equations), and none exceeds what the
    /// noise put in.
    @Test func noiseLeavesLeastSquaresResiduals() throws {
        let noise = [Point(x: 0.004, y: -0.003), Point(x: -0.002, y: 0.005), Point(x: 0.003, y: 0.001), Point(x: -0.005, y: -0.002), Point(x: 0.001, y: 0.004)]
        let (pairs, expected) = Self.pairs(noise: noise)
        let fitted = try CalibrationFit.fit(pairs)
        let residuals = CalibrationFit.residuals(of: fitted, pairs)
        #expect(abs(residuals.reduce(0) { $0 + $1.x }) < 1e-12 && abs(residuals.reduce(0) { $0 + $1.y }) < 1e-12)
        for input in [\Point.x, \Point.y] {
            for output in [\Point.x, \Point.y] {
                let correlation = zip(pairs, residuals).reduce(0.0) { $0 + $1.0.from[keyPath: input] * $1.1[keyPath: output] }
                #expect(abs(correlation) < 1e-12)
            }
        }
        let largest = residuals.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }.max() ?? 0
        #expect(largest > 1e-4 && largest < 0.012, "residuals \(residuals)")
        // The fit beats the exact inverse on these points: least squares is least.
        let exact = CalibrationFit.residuals(of: expected, pairs).reduce(0.0) { $0 + $1.x * $1.x + $1.y * $1.y }
        #expect(residuals.reduce(0.0) { $0 + $1.x * $1.x + $1.y * $1.y } <= exact)
    }

    @Test func fewerThanThreePointsAreRefused() {
        let (pairs, _) = Self.pairs()
        #expect(throws: CalibrationFitError("2 points: expected at least 3, not on one line (5 are usual)")) {
            try CalibrationFit.fit(Array(pairs.prefix(2)))
        }
    }

    @Test func touchesOnOneLineAreRefused() {
        let line = (0..<5).map { i in (from: Point(x: 0.1 + 0.2 * Double(i), y: 0.5), to: Self.targets[i]) }
        #expect(throws: CalibrationFitError("the touches lie on one line (or one point): expected touches spread over the screen, not on one line")) {
            try CalibrationFit.fit(line)
        }
        let onePoint = Self.targets.map { (from: Point(x: 0.3, y: 0.3), to: $0) }
        #expect(throws: CalibrationFitError.self) { try CalibrationFit.fit(onePoint) }
    }

    @Test func targetsOnOneLineAreRefused() {
        let targets = (0..<4).map { i in (from: Self.targets[i], to: Point(x: 0.2 * Double(i), y: 0.2 * Double(i))) }
        #expect(throws: CalibrationFitError("the targets lie on one line (or one point): expected targets spread over the screen, not on one line")) {
            try CalibrationFit.fit(targets)
        }
    }

    @Test func aMatrixOutOfItsDomainIsRefused() {
        // Touches a hair apart meant for targets across the screen: a matrix of millions.
        let tiny = Self.targets.map { (from: Point(x: $0.x * 1e-7, y: $0.y * 1e-7), to: $0) }
        #expect(throws: CalibrationFitError.self) { try CalibrationFit.fit(tiny) }
    }

    @Test func theOrientationIsUndone() {
        for rotation in Rotation.allCases {
            for swap in [false, true] {
                for invertX in [false, true] {
                    let transform = MappingTransform(rotation: rotation, swapsAxes: swap, invertsX: invertX, invertsY: !invertX)
                    let point = Point(x: 0.2, y: 0.7)
                    let back = transform.apply(to: transform.unoriented(point))
                    #expect(abs(back.x - point.x) < 1e-12 && abs(back.y - point.y) < 1e-12, "\(transform)")
                }
            }
        }
    }
}
