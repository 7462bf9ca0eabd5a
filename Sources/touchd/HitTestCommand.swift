import ArgumentParser
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
import TouchRender

/// `touchd hit-test`: explains where a touch at a point would go.
struct HitTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit-test",
        abstract: "Hit-test a point of a layout and print the trace, the hit view and its responder chain.")

    @Option(name: .long, help: "The layout file (TOML).")
    var config: String

    @Option(name: .long, help: "The window whose coordinates X and Y are in (default: the key window).")
    var window: String?

    @Flag(name: .long, help: "Print the answer as JSON.")
    var json = false

    @Option(name: .long, help: "Also draw the hit-test as a picture: FILE.svg, or FILE.png (through rsvg-convert).")
    var svg: String?

    @Argument(help: "X in window points.")
    var x: Double

    @Argument(help: "Y in window points.")
    var y: Double

    func validate() throws {
        guard x.isFinite, y.isFinite else { throw ValidationError("X and Y must be finite numbers (window points), not \(x) and \(y)") }
    }

    func run() throws {
        if let svg { try checkPictureName(svg, option: "--svg") }
        let (document, app) = try loadLayout(config)
        let tree = app.tree
        guard let target = window.map({ ResponderID($0) }) ?? tree.keyWindow else {
            throw ValidationError("the layout has no window")
        }
        guard let result = tree.hitTest(Point(x: x, y: y), onDisplayOf: target, traced: true) else {
            throw ValidationError("\"\(target)\" is not a window of \(config); windows: \(tree.windowIDs.map(\.rawValue).joined(separator: ", "))")
        }
        if let svg {
            let renderer = try SVGRenderer(
                tree: tree, window: result.window, markers: viewMarkers(document, app),
                options: RenderOptions(title: "\(config), window \(result.window): hit-test at \(result.pointInWindow)"))
            try writePicture(renderer.svg(hitTest: result), to: svg, option: "--svg", command: "hit-test")
        }
        if json {
            print(TreeDescription.hitTest(result, tree: tree).jsonText)
            return
        }
        for line in TreeDescription.traceLines(result) { print(line) }
        if let view = result.view {
            print("hit: \(view) in window \(result.window) at \(result.pointInView!) (view coordinates)")
            print("path: \(tree.path(to: view).map(\.rawValue).joined(separator: " > "))")
            print("responder chain: \(tree.responderChain(from: view).map(\.rawValue).joined(separator: " → "))")
        } else {
            print("hit: nothing takes the point \(result.pointInWindow)")
        }
    }
}
