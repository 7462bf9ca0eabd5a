import Testing
import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

private typealias EventType = TouchEvdev.EventType

/// A calibration session on a skewed panel: its touches become samples, samples are assigned to
/// targets, and the fit brings every touch back onto its target, whatever the entry's orientation.
@Suite(.timeLimit(.minutes(10))) struct CalibrationSessionTests {
    /// A 4095 × 2559 panel at 16 units/mm that reports a point `skew` away from where it was touched.
    static let skew = CalibrationMatrix(a: 1.05, b: 0.04, c: -0.03, d: -0.03, e: 0.96, f: 0.05)

    static func panel() -> DeviceDescription {
        DeviceDescription(
            name: "skewed panel", properties: [InputProperty.direct],
            codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2559, resolution: 16),
            ])
    }

    static func pipeline(_ spec: DeviceSpec = DeviceSpec(window: "main")) throws -> TouchDevicePipeline {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: 1280, height: 800), pointsPerMillimetre: 5))
        return try TouchDevicePipeline(deviceID: "panel", description: panel(), spec: spec, tree: tree)
    }

    /// What the panel reports for a finger on window point `point` of a pipeline whose entry turns
    /// the panel by `transform`'s orientation: the raw position, distorted by `skew`.
    static func raw(for point: Point, _ pipeline: TouchDevicePipeline) -> (Int32, Int32) {
        let region = pipeline.mapping.target.effectiveRegion
        let intended = pipeline.mapping.transform.unoriented(Point(x: (point.x - region.minX) / region.width, y: (point.y - region.minY) / region.height))
        let reported = skew.apply(to: intended)
        return (Int32((reported.x * 4095).rounded()), Int32((reported.y * 2559).rounded()))
    }

    /// A tap with tracking id `id` at raw (x, y), wobbling a little, from `ms` on.
    static func tap(id: Int32, at raw: (Int32, Int32), ms: Int64) -> [InputEvent] {
        func event(_ at: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: EventTime(microseconds: 1_000_000 + at * 1000), type: type, code: code, value: value)
        }
        func report(_ at: Int64) -> InputEvent { event(at, EventType.syn, SynCode.report, 0) }
        var events = [
            event(ms, EventType.abs, AbsCode.mtTrackingID, id), event(ms, EventType.abs, AbsCode.mtPositionX, raw.0 + 9),
            event(ms, EventType.abs, AbsCode.mtPositionY, raw.1 - 7), report(ms),
        ]
        for (i, wobble) in [(1, 0), (0, 2), (-1, -1), (0, 0)].enumerated() {
            let at = ms + 10 * Int64(i + 1)
            events += [event(at, EventType.abs, AbsCode.mtPositionX, raw.0 + Int32(wobble.0)), event(at, EventType.abs, AbsCode.mtPositionY, raw.1 + Int32(wobble.1)), report(at)]
        }
        return events + [event(ms + 60, EventType.abs, AbsCode.mtTrackingID, -1), report(ms + 60)]
    }

    /// Runs a session through taps on every target, assigning each sample as it comes.
    static func calibrate(_ spec: DeviceSpec) throws -> (CalibrationSession, CalibrationOutcome, TouchDevicePipeline) {
        var pipeline = try pipeline(spec)
        var session = try CalibrationSession(pipeline: pipeline)
        pipeline.hold(true)
        for (index, target) in session.targets.enumerated() {
            for event in tap(id: Int32(index + 1), at: raw(for: target, pipeline), ms: Int64(index) * 200) { #expect(pipeline.feed(event) == nil) }
            let samples = pipeline.takeHeldFrames().flatMap { session.observe($0) }.compactMap { observation -> CalibrationSession.Sample? in
                guard case .sample(let sample) = observation else { return nil }
                return sample
            }
            #expect(samples.count == 1)
            if let sample = samples.first { try session.assign(sample: sample.number, toTarget: index) }
        }
        pipeline.hold(false)
        let outcome = try session.fit()
        return (session, outcome, pipeline.recalibrated(outcome.matrix))
    }

    @Test(arguments: [
        DeviceSpec(window: "main"), DeviceSpec(window: "main", rotation: .clockwise90), DeviceSpec(window: "main", rotation: .clockwise180, invertX: true),
        DeviceSpec(window: "main", region: Rect(x: 100, y: 50, width: 1000, height: 700), swapAxes: true),
    ])
    func aSkewedPanelIsBroughtBackOntoItsTargets(spec: DeviceSpec) throws {
        let (session, outcome, calibrated) = try Self.calibrate(spec)
        #expect(session.targets.count == 5)
        #expect(outcome.worstResidualMillimetres < 1, "residuals \(outcome.points.map(\.residualMillimetres))")
        // Before, the panel's skew put touches millimetres away; after, a tap anywhere lands where it was meant.
        let before = try Self.pipeline(spec)
        let after = calibrated
        for point in [Point(x: 640, y: 400), Point(x: 300, y: 600), Point(x: 1000, y: 200)] where spec.region?.contains(point) ?? true {
            let (x, y) = Self.raw(for: point, after)
            let near = before.mapping.location(x: x, y: y)
            let landed = after.mapping.location(x: x, y: y)
            #expect(abs(landed.x - point.x) < 2.5 && abs(landed.y - point.y) < 2.5, "\(point) landed at \(landed)")
            #expect(abs(near.x - point.x) + abs(near.y - point.y) > 10, "the skew moves \(point) to \(near)")
        }
    }

    /// A calibration file's matrix (or a session's, applied at run time) comes before the entry's
    /// own `calibration`, and the orientation still applies after it.
    @Test func theCalibrationFilesMatrixComesFirst() throws {
        var spec = DeviceSpec(window: "main", rotation: .clockwise180, calibration: [1, 0, 0.25, 0, 1, 0])
        #expect(try Self.pipeline(spec).mapping.location(x: 0, y: 0) == Point(x: 960, y: 800 - Limits.writtenCoordinateStep))
        spec.calibrationFileMatrix = CalibrationMatrix(a: 1, b: 0, c: 0.5, d: 0, e: 1, f: 0.5)
        #expect(try Self.pipeline(spec).mapping.location(x: 0, y: 0) == Point(x: 640, y: 400))
    }

    @Test func touchesBecomeSamplesAtTheirMedian() throws {
        var session = try CalibrationSession(pipeline: Self.pipeline())
        var assembler = FrameAssembler(description: Self.panel())
        var observations: [CalibrationSession.Observation] = []
        for event in Self.tap(id: 1, at: (1000, 800), ms: 0) {
            if let frame = assembler.feed(event) { observations += session.observe(frame) }
        }
        #expect(observations.count == 2)
        #expect(observations.first == .touchDown(contact: 1, x: 1009, y: 793, time: EventTime(microseconds: 1_000_000)))
        // Positions 1009, 1001, 1000, 999, 1000 and 793, 800, 802, 799, 800: the medians.
        #expect(observations.last == .sample(CalibrationSession.Sample(number: 1, x: 1000, y: 800, time: EventTime(microseconds: 1_060_000))))
    }

    @Test func targetsAreCheckedAndEveryTargetNeedsATouch() throws {
        let pipeline = try Self.pipeline(DeviceSpec(window: "main", region: Rect(x: 0, y: 0, width: 640, height: 800)))
        #expect(throws: CalibrationSessionError.self) { try CalibrationSession(pipeline: pipeline, targets: [Point(x: 10, y: 10), Point(x: 20, y: 20)]) }
        #expect(
            throws: CalibrationSessionError(
                "target 1 at (700, 10) is outside the device's region [0, 0, 640, 800]: expected targets inside it")
        ) {
            try CalibrationSession(pipeline: pipeline, targets: [Point(x: 10, y: 10), Point(x: 700, y: 10), Point(x: 10, y: 700)])
        }
        var session = try CalibrationSession(pipeline: pipeline)
        #expect(session.targets == [Point(x: 64, y: 80), Point(x: 576, y: 80), Point(x: 576, y: 720), Point(x: 64, y: 720), Point(x: 320, y: 400)])
        #expect(throws: CalibrationSessionError("no sample 1 in this session: expected the number of a calibration_sample message")) {
            try session.assign(sample: 1, toTarget: 0)
        }
        #expect(throws: CalibrationSessionError("targets 0, 1, 2, 3, 4 have no touch yet: expected a sample for each of the 5 targets")) {
            try session.fit()
        }
    }

    /// The default targets' fit from `raws`, one raw position per target.
    static func fit(_ raws: [(Int32, Int32)], _ pipeline: TouchDevicePipeline) throws(CalibrationSessionError) -> CalibrationOutcome {
        let targets = CalibrationSession.defaultTargets(in: pipeline.mapping.target.effectiveRegion)
        let points = zip(targets, raws).enumerated().map { index, pair in
            (target: pair.0, targetIndex: index, sample: CalibrationSession.Sample(number: index + 1, x: pair.1.0, y: pair.1.1, time: EventTime(microseconds: 0)))
        }
        return try CalibrationSession.fit(points, mapping: pipeline.mapping)
    }

    /// Touches huddled in one spot (not on one line) fit a matrix, but a meaningless one; a touch
    /// far off its target leaves residuals no calibration should keep. Both are refused.
    @Test func touchesInOneSpotOrFarOffTheirTargetsAreRefused() throws {
        let pipeline = try Self.pipeline()
        let targets = CalibrationSession.defaultTargets(in: pipeline.mapping.target.effectiveRegion)
        let huddled: [(Int32, Int32)] = [(2000, 1200), (2024, 1200), (2024, 1224), (2000, 1224), (2012, 1210)]
        #expect {
            try Self.fit(huddled, pipeline)
        } throws: { error in
            "\(error)".contains("expected touches spread at least \(formatNumber(Limits.minimumCalibrationSpread * 100))% as far as their targets")
        }
        var raws = targets.map { Self.raw(for: $0, pipeline) }
        #expect(try Self.fit(raws, pipeline).worstResidualMillimetres < 1)
        // The centre's touch 30 mm (16 units a millimetre) to the right of where it should be.
        raws[4].0 += 30 * 16
        #expect {
            try Self.fit(raws, pipeline)
        } throws: { error in
            "\(error)".contains("expected every touch within \(formatNumber(Limits.maximumCalibrationResidual)) mm of its target")
        }
    }

    @Test func aTouchCancelledOrAlreadyDownGivesNoSample() throws {
        var session = try CalibrationSession(pipeline: Self.pipeline())
        let frame = { (phase: TouchPhase) in
            ContactFrame(time: EventTime(microseconds: 5), contacts: [DeviceContact(id: 9, phase: phase, x: 10, y: 10)])
        }
        #expect(session.observe(frame(.moved)).isEmpty)
        #expect(session.observe(frame(.ended)).isEmpty, "it was down before the session")
        #expect(session.observe(frame(.began)).count == 1)
        #expect(session.observe(frame(.cancelled)).isEmpty, "a palm")
        #expect(session.samples.isEmpty)
    }
}
