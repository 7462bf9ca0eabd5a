import ArgumentParser
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// `touchd calibrate --from-recording`: a calibration fitted offline from a recording of taps on
/// the targets, one after another.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit a touch device's calibration from a recording of taps on targets, without a daemon.",
        discussion: """
            The recording's touches are taken in order, one per target: the first touch for the \
            first target, and so on (record them with `touchctl record` or `touchd record` while \
            touching each target in turn). The device is mapped as the layout maps it (or onto \
            --window), and the fit is the one a calibration session makes (`touchctl calibrate`): \
            the least-squares matrix, and where each touch lands now, in millimetres from its \
            target. --out writes the calibration file a [[device]] entry's calibration_file names.
            """)

    @Option(name: .customLong("from-recording"), help: "The recording of the taps (evemu, libinput-record, getevent).", completion: Completions.recording)
    var recording: String

    @OptionGroup var mapping: RecordingMappingOptions

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("The targets in window points, in the order they were touched (default: the five of a calibration session).", valueName: "X,Y"))
    var targets: [String] = []

    @Option(name: .long, help: "Write the calibration file here.", completion: .file())
    var out: String?

    @Flag(name: .long, help: "Print JSON (as finish_calibration replies) instead of text.")
    var json = false

    /// `--targets` as points.
    func targetPoints() throws -> [Point]? {
        guard !targets.isEmpty else { return nil }
        return try targets.map { text in
            let parts = text.split(separator: ",").map { Double($0.trimmingSpaces()) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], Limits.coordinate.contains(x), Limits.coordinate.contains(y) else {
                throw ValidationError("--targets \"\(text)\": expected X,Y with each \(Limits.coordinate)")
            }
            return Point(x: x, y: y)
        }
    }

    func validate() throws { _ = try targetPoints() }

    func run() throws {
        let (document, app) = try loadLayout(mapping.config)
        try mapping.checkWindow(in: app.tree)
        let replay: RecordingReplay
        do {
            replay = try mapping.replay(recording, layout: document, tree: app.tree)
        } catch {
            throw CommandFailure("\(error)")
        }
        guard let touch = replay.pipeline.touch else {
            throw CommandFailure("\(recording): its device is a \(replay.facts.kind.rawValue), not a touch device")
        }
        var session: CalibrationSession
        do {
            session = try CalibrationSession(pipeline: touch, targets: try targetPoints())
        } catch {
            throw ValidationError("--targets: \(error)")
        }
        let samples = Self.samples(of: replay, into: &session)
        guard samples.count == session.targets.count else {
            throw CommandFailure(
                "\(recording) has \(samples.count) touch\(samples.count == 1 ? "" : "es") for \(session.targets.count) targets: expected one touch per target, in order")
        }
        let outcome: CalibrationOutcome
        do {
            for (index, sample) in samples.enumerated() { try session.assign(sample: sample.number, toTarget: index) }
            outcome = try session.fit()
        } catch {
            throw CommandFailure("\(recording): \(error)")
        }
        try report(outcome, device: touch.deviceID)
    }

    /// Every touch of the recording that lifted, in order, as the session's samples.
    static func samples(of replay: RecordingReplay, into session: inout CalibrationSession) -> [CalibrationSession.Sample] {
        var pipeline = replay.pipeline
        pipeline.hold(true)
        var ignored: [QueuedEvent] = []
        pipeline.feed(replay.recording.events, into: &ignored)
        return pipeline.takeHeldFrames().flatMap { session.observe($0) }.compactMap { observation in
            guard case .sample(let sample) = observation else { return nil }
            return sample
        }
    }

    private func report(_ outcome: CalibrationOutcome, device: String) throws {
        var kept: String?
        if let out {
            do {
                try CalibrationFiles.save(outcome.file(device: device), to: out)
                kept = out
            } catch {
                throw CommandFailure("\(error)")
            }
        }
        if json {
            print(CalibrationReply.finished(outcome, device: device, file: kept, notKeptBecause: kept == nil ? "no --out was given" : nil).jsonText)
            return
        }
        for line in CalibrationText.lines(outcome) { print(line) }
        print(kept.map { "wrote \($0): name it in the device's [[device]] entry as calibration_file" } ?? "(--out FILE keeps it in a calibration file)")
    }
}

/// How a calibration's outcome is shown, by `touchd calibrate` and `touchctl calibrate`.
enum CalibrationText {
    static func lines(_ outcome: CalibrationOutcome) -> [String] {
        var lines = outcome.points.map { point in
            "target \(point.targetIndex) at (\(formatNumber(point.target.x)), \(formatNumber(point.target.y))): touch \(point.sample.number) "
                + "at (\(point.sample.x), \(point.sample.y)) lands at (\(formatNumber(point.landed.x)), \(formatNumber(point.landed.y))), "
                + "\(formatNumber(point.residualMillimetres.value)) mm away"
        }
        lines.append(
            "worst residual \(formatNumber(outcome.worstResidualMillimetres.value)) mm, mean \(formatNumber(outcome.meanResidualMillimetres.value)) mm")
        lines.append("matrix \(outcome.matrix) (a [[device]] entry's calibration = [\(outcome.matrix.coefficients.map { String($0) }.joined(separator: ", "))])")
        return lines
    }
}
