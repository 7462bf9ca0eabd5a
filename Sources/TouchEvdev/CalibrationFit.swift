import TouchCore

/// Why a calibration could not be fitted: what is wrong with the points, in words an installer
/// can act on.
public struct CalibrationFitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// The least-squares affine ``CalibrationMatrix`` that takes where a device reported touches to
/// where they were meant to land, as `ts_calibrate` and libinput's calibration tools fit theirs.
///
/// Each output coordinate is fitted on its own (`x' = a·x + b·y + c` and `y' = d·x + e·y + f`),
/// minimising the sum of squared differences. The points are centred first (the constant terms
/// then separate out), so the fit is well conditioned whatever the coordinates' offset.
///
/// Refused, with a ``CalibrationFitError`` saying why: fewer than 3 points; reported points or
/// targets that lie on one line (or on one point), which leave the matrix undetermined; touches
/// that spread less than ``TouchCore/Limits/minimumCalibrationSpread`` as far as their targets
/// (huddled in one spot: the matrix would mean nothing); a matrix
/// that collapses the plane (no point could be told from another) or has a coefficient outside
/// ``TouchCore/Limits/calibrationCoefficient``.
public enum CalibrationFit {
    /// How thin, relative to its extent, a set of points may be before it counts as one line: the
    /// ratio of the smaller to the larger spread (eigenvalues of its covariance) below this.
    public static let collinearRatio = 1e-4

    /// Fits the matrix taking each `from` to its `to` (both normalised, finite).
    /// - Throws: ``CalibrationFitError``.
    public static func fit(_ pairs: [(from: Point, to: Point)]) throws(CalibrationFitError) -> CalibrationMatrix {
        guard pairs.count >= 3 else {
            throw CalibrationFitError("\(pairs.count) point\(pairs.count == 1 ? "" : "s"): expected at least 3, not on one line (5 are usual)")
        }
        guard pairs.allSatisfy({ $0.from.x.isFinite && $0.from.y.isFinite && $0.to.x.isFinite && $0.to.y.isFinite }) else {
            throw CalibrationFitError("a point is not a finite number: expected finite coordinates")
        }
        let from = Spread(pairs.map(\.from))
        guard !from.isOnOneLine else {
            throw CalibrationFitError("the touches lie on one line (or one point): expected touches spread over the screen, not on one line")
        }
        let to = Spread(pairs.map(\.to))
        guard !to.isOnOneLine else {
            throw CalibrationFitError("the targets lie on one line (or one point): expected targets spread over the screen, not on one line")
        }
        guard from.radius >= Limits.minimumCalibrationSpread * to.radius else {
            throw CalibrationFitError(
                "the touches spread over \(formatNumber(from.radius * 100))% of the device's range, their targets over \(formatNumber(to.radius * 100))%: "
                    + "expected touches spread at least \(formatNumber(Limits.minimumCalibrationSpread * 100))% as far as their targets (a touch on each target)")
        }
        let (a, b, c) = from.solve(pairs.map(\.to.x))
        let (d, e, f) = from.solve(pairs.map(\.to.y))
        let matrix = CalibrationMatrix(a: a, b: b, c: c, d: d, e: e, f: f)
        guard !matrix.flattensThePlane else {
            throw CalibrationFitError("the fitted matrix collapses the screen onto a line: expected touches that moved with their targets")
        }
        if let index = matrix.firstCoefficientOutsideDomain {
            throw CalibrationFitError("coefficient \(index) of the fitted matrix is not \(Limits.calibrationCoefficient): expected touches near their targets")
        }
        return matrix
    }

    /// Where `matrix` puts each `from`, less its `to`: the residual of each point, normalised.
    public static func residuals(of matrix: CalibrationMatrix, _ pairs: [(from: Point, to: Point)]) -> [Point] {
        pairs.map { pair in
            let landed = matrix.apply(to: pair.from)
            return Point(x: landed.x - pair.to.x, y: landed.y - pair.to.y)
        }
    }

    /// The points' mean and second moments about it.
    private struct Spread {
        let points: [Point]
        let mean: Point
        let xx: Double
        let xy: Double
        let yy: Double

        init(_ points: [Point]) {
            self.points = points
            let n = Double(points.count)
            let mean = Point(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n)
            var (xx, xy, yy) = (0.0, 0.0, 0.0)
            for p in points {
                let (dx, dy) = (p.x - mean.x, p.y - mean.y)
                xx += dx * dx
                xy += dx * dy
                yy += dy * dy
            }
            self.mean = mean
            (self.xx, self.xy, self.yy) = (xx, xy, yy)
        }

        /// The root mean square of the points' distances from their mean.
        var radius: Double { ((xx + yy) / Double(points.count)).squareRoot() }

        /// Whether the smaller spread is negligible beside the larger: λmin·λmax / (λmin + λmax)²
        /// (the determinant over the trace squared) is about λmin / λmax when that is small.
        var isOnOneLine: Bool {
            let trace = xx + yy
            guard trace > 0, trace.isFinite else { return true }
            return (xx * yy - xy * xy) / (trace * trace) < CalibrationFit.collinearRatio
        }

        /// The least-squares `(p, q, r)` with `value ≈ p·x + q·y + r` over the points.
        func solve(_ values: [Double]) -> (Double, Double, Double) {
            let meanValue = values.reduce(0, +) / Double(values.count)
            var (xv, yv) = (0.0, 0.0)
            for (point, value) in zip(points, values) {
                xv += (point.x - mean.x) * (value - meanValue)
                yv += (point.y - mean.y) * (value - meanValue)
            }
            let determinant = xx * yy - xy * xy
            let p = (xv * yy - yv * xy) / determinant
            let q = (yv * xx - xv * xy) / determinant
            return (p, q, meanValue - p * mean.x - q * mean.y)
        }
    }
}

extension MappingTransform {
    /// The inverse of the orientation (rotation, swap, inversion) on a normalised point: where the
    /// calibration must put a contact for the orientation to take it to `point`. The calibration
    /// and clamping are not undone.
    public func unoriented(_ point: Point) -> Point {
        var p = point
        if invertsY { p.y = 1 - p.y }
        if invertsX { p.x = 1 - p.x }
        if swapsAxes { p = Point(x: p.y, y: p.x) }
        return (Rotation(degrees: (360 - rotation.degrees) % 360) ?? .none).apply(to: p)
    }
}
