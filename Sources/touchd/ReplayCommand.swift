import ArgumentParser
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchLayout
import TouchProtocol

/// `touchd replay`: runs a recording through the whole pipeline against a layout.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording (evemu, libinput-record or getevent) against a layout and print what a subscriber receives.",
        discussion: """
            The recording's own timestamps are the clock, so tap counts are exactly those of the \
            original run. Output is newline-delimited JSON: the messages a socket client subscribed \
            to the chosen topics would get, with their sequence numbers.
            """)

    @Argument(help: "The recording.")
    var recording: String

    @Option(name: .long, help: "The device description, for a recording that has only events (default: its companion file).")
    var desc: String?

    @Option(name: .long, help: "The layout file (TOML).")
    var config: String

    @Option(name: .long, help: "Map the device onto this window instead of through the layout's [[device]] entries.")
    var window: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Topics to print, comma-separated: \(Topic.allCases.map(\.rawValue).joined(separator: ", "))."))
    var topics: String = "hits,actions"

    func run() throws {
        var wanted: Set<Topic> = []
        for name in topics.split(separator: ",") {
            guard let topic = Topic(rawValue: String(name)) else {
                throw ValidationError(
                    "--topics: unknown topic \"\(name)\": expected \(Topic.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            wanted.insert(topic)
        }
        let (document, loaded) = try loadLayout(config)
        var app = loaded
        var replay: RecordingReplay
        do {
            replay = try RecordingReplay(path: recording, descriptionPath: desc, layout: document, tree: app.tree, window: window)
        } catch {
            var stderr = StandardError()
            print("touchd replay: \(error)", to: &stderr)
            throw ExitCode.failure
        }
        var subscriber = SubscriberView(topics: wanted)
        var out = ""
        replay.run(into: &app) { report, tree in
            for line in subscriber.lines(for: report, tree: tree) { out += line }
            if out.utf8.count > 1 << 16 {
                print(out, terminator: "")
                out = ""
            }
        }
        print(out, terminator: "")
    }
}
