import ArgumentParser
import TouchCore
import TouchDaemon
import TouchDevices
import TouchEvdev
import TouchInput
import TouchProtocol
import TouchSystem

/// `touchd measure`: each contact's touch size and pressure, and the palm thresholds they suggest.
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure each contact's touch size and pressure on a device or in a recording, and suggest palm thresholds.",
        discussion: """
            As libinput's `measure touch-size` and `measure touch-pressure`: every contact's largest \
            touch major (in millimetres, from the position axes' resolution) and pressure (in parts \
            of its range), their distribution, and the `palm_touch_major` and `palm_pressure` values \
            of a [[device]] entry they suggest, with the reason. Touch with fingertips and with the \
            flat of a hand: the thresholds go in the gap between them. SOURCE is a recording (any \
            format `touchd replay` reads), else a device (its node, or its name or identity as \
            `touchd devices` lists them), read until Ctrl-C or --duration.
            """)

    @Argument(help: "A recording, or a device: its node, name or identity.", completion: Completions.recording)
    var source: String

    @Option(name: .long, help: "The device description, for a recording that has only events.", completion: Completions.recording)
    var desc: String?

    @Option(name: .long, help: "For a device: stop after this many seconds (default: at Ctrl-C).")
    var duration: Double?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        if let duration, !Limits.captureDuration.contains(duration) {
            throw ValidationError("--duration \(duration): expected \(Limits.captureDuration)")
        }
    }

    func run() throws {
        let survey = source.hasPrefix("/dev/") || (try? FileStatus.of(source)) == nil ? try live() : try recorded()
        let report = survey.report
        if json {
            print(report.json.jsonText)
        } else {
            for line in report.lines { print(line) }
        }
    }

    /// The contacts of a recording.
    private func recorded() throws -> ContactSizeSurvey {
        let recording: Recording
        do {
            recording = try Recording.load(path: source, descriptionPath: desc)
        } catch {
            throw CommandFailure("\(error)")
        }
        // What was odd in the recording, as `touchd replay` tells it.
        var anomalies = AnomalyPrinter(prefix: "touchd measure: warning: ")
        for line in RecordingReplay.streamAnomalies(recording.events) { anomalies.print(line) }
        var assembler = ContactSizeSurvey.assembler(for: recording.description)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        if let first = recording.events.first { survey.begin(at: first.time) }
        for event in recording.events {
            if let frame = assembler.feed(event) { survey.add(frame) }
            for found in assembler.takeAnomalies() { anomalies.print("\(found)") }
        }
        survey.finish()
        anomalies.finish()
        return survey
    }

    /// The contacts of a live device, until stopped.
    private func live() throws -> ContactSizeSurvey {
        let device = try DeviceCapture.open(source)
        DeviceCapture.warnIfGrabbed(device, tool: "touchd measure")
        var stderr = StandardError()
        print(
            "touchd measure: touch \(device.path) \"\(device.description.name)\" with fingertips, then with the flat of a hand; "
                + (duration.map { "measuring for \(formatNumber($0)) s" } ?? "Ctrl-C ends the measurement"), to: &stderr)
        var assembler = ContactSizeSurvey.assembler(for: device.description)
        var survey = ContactSizeSurvey(capabilities: assembler.capabilities)
        _ = try DeviceCapture.run(device, duration: duration) { read in
            var frames: [ContactFrame] = []
            assembler.decode(read, into: &frames)
            for frame in frames { survey.add(frame) }
            return true
        }
        survey.finish()
        return survey
    }
}
