import ArgumentParser
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout
import TouchRender
import TouchSystem

/// `touchd render`: a picture of a window of a layout, optionally with a recording's touches.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a window of a layout to scale as SVG (or PNG): frames, hit areas, states, handlers, recognizers and controls.",
        discussion: """
            Coordinates are window points. Hidden views are dashed, transparent ones dotted, views \
            without user interaction hatched; dashed outlines in a view's colour are the hit areas \
            touches can reach (expansion included, clipped by superviews). With --replay, each \
            touch's path is drawn in the colour of the view that received it. A name ending in .png \
            is converted with rsvg-convert (Debian package librsvg2-bin).
            """)

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String

    @Option(name: .long, help: "The window to draw (default: the key window).")
    var window: String?

    @Option(name: .long, help: "The picture to write: FILE.svg, or FILE.png (through rsvg-convert).", completion: Completions.picture)
    var out: String

    @Option(
        name: .long, help: "Draw the touches of this recording (evemu, libinput-record or getevent), replayed through the layout.",
        completion: Completions.recording)
    var replay: String?

    @Option(name: .long, help: "The recording's device description, for a recording that has only events.", completion: Completions.recording)
    var desc: String?

    @Flag(name: .long, help: "Map the recording's device onto the drawn window instead of through the layout's [[device]] entries.")
    var mapOntoWindow = false

    @Flag(name: .long, help: "Draw the touch-down density of the recording.")
    var heatmap = false

    @Option(name: .long, help: "The heatmap's cell size, in points.")
    var heatmapCell: Double = Heatmap.defaultCellSize

    @Flag(name: .long, help: "Leave out the touch paths (with --heatmap: only the density).")
    var noPaths = false

    @Option(name: .long, help: "Output pixels per window point.")
    var scale: Double = 1

    @Flag(name: .long, help: "Leave out hidden views and those inside them.")
    var noHidden = false

    @Flag(name: .long, help: "Leave out the legend.")
    var noLegend = false

    func validate() throws {
        guard Limits.pictureScale.contains(scale) else { throw ValidationError("--scale must be \(Limits.pictureScale), not \(scale)") }
        guard Limits.heatmapCell.contains(heatmapCell) else {
            throw ValidationError("--heatmap-cell must be \(Limits.heatmapCell), not \(heatmapCell)")
        }
        if heatmap && replay == nil { throw ValidationError("--heatmap needs --replay RECORDING") }
        if noPaths && replay == nil { throw ValidationError("--no-paths needs --replay RECORDING") }
        if mapOntoWindow && replay == nil { throw ValidationError("--map-onto-window needs --replay RECORDING") }
        try checkPictureName(out, option: "--out")
    }

    func run() throws {
        let (document, loaded) = try loadLayout(config)
        var app = loaded
        app.recordsResponderCalls = false  // a picture draws touches, not responder calls
        let target = try pictureWindow(window, tree: app.tree, config: config)
        var touches: [TouchPath] = []
        if let replay {
            var setup: RecordingReplay
            do {
                setup = try RecordingReplay(
                    path: replay, descriptionPath: desc, layout: document, tree: app.tree,
                    window: mapOntoWindow ? target.rawValue : nil)
            } catch {
                var stderr = StandardError()
                // The replay's own hint names `touchd replay`'s --window; here the flag is another.
                let message = "\(error)".replacing("give --window to", with: "give --map-onto-window to")
                print("touchd: \(message)", to: &stderr)
                throw ExitCode.failure
            }
            var recorder = TouchPathRecorder()
            setup.run(into: &app) { report in recorder.record(report) }
            touches = recorder.paths
        }
        let options = RenderOptions(
            scale: scale, showsLegend: !noLegend, showsHiddenViews: !noHidden, heatmapCellSize: heatmapCell,
            title: "\(config), window \(target)" + (replay.map { " with \($0)" } ?? ""))
        let renderer = try SVGRenderer(tree: app.tree, window: target, markers: viewMarkers(document, app), options: options)
        let svg = try renderer.svg(touches: noPaths ? [] : touches, heatmap: heatmap ? renderer.heatmap(of: touches) : nil)
        try writePicture(svg, to: out, option: "--out", command: "render")
    }
}

/// The window a picture shows: the named one, else the key window.
func pictureWindow(_ name: String?, tree: ViewTree, config: String) throws -> ResponderID {
    guard let target = name.map({ ResponderID($0) }) ?? tree.keyWindow else {
        throw ValidationError("\(config) has no window")
    }
    guard tree.windowProperties(of: target) != nil else {
        throw ValidationError(
            "\"\(target)\" is not a window of \(config); windows: \(tree.windowIDs.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}

/// What a picture points out on each view: handlers, gesture recognizers and controls.
func viewMarkers(_ document: LayoutDocument, _ app: Application) -> ViewMarkers {
    var markers = ViewMarkers(handlers: app.handlers, tree: app.tree)
    markers.addRecognizers(document.gestures)
    markers.addControls(document.controls)
    return markers
}

/// Checks that a picture option names a file ending in .svg or .png.
func checkPictureName(_ path: String, option: String) throws {
    do {
        _ = try PictureFile.format(of: path)
    } catch {
        throw ValidationError("\(option) \(error)")
    }
}

/// Writes SVG text to `path`, converted to PNG when the name ends in .png; a file that cannot be
/// written is told with its path and the reason (no usage: the command line was right).
func writePicture(_ svg: String, to path: String, option: String, command: String) throws {
    do {
        try PictureFile.write(svg: svg, to: path)
    } catch {
        var stderr = StandardError()
        print("touchd \(command): \(option) \(error)", to: &stderr)
        throw ExitCode.failure
    }
}
