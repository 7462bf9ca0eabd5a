import ArgumentParser
import Foundation
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout
import TouchRender

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

    @Option(name: .long, help: "The layout file (TOML).")
    var config: String

    @Option(name: .long, help: "The window to draw (default: the key window).")
    var window: String?

    @Option(name: .long, help: "The picture to write: FILE.svg, or FILE.png (through rsvg-convert).")
    var out: String

    @Option(name: .long, help: "Draw the touches of this recording (evemu, libinput-record or getevent), replayed through the layout.")
    var replay: String?

    @Option(name: .long, help: "The recording's device description, for a recording that has only events.")
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
        _ = try PictureFormat(path: out, option: "--out")
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
                let message = "\(error)".replacingOccurrences(of: "give --window to", with: "give --map-onto-window to")
                print("touchd render: \(message)", to: &stderr)
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
        try writePicture(svg, to: out, option: "--out")
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

/// A picture file's format, from its name.
enum PictureFormat {
    case svg
    case png

    init(path: String, option: String) throws {
        let lower = path.lowercased()
        if lower.hasSuffix(".svg") {
            self = .svg
        } else if lower.hasSuffix(".png") {
            self = .png
        } else {
            throw ValidationError("\(option) \(path): the name must end in .svg or .png")
        }
    }
}

/// Writes SVG text to `path`, converting it to PNG with `rsvg-convert` when the name ends in .png.
func writePicture(_ svg: String, to path: String, option: String) throws {
    switch try PictureFormat(path: path, option: option) {
    case .svg:
        do {
            try svg.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ValidationError("\(option) \(path): cannot write: \(error.localizedDescription)")
        }
    case .png:
        try convertToPNG(svg, path: path, option: option)
    }
}

/// Runs `rsvg-convert` (librsvg) on the SVG, fed through its standard input.
func convertToPNG(_ svg: String, path: String, option: String) throws {
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    let candidates = searchPath.split(separator: ":").map { "\($0)/rsvg-convert" }
    guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw ValidationError(
            "\(option) \(path): PNG output needs rsvg-convert, which is not installed "
                + "(Debian/Ubuntu: apt-get install librsvg2-bin); or write a .svg")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--format", "png", "--output", path]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    do { try process.run() } catch {
        throw ValidationError("\(option) \(path): cannot run \(tool): \(error.localizedDescription)")
    }
    // rsvg-convert reads all of its input before it writes the file: no deadlock on the pipes.
    input.fileHandleForWriting.write(Data(svg.utf8))
    try? input.fileHandleForWriting.close()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        throw ValidationError("\(option) \(path): rsvg-convert failed (status \(process.terminationStatus)): \(text)")
    }
}
