import TouchCore
import TouchEvdev

/// Why a calibration session cannot do what was asked: a sentence saying what was expected.
public struct CalibrationSessionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One touch device's calibration: targets on its window, the touches made for them, and the
/// least-squares matrix (``TouchEvdev/CalibrationFit``) that takes each touch to its target.
///
/// The device's raw contacts (device units, from the frame assembler, before any mapping) come in
/// through ``observe(_:)``: each touch-down is told at once, and each touch that lifts becomes a
/// *sample* at the median of the positions it reported while down (a finger rolls a little as it
/// lands and lifts). Whoever shows the targets says which target each sample was for
/// (``assign(sample:toTarget:)``); once every target has one, ``fit()`` gives the matrix, where each
/// touch now lands and how far from its target, in millimetres of the window's display.
///
/// The fit is made in the space the calibration matrix works in (normalised device coordinates,
/// before the entry's rotation, swap and inversion): a target's window point is taken back through
/// the region and the orientation (``TouchEvdev/MappingTransform/unoriented(_:)``), so the matrix
/// replaces whatever calibration the entry had, and the orientation still applies after it.
public struct CalibrationSession: Sendable {
    /// A lifted touch: where it was (median of its positions, device units) and when it lifted.
    public struct Sample: Hashable, Sendable {
        /// Its number in the session, from 1.
        public var number: Int
        public var x: Int32
        public var y: Int32
        public var time: EventTime

        public init(number: Int, x: Int32, y: Int32, time: EventTime) {
            self.number = number
            self.x = x
            self.y = y
            self.time = time
        }
    }

    /// What a frame told the session.
    public enum Observation: Hashable, Sendable {
        /// A finger landed (its raw position, device units).
        case touchDown(contact: UInt64, x: Int32, y: Int32, time: EventTime)
        /// A finger lifted: a new sample.
        case sample(Sample)
    }

    /// The fraction of the region's width and height the default targets keep from its edges.
    public static let targetInset = 0.1

    /// The device's identity.
    public let deviceID: String
    /// The window its touches go to.
    public let window: ResponderID
    /// The device's mapping as it is now (axes, orientation, region, density).
    public let mapping: DeviceMapping
    /// The targets, in window points.
    public let targets: [Point]
    /// The samples not yet forgotten, by number.
    public private(set) var samples: [Int: Sample] = [:]
    /// The sample assigned to each target, by target index.
    public private(set) var assignments: [Int: Int] = [:]
    private var strokes: [UInt64: (xs: [Int32], ys: [Int32])] = [:]
    private var nextSample = 1

    /// `ts_calibrate`'s five targets in `region`: its corners, ``targetInset`` inside, clockwise from
    /// the top left, then its centre.
    public static func defaultTargets(in region: Rect) -> [Point] {
        let (dx, dy) = (region.width * targetInset, region.height * targetInset)
        return [
            Point(x: region.minX + dx, y: region.minY + dy), Point(x: region.maxX - dx, y: region.minY + dy),
            Point(x: region.maxX - dx, y: region.maxY - dy), Point(x: region.minX + dx, y: region.maxY - dy),
            region.center,
        ]
    }

    /// A session for the device `pipeline` decodes, with `targets` (window points; default:
    /// ``defaultTargets(in:)`` of the device's region).
    /// - Throws: ``CalibrationSessionError`` for fewer than 3 or more than
    ///   ``TouchCore/Limits/maximumCalibrationPoints`` targets, or one outside the device's region
    ///   (no calibration could bring a touch there).
    public init(pipeline: TouchDevicePipeline, targets: [Point]? = nil) throws(CalibrationSessionError) {
        let region = pipeline.mapping.target.effectiveRegion
        let chosen = targets ?? Self.defaultTargets(in: region)
        guard (3...Limits.maximumCalibrationPoints).contains(chosen.count) else {
            throw CalibrationSessionError("\(chosen.count) targets: expected 3 to \(Limits.maximumCalibrationPoints) (5 are usual)")
        }
        for (index, target) in chosen.enumerated() where !region.contains(target) {
            throw CalibrationSessionError(
                "target \(index) at (\(formatNumber(target.x)), \(formatNumber(target.y))) is outside the device's region "
                    + "[\(formatNumber(region.minX)), \(formatNumber(region.minY)), \(formatNumber(region.width)), \(formatNumber(region.height))]: expected targets inside it")
        }
        deviceID = pipeline.deviceID
        window = pipeline.window
        mapping = pipeline.mapping
        self.targets = chosen
    }

    /// Takes a raw frame of the device: touch-downs are told at once; a touch that lifts becomes a
    /// sample (one that was cancelled, a palm, does not; nor one that was down before the session).
    /// Past ``TouchCore/Limits/maximumCalibrationSamples`` samples, further touches are ignored.
    public mutating func observe(_ frame: ContactFrame) -> [Observation] {
        var seen: [Observation] = []
        for contact in frame.contacts {
            switch contact.phase {
            case .began:
                guard nextSample <= Limits.maximumCalibrationSamples else { continue }
                strokes[contact.id] = ([contact.x], [contact.y])
                seen.append(.touchDown(contact: contact.id, x: contact.x, y: contact.y, time: frame.time))
            case .moved, .stationary:
                guard var stroke = strokes[contact.id], stroke.xs.count < ContactSizeSurvey.maximumSamplesPerContact else { continue }
                stroke.xs.append(contact.x)
                stroke.ys.append(contact.y)
                strokes[contact.id] = stroke
            case .ended:
                guard let stroke = strokes.removeValue(forKey: contact.id) else { continue }
                let sample = Sample(number: nextSample, x: Self.median(stroke.xs), y: Self.median(stroke.ys), time: frame.time)
                nextSample += 1
                samples[sample.number] = sample
                seen.append(.sample(sample))
            case .cancelled:
                strokes[contact.id] = nil
            }
        }
        return seen
    }

    /// Says which target a sample was for (replacing the target's earlier sample, if any).
    /// - Throws: ``CalibrationSessionError`` for an unknown sample or target.
    public mutating func assign(sample: Int, toTarget target: Int) throws(CalibrationSessionError) {
        guard samples[sample] != nil else {
            throw CalibrationSessionError("no sample \(sample) in this session: expected the number of a calibration_sample message")
        }
        guard targets.indices.contains(target) else {
            throw CalibrationSessionError("no target \(target): expected 0 to \(targets.count - 1)")
        }
        assignments[target] = sample
    }

    /// The fit, once every target has a sample.
    /// - Throws: ``CalibrationSessionError`` naming the targets without a sample, or why the points
    ///   cannot be fitted (``TouchEvdev/CalibrationFitError``).
    public func fit() throws(CalibrationSessionError) -> CalibrationOutcome {
        let missing = targets.indices.filter { assignments[$0] == nil }
        guard missing.isEmpty else {
            throw CalibrationSessionError(
                "target\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) "
                    + "\(missing.count == 1 ? "has" : "have") no touch yet: expected a sample for each of the \(targets.count) targets")
        }
        let chosen = targets.indices.compactMap { index in assignments[index].flatMap { samples[$0] }.map { (index, $0) } }
        return try Self.fit(chosen.map { (target: targets[$0.0], targetIndex: $0.0, sample: $0.1) }, mapping: mapping)
    }

    /// Fits the matrix for samples paired with their targets (window points), against `mapping`'s
    /// axes, orientation, region and density: what ``fit()`` and an offline fit from a recording do.
    /// - Throws: ``CalibrationSessionError`` when the points cannot be fitted, or when a touch lands
    ///   farther than ``TouchCore/Limits/maximumCalibrationResidual`` from its target with the fit.
    public static func fit(_ points: [(target: Point, targetIndex: Int, sample: Sample)], mapping: DeviceMapping) throws(CalibrationSessionError)
        -> CalibrationOutcome
    {
        let region = mapping.target.effectiveRegion
        let pairs = points.map { point in
            let normal = Point(x: (point.target.x - region.minX) / region.width, y: (point.target.y - region.minY) / region.height)
            return (from: normalised(point.sample, mapping.axes), to: mapping.transform.unoriented(normal))
        }
        let matrix: CalibrationMatrix
        do {
            matrix = try CalibrationFit.fit(pairs)
        } catch {
            throw CalibrationSessionError(error.description)
        }
        var transform = mapping.transform
        transform.calibration = matrix
        let fitted = DeviceMapping(axes: mapping.axes, transform: transform, target: mapping.target)
        let density = mapping.target.pointsPerMillimetre
        let results = points.map { point in
            let landed = fitted.location(x: point.sample.x, y: point.sample.y)
            let distance = ((landed.x - point.target.x) * (landed.x - point.target.x) + (landed.y - point.target.y) * (landed.y - point.target.y)).squareRoot()
            return CalibrationOutcome.Point(
                targetIndex: point.targetIndex, target: point.target, sample: point.sample, landed: landed,
                residualMillimetres: Millimetres(points: distance, pointsPerMillimetre: density))
        }
        let outcome = CalibrationOutcome(matrix: matrix, points: results)
        if let worst = outcome.points.max(by: { $0.residualMillimetres < $1.residualMillimetres }),
            !(worst.residualMillimetres.value <= Limits.maximumCalibrationResidual)
        {
            throw CalibrationSessionError(
                "the touch for target \(worst.targetIndex) lands \(formatNumber(worst.residualMillimetres.value)) mm from it with the fitted matrix: "
                    + "expected every touch within \(formatNumber(Limits.maximumCalibrationResidual)) mm of its target (touch each target in turn, then calibrate again)")
        }
        return outcome
    }

    /// A sample's position normalised through the device's axes.
    static func normalised(_ sample: Sample, _ axes: MappingAxes) -> Point {
        func normal(_ value: Int32, _ axis: AbsInfo) -> Double {
            guard axis.maximum != axis.minimum else { return 0.5 }
            return (Double(value) - Double(axis.minimum)) / (Double(axis.maximum) - Double(axis.minimum))
        }
        return Point(x: normal(sample.x, axes.x), y: normal(sample.y, axes.y))
    }

    /// The median of raw values (the lower middle one for an even count).
    static func median(_ values: [Int32]) -> Int32 {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
    }
}

/// What a calibration gave: the matrix, and for each target where its touch lands now.
public struct CalibrationOutcome: Hashable, Sendable {
    /// One target's result.
    public struct Point: Hashable, Sendable {
        /// The target's index in the session.
        public var targetIndex: Int
        /// The target, in window points.
        public var target: TouchCore.Point
        /// The touch made for it.
        public var sample: CalibrationSession.Sample
        /// Where that touch lands with the new matrix, in window points.
        public var landed: TouchCore.Point
        /// The distance from ``landed`` to ``target`` on the window's display.
        public var residualMillimetres: Millimetres
    }

    /// The fitted matrix.
    public var matrix: CalibrationMatrix
    /// Each target's result, in target order.
    public var points: [Point]

    /// The largest residual.
    public var worstResidualMillimetres: Millimetres { points.map(\.residualMillimetres).max() ?? 0 }
    /// The mean residual.
    public var meanResidualMillimetres: Millimetres {
        points.isEmpty ? 0 : points.map(\.residualMillimetres).reduce(0, +) / Double(points.count)
    }

    /// The calibration file that keeps this outcome for `device`.
    public func file(device: String) -> CalibrationFile {
        CalibrationFile(
            matrix: matrix, device: device, residualsMillimetres: points.map { Millimetres(($0.residualMillimetres.value * 1000).rounded() / 1000) })
    }
}
