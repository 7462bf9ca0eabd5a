import ArgumentParser
import TouchCore
import TouchInput
import TouchLayout

/// The options of the commands that replay a recording through a layout without a daemon
/// (`replay`, `calibrate`): the layout, the recording's device description, and the window its
/// device is mapped onto.
struct RecordingMappingOptions: ParsableArguments {
    @Option(
        name: .long, help: "The device description, for a recording that has only events (default: its companion file).",
        completion: Completions.recording)
    var desc: String?

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String

    @Option(name: .long, help: "Map the device onto this window instead of through the layout's [[device]] entries.")
    var window: String?

    /// Refuses a `--window` that names no window of the layout (whose tree is `tree`) as a usage
    /// error, as `hit-test` and `render` do: before the recording is read.
    func checkWindow(in tree: ViewTree) throws {
        guard let window, tree.kind(of: ResponderID(window)) != .window else { return }
        throw ValidationError(
            "the window to map the recording onto (--window \(window)) is not a window of \(config); its windows: "
                + tree.windowIDs.map(\.rawValue).joined(separator: ", "))
    }

    /// The recording at `path`, its device mapped as these options say, ready to play through
    /// `document`'s application (whose tree is `tree`).
    func replay(_ path: String, layout document: LayoutDocument, tree: ViewTree) throws -> RecordingReplay {
        try RecordingReplay(path: path, descriptionPath: desc, layout: document, tree: tree, window: window)
    }
}
