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
        abstract: "Hit-test points of a layout and print each trace, hit view and responder chain.",
        discussion: """
            Give the points as arguments (X Y X Y ...), or none to read them from standard input, one \
            point a line ("X Y" or "X,Y"; blank lines and lines starting with # are skipped). With \
            several points, each answer is preceded by a line naming its point (with --json, one JSON \
            line a point).
            """)

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String

    @Option(name: .long, help: "The window whose coordinates the points are in (default: the key window).")
    var window: String?

    @Flag(name: .long, help: "Print each answer as JSON.")
    var json = false

    @Option(name: .long, help: "Also draw the hit-test as a picture: FILE.svg, or FILE.png (through rsvg-convert); one point only.", completion: Completions.picture)
    var svg: String?

    @Argument(help: ArgumentHelp("The points, in window points: X Y, as many pairs as wanted.", valueName: "X Y"))
    var coordinates: [Double] = []

    func validate() throws {
        guard coordinates.count % 2 == 0 else {
            throw ValidationError("give the points as pairs X Y: \(coordinates.count) numbers is not a whole number of points")
        }
        for (i, value) in coordinates.enumerated() where !Limits.coordinate.contains(value) {
            throw ValidationError("\(i % 2 == 0 ? "X" : "Y") must be \(Limits.coordinate), not \(value) (points must be finite)")
        }
        if svg != nil && coordinates.count != 2 { throw ValidationError("--svg draws one hit-test: give exactly one point X Y") }
    }

    func run() throws {
        if let svg { try checkPictureName(svg, option: "--svg") }
        let (document, app) = try loadLayout(config)
        let tree = app.tree
        guard let target = window.map({ ResponderID($0) }) ?? tree.keyWindow else {
            throw ValidationError("the layout has no window")
        }
        guard tree.windowProperties(of: target) != nil else {
            throw ValidationError("\"\(target)\" is not a window of \(config); windows: \(tree.windowIDs.map(\.rawValue).joined(separator: ", "))")
        }
        if coordinates.isEmpty {
            var number = 0
            while let line = readLine() {
                number += 1
                guard let point = try Self.point(line, number: number) else { continue }
                try answer(point, in: target, document: document, app: app, headed: true)
            }
            return
        }
        let points = stride(from: 0, to: coordinates.count, by: 2).map { Point(x: coordinates[$0], y: coordinates[$0 + 1]) }
        for point in points { try answer(point, in: target, document: document, app: app, headed: points.count > 1) }
    }

    /// A line of standard input that is no point (not a usage error: no usage is shown).
    struct BadPointLine: Error, CustomStringConvertible {
        var description: String
    }

    /// The point on a line of standard input, nil for a blank line or a comment.
    static func point(_ line: String, number: Int) throws -> Point? {
        let text = line.trimmingSpaces()
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy(Limits.coordinate.contains) else {
            throw BadPointLine(description: "standard input, line \(number): \"\(text.prefix(80))\": expected X Y, each \(Limits.coordinate)")
        }
        return Point(x: parts[0], y: parts[1])
    }

    /// Prints one hit-test (and draws it with --svg).
    private func answer(_ point: Point, in target: ResponderID, document: LayoutDocument, app: Application, headed: Bool) throws {
        let tree = app.tree
        guard let result = tree.hitTest(point, onDisplayOf: target, traced: true) else { return }
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
        if headed { print("point \(point):") }
        for line in TreeDescription.traceLines(result) { print(line) }
        if let view = result.view, let local = result.pointInView {
            print("hit: \(view) in window \(result.window) at \(local) (view coordinates)")
            print("path: \(tree.path(to: view).map(\.rawValue).joined(separator: " > "))")
            print("responder chain: \(tree.responderChain(from: view).map(\.rawValue).joined(separator: " → "))")
        } else {
            print("hit: nothing takes the point \(result.pointInWindow)")
        }
        if headed { print("") }
    }
}
