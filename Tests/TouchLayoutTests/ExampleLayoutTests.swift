import Testing
import TouchCore

@testable import TouchLayout

/// The repository's `config/` directory, found from this file's path.
func configPath(_ name: String) -> String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TouchLayoutTests/ExampleLayoutTests.swift
    return (parts + ["config", Substring(name)]).joined(separator: "/")
}

/// A plain re-statement of UIKit hit-testing over the specs, enough to check that the example
/// layouts put things where their comments say (the real one lives in TouchCore).
func hitView(_ document: LayoutDocument, window: ResponderID, x: Double, y: Double) -> ResponderID? {
    func hit(_ id: ResponderID, _ point: Point) -> ResponderID? {
        guard let view = document.view(id), view.hitTestPolicy != .refuse else { return nil }
        if case .redirectAnywhere(let target) = view.hitTestPolicy { return target }
        guard !view.isHidden, view.alpha >= 0.01, view.isUserInteractionEnabled else { return nil }
        if view.hitTestPolicy == .capture { return id }
        let e = view.hitExpansion
        let area = Rect(
            x: view.boundsOrigin.x - e.left, y: view.boundsOrigin.y - e.top,
            width: view.frame.width + e.left + e.right, height: view.frame.height + e.top + e.bottom)
        guard area.contains(point) else { return nil }
        switch view.hitTestPolicy {
        case .redirect(let target): return target
        case .default, .passThrough, .refuse, .capture, .redirectAnywhere, .redirectInsideTarget:
            for subview in document.subviews(of: id).reversed() {
                let local = Point(x: point.x - subview.frame.minX, y: point.y - subview.frame.minY)
                if let found = hit(subview.id, local) { return found }
            }
            return view.hitTestPolicy == .passThrough ? nil : id
        }
    }
    for view in document.subviews(of: window).reversed() {
        if let found = hit(view.id, Point(x: x - view.frame.minX, y: y - view.frame.minY)) { return found }
    }
    return window
}

@Suite(.timeLimit(.minutes(10))) struct ExampleLayoutTests {
    @Test func kioskLoads() throws {
        let document = try LayoutLoader.load(path: configPath("kiosk.toml"))
        let main = try #require(document.window("main"))
        #expect(main.size == Size(width: 1280, height: 800))
        #expect(main.isKey)
        #expect(main.rootController == "home")
        #expect(document.view("header") != nil)

        let tiles = document.subviews(of: "grid")
        #expect(tiles.count == 6)
        #expect(tiles.allSatisfy { $0.frame.width >= 200 && $0.frame.height >= 200 })

        let info = try #require(document.view("header.info"))
        #expect(info.frame.size == Size(width: 20, height: 20))
        #expect(info.hitExpansion == EdgeInsets(all: 13))

        // Every tile opens with a tap (a recognizer, so that a drag opens nothing); no tile handles
        // touches itself.
        for tile in tiles {
            #expect(document.gestures.contains { $0.view == tile.id && $0.kind == .tap(taps: 1, touches: 1) && $0.action == "open-tile" })
            #expect(document.handlers(for: tile.id).isEmpty)
        }
        let lights = document.gestures.filter { $0.view == "tile.lights" }
        #expect(lights.map(\.kind) == [.tap(taps: 2, touches: 1), .tap(taps: 1, touches: 1)])
        #expect(lights.last?.requiresFailureOf == ["tile.lights.double"])
        // The info button and the dialog's buttons are buttons.
        #expect(document.controls.map(\.view) == ["header.info", "dialog.cancel", "dialog.ok"])
        #expect(document.controls.allSatisfy { $0.kind == .button && $0.targets.map(\.event) == [.touchUpInside] })

        // The dialog: presented by home, on top of the home screen, with a capturing backdrop.
        #expect(document.controller("dialog") == ControllerSpec(id: "dialog", properties: ControllerProperties(view: "dialog.root", presentedBy: "home")))
        #expect(document.subviews(of: "main").map(\.id) == ["home.root", "dialog.root"])
        let backdrop = try #require(document.view("dialog.backdrop"))
        #expect(backdrop.hitTestPolicy == .capture)
        #expect(backdrop.alpha < 1)
        #expect(backdrop.frame == Rect(x: 0, y: 0, width: 1280, height: 800))
        #expect(document.handlers(for: "dialog") == [
            Handler(responder: "dialog", trigger: .action, action: "dialog.confirm", payload: .object([("answer", "ok")]), selector: "confirm"),
        ])

        #expect(document.devices == [DeviceSpec(match: DeviceMatchSpec(kind: .touchscreen), window: "main")])
    }

    @Test func kioskTouchesLandWhereTheCommentsSay() throws {
        let document = try LayoutLoader.load(path: configPath("kiosk.toml"))
        // The dialog starts hidden: the tiles and the expanded info button take touches.
        #expect(document.view("dialog.root")?.isHidden == true)
        #expect(hitView(document, window: "main", x: 200, y: 300) == "tile.doors")
        #expect(hitView(document, window: "main", x: 40 + 410 + 5, y: 136 + 332 + 5) == "tile.cameras")
        #expect(hitView(document, window: "main", x: 1212, y: 30) == "header.info")  // outside 20×20, inside +13
        #expect(hitView(document, window: "main", x: 1205, y: 30) == "header")
        #expect(hitView(document, window: "main", x: 100, y: 48) == "header")  // the title is not interactive

        // Shown, the dialog makes the home screen unreachable; its buttons work.
        var shown = document
        let index = try #require(shown.views.firstIndex { $0.id == "dialog.root" })
        shown.views[index].isHidden = false
        #expect(hitView(shown, window: "main", x: 200, y: 300) == "dialog.backdrop")
        #expect(hitView(shown, window: "main", x: 1230, y: 48) == "dialog.backdrop")
        #expect(hitView(shown, window: "main", x: 390 + 270 + 100, y: 250 + 210 + 30) == "dialog.ok")
        #expect(hitView(shown, window: "main", x: 390 + 30 + 100, y: 250 + 210 + 30) == "dialog.cancel")
        #expect(hitView(shown, window: "main", x: 640, y: 300) == "dialog.panel")
    }

    @Test func seedExperimentLoads() throws {
        let document = try LayoutLoader.load(path: configPath("seed-experiment.toml"))
        #expect(document.windows == [
            WindowSpec(
                id: "window",
                properties: WindowProperties(size: Size(width: 375, height: 667), isKey: true, rootController: "ViewController", refreshRate: 60)),
        ])
        #expect(document.controllers == [ControllerSpec(id: "ViewController", properties: ControllerProperties(view: "root"))])
        #expect(document.view("root")?.frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(document.subviews(of: "window").map(\.id) == ["root"])
        #expect(document.subviews(of: "root").map(\.id) == ["orange"])
        // Bottom to top: hit-testing asks black, then green, then blue, as in the article's log.
        #expect(document.subviews(of: "orange").map(\.id) == ["blue", "green", "black"])
        #expect(document.subviews(of: "blue").map(\.id) == ["red"])
        #expect(document.subviews(of: "red").map(\.id) == ["btn"])
        #expect(document.views.count == 7)

        // A touch on blue away from red lands on blue; one on red lands on the button filling it.
        #expect(hitView(document, window: "window", x: 60, y: 160) == "blue")
        #expect(hitView(document, window: "window", x: 150, y: 250) == "btn")
        #expect(hitView(document, window: "window", x: 300, y: 200) == "black")
        #expect(hitView(document, window: "window", x: 100, y: 400) == "green")
        #expect(hitView(document, window: "window", x: 10, y: 10) == "root")

        var expected: [Handler] = []
        for responder in ["blue", "orange", "ViewController", "app_delegate"] {
            for (trigger, method) in [
                (HandlerTrigger.touchesBegan, "touchesBegan"), (.touchesEnded, "touchesEnded"),
                (.touchesCancelled, "touchesCancelled"),
            ] {
                expected.append(Handler(responder: ResponderID(responder), trigger: trigger, action: "\(responder).\(method)"))
            }
        }
        expected.append(Handler(responder: "ViewController", trigger: .action, action: "button - tap", selector: "tap"))
        #expect(document.handlers == expected)
        // Orange's tap recognizer and the button, as in the article.
        #expect(document.gestures.map(\.id) == ["orange.tap"])
        #expect(document.gestures.first?.view == "orange")
        #expect(document.gestures.first?.kind == .tap(taps: 1, touches: 1))
        #expect(document.gestures.first?.action == "UITapGestureRecognizer - tap")
        #expect(document.controls == [ControlSpec(view: "btn", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "tap")])])
        #expect(document.devices == [DeviceSpec(window: "window")])
    }
}
