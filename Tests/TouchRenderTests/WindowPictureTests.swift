import Foundation
import Testing
import TouchCore
import TouchLayout
import TouchRender

/// The picture of a window says what the tree says: every view with its geometry in window points,
/// its state, its reachable hit area and its markers, as well-formed XML.
@Suite(.timeLimit(.minutes(10))) struct WindowPictureTests {
    static func kiosk() throws -> (LayoutDocument, Application) {
        let path = repositoryRoot + "/config/kiosk.toml"
        let document = try LayoutLoader.load(path: path)
        return (document, try document.makeApplication(file: path))
    }

    static func markers(_ document: LayoutDocument, _ app: Application) -> ViewMarkers {
        var markers = ViewMarkers(handlers: app.handlers, tree: app.tree)
        markers.addRecognizers(document.gestures)
        markers.addControls(document.controls)
        return markers
    }

    /// The frame of `view` in window coordinates, walking down from the window by hand.
    static func windowFrame(of view: ResponderID, in tree: ViewTree) -> Rect {
        var origin = Point.zero
        var parentBounds = Point.zero
        for id in tree.path(to: view).dropFirst() {
            let p = tree.properties(of: id)!
            origin = origin - parentBounds + p.frame.origin
            parentBounds = p.boundsOrigin
        }
        return Rect(origin: origin, size: tree.properties(of: view)!.frame.size)
    }

    /// What part of `view`'s hit area hit-testing can reach: its hit area cut by every ancestor's.
    static func reachableHitArea(of view: ResponderID, in tree: ViewTree) -> Rect? {
        var area: Rect? = nil
        for id in tree.path(to: view) {
            let p = tree.properties(of: id)!
            let frame = tree.kind(of: id) == .window ? p.frame : windowFrame(of: id, in: tree)
            let hit = p.hitArea
            let inWindow = Rect(
                x: frame.minX + hit.minX - p.boundsOrigin.x, y: frame.minY + hit.minY - p.boundsOrigin.y,
                width: hit.width, height: hit.height)
            area = area.map { $0.intersection(inWindow) } ?? inWindow
            if area == nil { return nil }
        }
        return area
    }

    static func viewGroups(_ svg: SVGElement) -> [String: SVGElement] {
        Dictionary(uniqueKeysWithValues: svg.all("g", class: "view").map { ($0["data-view"]!, $0) })
    }

    @Test func theKioskPictureIsWellFormedSVGInWindowPoints() throws {
        let (document, app) = try Self.kiosk()
        let text = try SVGRenderer(tree: app.tree, window: "main", markers: Self.markers(document, app)).svg()
        let svg = try SVGDocumentReader.parse(text)
        #expect(svg.name == "svg")
        #expect(svg["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(svg["data-window"] == "main")
        #expect(svg["data-window-size"] == "1280 800")
        let viewBox = svg["viewBox"]!.split(separator: " ").compactMap { Double($0) }
        #expect(viewBox.count == 4)
        #expect(viewBox[0] <= 0 && viewBox[1] <= 0 && viewBox[0] + viewBox[2] >= 1280 && viewBox[1] + viewBox[3] >= 800)
        let window = svg.descendants.first { $0["id"] == "window" }
        #expect(approximatelyEqual(window?.rect, Rect(x: 0, y: 0, width: 1280, height: 800)))
        let ids = svg.descendants.compactMap { $0["id"] }
        #expect(Set(ids).count == ids.count, "element ids are unique")
    }

    @Test func theReaderRejectsMalformedXML() {
        #expect(throws: SVGParseError.self) { try SVGDocumentReader.parse("<svg><g></svg>") }
        #expect(throws: SVGParseError.self) { try SVGDocumentReader.parse("<svg><text>a & b</text></svg>") }
    }

    @Test func everyViewAppearsOnceWithItsFrameInWindowCoordinates() throws {
        let (document, app) = try Self.kiosk()
        let tree = app.tree
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main", markers: Self.markers(document, app)).svg())
        let groups = svg.all("g", class: "view")
        #expect(groups.map { $0["data-view"]! } == tree.views(in: "main").map(\.rawValue), "z-order: parents first, bottom to top")
        for group in groups {
            let id = ResponderID(group["data-view"]!)
            let expected = Self.windowFrame(of: id, in: tree)
            #expect(approximatelyEqual(rect(fromList: group["data-frame"]), expected), "\(id) data-frame")
            let drawn = group.children.first { $0.classes.contains("frame") }
            #expect(approximatelyEqual(drawn?.rect, expected), "\(id) drawn frame")
            #expect(group["data-superview"] == tree.superview(of: id)?.rawValue)
            #expect(group["data-colour"] == ViewColours.colour(of: id).description)
        }
        // Spot checks against the layout file's numbers.
        let byID = Self.viewGroups(svg)
        #expect(rect(fromList: byID["tile.settings"]?["data-frame"]) == Rect(x: 860, y: 468, width: 380, height: 292))
        #expect(rect(fromList: byID["dialog.ok"]?["data-frame"]) == Rect(x: 660, y: 460, width: 200, height: 60))
    }

    @Test func hiddenTransparentAndNonInteractiveViewsCarryTheirState() throws {
        let (document, app) = try Self.kiosk()
        var tree = app.tree
        try tree.updateView("tile.climate") { $0.alpha = 0.005 }
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main", markers: Self.markers(document, app)).svg())
        let byID = Self.viewGroups(svg)
        func state(_ id: String) -> Set<String> { Set((byID[id]?["data-state"] ?? "").split(separator: " ").map(String.init)) }
        func frameStyle(_ id: String) -> SVGElement? { byID[id]?.children.first { $0.classes.contains("frame") } }
        #expect(state("header.title").contains("not-interactive"))
        #expect(frameStyle("header.title")?["fill"] == "url(#not-interactive)")
        #expect(state("dialog.root").contains("hidden"))
        #expect(frameStyle("dialog.root")?["stroke-dasharray"] != nil)
        #expect(state("dialog.ok").contains("inside-hidden"))
        #expect(state("dialog.backdrop").isSuperset(of: ["inside-hidden", "capture"]))
        #expect(byID["dialog.backdrop"]?["data-alpha"] == "0.5")
        #expect(state("tile.climate").contains("transparent"))
        #expect(frameStyle("tile.climate")?["stroke"] == ViewColours.inactive.description)
        #expect(state("header.info").contains("expanded"))
        #expect(state("tile.doors") == ["normal"])
        // Labels name every view.
        let labels = svg.all("g", class: "label").map { $0["data-view"]! }
        #expect(Set(labels) == Set(tree.views(in: "main").map(\.rawValue)))
        for label in svg.all("g", class: "label") {
            #expect(label.children.first?.text == label["data-view"])
        }
    }

    @Test func hitAreasIncludeTheExpansionAndAreCutBySuperviews() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 400, height: 300)))
        try tree.addView("panel", parent: "w", ViewProperties(frame: Rect(x: 50, y: 50, width: 200, height: 100)))
        try tree.updateView("panel") { $0.boundsOrigin = Point(x: 10, y: 0) }
        // Half outside the panel: only the inside half can be hit.
        try tree.addView("edge", parent: "panel", ViewProperties(frame: Rect(x: 180, y: 20, width: 60, height: 40)))
        // A small button with 10 points of expansion, well inside.
        try tree.addView("button", parent: "panel", ViewProperties(frame: Rect(x: 40, y: 40, width: 20, height: 20)))
        try tree.updateView("button") { $0.hitExpansion = EdgeInsets(all: 10) }
        // Entirely outside the panel: unreachable.
        try tree.addView("lost", parent: "panel", ViewProperties(frame: Rect(x: 300, y: 0, width: 30, height: 30)))
        try tree.addView("off", parent: "w", ViewProperties(frame: Rect(x: 300, y: 200, width: 50, height: 50)))
        try tree.updateView("off") { $0.isUserInteractionEnabled = false }
        try tree.addView("off.child", parent: "off", ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10)))

        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "w").svg())
        var areas: [String: Rect] = [:]
        for r in svg.all("rect", class: "hit-area") { areas[r["data-view"]!] = r.rect }
        #expect(areas["panel"] == Rect(x: 50, y: 50, width: 200, height: 100))
        #expect(areas["edge"] == Rect(x: 220, y: 70, width: 30, height: 40), "clipped at the panel's right edge")
        #expect(areas["button"] == Rect(x: 70, y: 80, width: 40, height: 40))
        #expect(areas["lost"] == nil)
        #expect(areas["off"] == nil && areas["off.child"] == nil)
        for id in ["panel", "edge", "button", "lost"] {
            #expect(areas[id] == Self.reachableHitArea(of: ResponderID(id), in: tree), "\(id)")
        }
        let byID = Self.viewGroups(svg)
        #expect(byID["edge"]?["data-state"]?.contains("clipped") == true)
        #expect(byID["lost"]?["data-state"]?.contains("clipped-away") == true)
        #expect(byID["off.child"]?["data-state"]?.contains("inside-not-interactive") == true)
        #expect(rect(fromList: byID["edge"]?["data-frame"]) == Rect(x: 220, y: 70, width: 60, height: 40), "bounds origin shifts subviews")
    }

    /// Every point hit-testing gives a view lies inside the hit area drawn for it.
    @Test func theDrawnHitAreasCoverWhatHitTestingDoes() throws {
        let (_, loaded) = try Self.kiosk()
        for showDialog in [false, true] {
            var tree = loaded.tree
            if showDialog { try tree.updateView("dialog.root") { $0.isHidden = false } }
            let figures = ViewFigure.figures(of: tree, window: "main")!
            let areas = Dictionary(uniqueKeysWithValues: figures.map { ($0.id, $0.effectiveHitArea) })
            for y in stride(from: 0.5, to: 800, by: 7) {
                for x in stride(from: 0.5, to: 1280, by: 7) {
                    let p = Point(x: x, y: y)
                    guard let hit = tree.hitTest(p, inWindow: "main")?.view, hit != "main" else { continue }
                    let area = areas[hit] ?? nil
                    #expect(area?.contains(p) == true, "\(hit) took \(p) outside its drawn hit area \(String(describing: area))")
                }
            }
        }
    }

    @Test func handlersRecognizersAndControlsAreMarked() throws {
        let (document, app) = try Self.kiosk()
        var markers = Self.markers(document, app)
        markers.addRecognizers([GestureRecognizerSpec(id: "swipe-home", view: "grid", kind: .swipe(directions: .left, touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5))])
        markers.addControls([ControlSpec(view: "dialog.ok", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "confirm")])])
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: app.tree, window: "main", markers: markers).svg())
        var kinds: [String: Set<String>] = [:]
        for m in svg.all("g", class: "marker") { kinds[m["data-view"]!, default: []].insert(m["data-kind"]!) }
        let withHandlers = Set(app.tree.views(in: "main").filter { !app.handlers.handlers(for: $0).isEmpty }.map(\.rawValue))
        #expect(Set(kinds.filter { $0.value.contains("handler") }.keys) == withHandlers)
        #expect(kinds["grid"] == ["recognizer"])
        #expect(kinds["dialog.ok"] == ["control"])
        #expect(kinds["tile.lights"] == ["recognizer"])
        let tooltip = svg.all("g", class: "marker").first { $0["data-view"] == "tile.lights" }?.children.first { $0.name == "title" }?.text
        #expect(tooltip?.contains("lights-all-off") == true)
    }

    @Test func idsAndTextAreEscaped() throws {
        var tree = ViewTree()
        try tree.addWindow("w<1>", WindowProperties(size: Size(width: 100, height: 100)))
        let nasty = "a&b \"c\" 'd' <e> --> \u{1}"
        try tree.addView(ResponderID(nasty), parent: "w<1>", ViewProperties(frame: Rect(x: 1, y: 2, width: 30, height: 40)))
        try tree.addView("second view", parent: "w<1>", ViewProperties(frame: Rect(x: 1, y: 2, width: 30, height: 40)))
        let renderer = try SVGRenderer(tree: tree, window: "w<1>", options: RenderOptions(title: "<title> & more"))
        let svg = try SVGDocumentReader.parse(renderer.svg())
        let views = svg.all("g", class: "view").map { $0["data-view"]! }
        #expect(views == [nasty.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"), "second view"])
        #expect(svg.children.first { $0.name == "title" }?.text == "<title> & more")
        #expect(escapeXML("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
    }

    @Test func hiddenViewsCanBeLeftOut() throws {
        let (_, app) = try Self.kiosk()
        let renderer = try SVGRenderer(tree: app.tree, window: "main", options: RenderOptions(showsHiddenViews: false))
        let views = try SVGDocumentReader.parse(renderer.svg()).all("g", class: "view").map { $0["data-view"]! }
        #expect(!views.contains { $0.hasPrefix("dialog.") })
        #expect(views.contains("tile.doors"))
    }

    @Test func anUnknownWindowIsNamed() throws {
        let (_, app) = try Self.kiosk()
        #expect(throws: RenderError.unknownWindow("nope", windows: ["main"])) {
            _ = try SVGRenderer(tree: app.tree, window: "nope")
        }
        #expect(RenderError.unknownWindow("nope", windows: ["main"]).description == "\"nope\" is not a window; windows: main")
    }

    @Test func scaleSetsThePixelSizeNotTheCoordinates() throws {
        let (_, app) = try Self.kiosk()
        let one = try SVGDocumentReader.parse(try SVGRenderer(tree: app.tree, window: "main", options: RenderOptions(scale: 1)).svg())
        let two = try SVGDocumentReader.parse(try SVGRenderer(tree: app.tree, window: "main", options: RenderOptions(scale: 2)).svg())
        #expect(one["viewBox"] == two["viewBox"])
        #expect(two.number("width")! == 2 * one.number("width")!)
    }
}
