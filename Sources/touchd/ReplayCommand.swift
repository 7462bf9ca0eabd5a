import ArgumentParser
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol
import TouchSystem

/// `touchd replay`: runs a recording through the whole pipeline against a layout.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording (evemu, libinput-record or getevent) against a layout and print what a subscriber receives.",
        discussion: """
            The recording's own timestamps are the clock, so tap counts are exactly those of the \
            original run, and moves reach the application at each window's display ticks \
            (refresh_hz) as in the daemon. Output is newline-delimited JSON: the messages a socket \
            client subscribed to the chosen topics would get, with their sequence numbers.
            """)

    @Argument(help: "The recording.", completion: Completions.recording)
    var recording: String

    @OptionGroup var mapping: RecordingMappingOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Topics to print, comma-separated: \(Topic.names)."),
        completion: Completions.topics)
    var topics: String = "hits,actions"

    @Option(name: .long, help: "What touch messages carry of merged moves, as a subscription's touch_samples: latest, coalesced, input or frames.")
    var touchSamples: String = TouchSampleForm.default.rawValue

    @Flag(name: .long, help: "Print every responder call, recognizer change and action as the seed articles log them, instead of messages.")
    var calls = false

    func run() throws {
        var wanted: Set<Topic> = []
        for name in topics.split(separator: ",") {
            guard let topic = Topic(rawValue: String(name)) else {
                throw ValidationError(
                    "--topics: unknown topic \"\(name)\": expected \(Topic.names)")
            }
            wanted.insert(topic)
        }
        if wanted.isEmpty && !calls {
            throw ValidationError("--topics: no topic given: expected one or more of \(Topic.names)")
        }
        guard let form = TouchSampleForm(rawValue: touchSamples) else {
            throw ValidationError("--touch-samples: unknown form \"\(touchSamples)\": expected latest, coalesced, input or frames")
        }
        let (document, loaded) = try loadLayout(mapping.config)
        var app = loaded
        // As the daemon runs it: calls recorded and hit-tests traced only when something shows them.
        app.recordsResponderCalls = calls || wanted.contains(.calls)
        app.tracesHitTests = wanted.contains(.hitTests)
        app.recordsSampleLocationsInView = form == .input
        try mapping.checkWindow(in: app.tree)
        var replay: RecordingReplay
        var stderr = StandardError()
        do {
            replay = try mapping.replay(recording, layout: document, tree: app.tree)
        } catch {
            print("touchd: \(error)", to: &stderr)
            throw ExitCode.failure
        }
        if let desc = mapping.desc, let own = try? Recording.load(path: recording), own.descriptionSource == .embedded {
            print("touchd replay: warning: \(recording) describes its device (\"\(own.description.name)\"); --desc \(desc) replaces that description", to: &stderr)
        }
        if replay.recording.events.isEmpty {
            print("touchd replay: warning: \(recording) holds no events (a device's description alone): nothing to replay", to: &stderr)
        }
        var subscriber = SubscriberView(topics: wanted, touchSamples: form)
        // The device comes and goes as a replayed one does in the daemon (`devices`).
        let device = replay.pipeline.deviceID
        var out = calls ? "" : subscriber.line(for: MessageEncoder.deviceAdded(id: device, description: replay.listing)) ?? ""
        var anomalies = AnomalyPrinter(prefix: "touchd replay: warning: ")
        replay.run(into: &app, anomaly: { anomalies.print($0) }) { report in
            if calls {
                for line in CallLog.lines(for: report) { out += line + "\n" }
            } else {
                for line in subscriber.lines(for: report) { out += line }
            }
            if out.utf8.count > 1 << 16 {
                print(out, terminator: "")
                out = ""
            }
        }
        if !calls, let removed = subscriber.line(for: MessageEncoder.deviceRemoved(id: device)) { out += removed }
        print(out, terminator: "")
        anomalies.finish()
    }
}

/// Prints anomalies to stderr, the first ``limit`` in full and then only their number, so a
/// recording full of them cannot bury the output.
struct AnomalyPrinter {
    let prefix: String
    var limit = 100
    private(set) var count = 0

    init(prefix: String) { self.prefix = prefix }

    mutating func print(_ line: String) {
        count += 1
        guard count <= limit else { return }
        var stderr = StandardError()
        Swift.print(prefix + line, to: &stderr)
    }

    func finish() {
        guard count > limit else { return }
        var stderr = StandardError()
        Swift.print("\(prefix)\(count - limit) more anomalies not shown (\(count) in all)", to: &stderr)
    }
}
