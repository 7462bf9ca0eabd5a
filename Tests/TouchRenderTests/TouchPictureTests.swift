import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout
import TouchRender

/// Touches, heatmaps and hit-tests drawn over a window.
@Suite(.timeLimit(.minutes(10))) struct TouchPictureTests {
    /// The demo recording replayed on the kiosk layout: its touch paths and hit records.
    static func demoReplay() throws -> (tree: ViewTree, paths: [TouchPath], hits: [HitRecord], markers: ViewMarkers) {
        let (document, loaded) = try WindowPictureTests.kiosk()
        var app = loaded
        let replay = try RecordingReplay(
            path: repositoryRoot + "/config/demo-taps.evemu", descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        var recorder = TouchPathRecorder()
        var hits: [HitRecord] = []
        replay.run(into: &app) { report in
            recorder.record(report)
            hits += report.hits
        }
        return (app.tree, recorder.paths, hits, WindowPictureTests.markers(document, app))
    }

    @Test func eachTouchIsColouredLikeTheViewThatReceivedIt() throws {
        let (tree, paths, hits, markers) = try Self.demoReplay()
        // The replay's known results (the daemon's golden test has the same list).
        #expect(hits.map { $0.view?.rawValue } == [
            "tile.doors", "header.info", "tile.lights", "tile.lights", "grid", "tile.music", "tile.cameras", "tile.cameras", "tile.music",
            "tile.doors",
        ])
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "main", markers: markers).svg(touches: paths))
        let viewColours = Dictionary(
            uniqueKeysWithValues: svg.all("g", class: "view").map { ($0["data-view"]!, $0["data-colour"]!) })
        let touches = svg.all("g", class: "touch")
        #expect(touches.map { $0["data-touch"] } == hits.map { String($0.touch) })
        #expect(touches.map { $0["data-view"] } == hits.map { $0.view?.rawValue })
        // Touch 8 lands on tile.cameras while touch 7 is still down there: the single-touch view refuses
        // it, so no view received it and it is drawn grey and dashed, marked with the reason.
        #expect(hits.map(\.delivery) == Array(repeating: .delivered, count: 7) + [.multipleTouchDisabled, .delivered, .delivered])
        let refused = touches.filter { $0["data-not-delivered"] != nil }
        #expect(refused.map { $0["data-touch"] } == ["8"])
        #expect(refused.first?["data-not-delivered"] == "multiple_touch_disabled")
        #expect(refused.first?["data-colour"] == ViewColours.noView.description)
        let refusedPath = refused.first?.children.first { $0.classes.contains("touch-path") }
        #expect(refusedPath == nil || refusedPath?["stroke-dasharray"] != nil)
        for (touch, hit) in zip(touches, hits) {
            let view = touch["data-view"]!
            let colour = touch["data-colour"]
            let expected = hit.delivery == .delivered ? viewColours[view] : ViewColours.noView.description
            #expect(colour != nil && colour == expected, "touch \(touch["data-touch"]!) on \(view)")
            // What is actually painted: the path's stroke and the touch-down dot.
            for mark in touch.children where mark.classes.contains("touch-path") { #expect(mark["stroke"] == colour) }
            let down = touch.children.first { $0.classes.contains("touch-down") }
            #expect(down?["fill"] == colour)
            #expect(touch["data-end"] == "ended")
            #expect(touch.children.contains { $0.classes.contains("touch-up") })
        }
        // Each touch-down dot is where the hit-test happened.
        for (touch, hit) in zip(touches, hits) {
            let down = touch.children.first { $0.classes.contains("touch-down") }!
            #expect(abs(down.number("cx")! - hit.pointInWindow.x) < 0.001 && abs(down.number("cy")! - hit.pointInWindow.y) < 0.001)
        }
        // The swipe on the music tile is a path with moves, not a dot.
        let music = touches.first { $0["data-view"] == "tile.music" }!
        let line = music.children.first { $0.classes.contains("touch-path") }
        #expect((line?["points"]?.split(separator: " ").count ?? 0) > 2)
    }

    @Test func aTouchNoViewTookIsGreyAndACancelledOneIsCrossed() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 200, height: 100)))
        let paths = [
            TouchPath(id: 1, window: "w", view: nil, delivery: .noView, points: [
                TouchPathPoint(location: Point(x: 10, y: 10), phase: .began, timestamp: 0),
                TouchPathPoint(location: Point(x: 12, y: 10), phase: .ended, timestamp: 0.1),
            ]),
            TouchPath(id: 2, window: "w", view: "w", points: [
                TouchPathPoint(location: Point(x: 50, y: 50), phase: .began, timestamp: 0),
                TouchPathPoint(location: Point(x: 60, y: 50), phase: .moved, timestamp: 0.1),
                TouchPathPoint(location: Point(x: 70, y: 50), phase: .cancelled, timestamp: 0.2),
            ]),
            TouchPath(id: 3, window: "other", view: nil, points: [TouchPathPoint(location: Point(x: 1, y: 1), phase: .began, timestamp: 0)]),
        ]
        let svg = try SVGDocumentReader.parse(try SVGRenderer(tree: tree, window: "w").svg(touches: paths))
        let touches = svg.all("g", class: "touch")
        #expect(touches.map { $0["data-touch"] } == ["1", "2"], "another window's touch is left out")
        #expect(touches[0]["data-colour"] == ViewColours.noView.description)
        #expect(touches[1]["data-end"] == "cancelled")
        #expect(touches[1].children.contains { $0.classes.contains("touch-cancel") })
    }

    @Test func theHeatmapCountsTouchDowns() throws {
        let (tree, paths, hits, _) = try Self.demoReplay()
        let renderer = try SVGRenderer(tree: tree, window: "main", options: RenderOptions(heatmapCellSize: 40))
        let heatmap = renderer.heatmap(of: paths)
        #expect(heatmap.total == hits.count && heatmap.outside == 0)
        #expect(heatmap.columns == 32 && heatmap.rows == 20)
        // The double tap on the lights tile lands twice in one cell.
        #expect(heatmap.maximum == 2)
        let svg = try SVGDocumentReader.parse(renderer.svg(touches: [], heatmap: heatmap))
        let cells = svg.all("rect", class: "heat")
        #expect(cells.reduce(0) { $0 + Int($1["data-count"]!)! } == hits.count)
        for cell in cells {
            let r = cell.rect!
            let inside = hits.filter { r.contains($0.pointInWindow) }.count
            #expect(String(inside) == cell["data-count"])
        }
    }

    @Test func heatmapBinning() {
        var map = Heatmap(area: Rect(x: 0, y: 0, width: 100, height: 50), cellSize: 30)
        #expect(map.columns == 4 && map.rows == 2)
        for p in [Point(x: 0, y: 0), Point(x: 29.9, y: 29.9), Point(x: 30, y: 0), Point(x: 99.9, y: 49.9), Point(x: 100, y: 10), Point(x: -1, y: 0)] {
            map.add(p)
        }
        #expect(map.count(column: 0, row: 0) == 2)
        #expect(map.count(column: 1, row: 0) == 1)
        #expect(map.count(column: 3, row: 1) == 1)
        #expect(map.total == 4 && map.outside == 2 && map.maximum == 2)
        #expect(map.cell(column: 3, row: 1) == Rect(x: 90, y: 30, width: 30, height: 30))
    }

    @Test func theRecorderKeepsCoalescedSamplesAndItsLimit() throws {
        let (_, paths, _, _) = try Self.demoReplay()
        for path in paths {
            #expect(path.points.first?.phase == .began)
            #expect(path.finalPhase == .ended)
            #expect(path.points.dropFirst().dropLast().allSatisfy { $0.phase == .moved })
            #expect(zip(path.points, path.points.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        }
        // With a limit, the oldest finished paths go first.
        let (document, loaded) = try WindowPictureTests.kiosk()
        var app = loaded
        let replay = try RecordingReplay(
            path: repositoryRoot + "/config/demo-taps.evemu", descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        var recorder = TouchPathRecorder(limit: 3)
        replay.run(into: &app) { report in recorder.record(report) }
        #expect(recorder.paths.map(\.id) == paths.suffix(3).map(\.id))
        #expect(recorder.paths == Array(paths.suffix(3)))
    }

    /// Random streams of up to four fingers at once, some held across many others' taps: the
    /// recorder with a limit keeps the paths a plain model keeps (a list searched from the front,
    /// the oldest finished path dropped, else the oldest), sample for sample.
    @Test func aFullRecorderDropsAndFindsPathsAsAPlainListWould() throws {
        struct PlainRecorder {
            let limit: Int
            var paths: [TouchPath] = []
            mutating func record(_ report: DispatchReport) {
                for touch in report.changedTouches {
                    if !paths.contains(where: { $0.id == touch.id }) {
                        paths.append(
                            TouchPath(
                                id: touch.id, device: touch.device, window: touch.window, view: touch.view, delivery: touch.delivery,
                                tapCount: touch.tapCount, points: []))
                        while paths.count > limit { paths.remove(at: paths.firstIndex { $0.finalPhase != nil } ?? 0) }
                    }
                    guard let i = paths.firstIndex(where: { $0.id == touch.id }), !(paths[i].finalPhase != nil) else { continue }
                    if touch.phase != .began {
                        for sample in touch.coalescedSamples {
                            paths[i].points.append(TouchPathPoint(location: sample.locationInWindow, phase: .moved, timestamp: sample.timestamp))
                        }
                    }
                    paths[i].points.append(TouchPathPoint(location: touch.locationInWindow, phase: touch.phase, timestamp: touch.timestamp))
                    paths[i].delivery = touch.delivery
                }
            }
        }
        var generator = SeededRandom(seed: 28)
        for round in 0..<40 {
            var tree = ViewTree()
            try tree.addWindow("w", WindowProperties(size: Size(width: 1000, height: 1000)))
            var app = Application(tree: tree)
            let limit = Int.random(in: 1...6, using: &generator)
            var recorder = TouchPathRecorder(limit: limit)
            var plain = PlainRecorder(limit: limit)
            var down: [UInt64] = []
            var nextContact: UInt64 = 1
            for step in 0..<200 {
                var contacts: [InputContact] = []
                for contact in down {
                    let lifts = Int.random(in: 0..<8, using: &generator) == 0
                    contacts.append(
                        InputContact(id: contact, phase: lifts ? .ended : .moved, location: Point(x: Double(step), y: Double(contact % 900))))
                }
                down = contacts.filter { $0.phase == .moved }.map(\.id)
                if down.count < 4, Bool.random(using: &generator) {
                    contacts.append(InputContact(id: nextContact, phase: .began, location: Point(x: Double(step), y: Double(nextContact % 900))))
                    down.append(nextContact)
                    nextContact += 1
                }
                guard !contacts.isEmpty else { continue }
                let frame = InputFrame(device: "d", window: "w", timestamp: InputTime(seconds: Double(step) / 100), contacts: contacts)
                for report in app.send(frame) {
                    recorder.record(report)
                    plain.record(report)
                }
            }
            #expect(recorder.paths == plain.paths, "round \(round), limit \(limit)")
        }
    }

    @Test func aLongHeldTouchKeepsItsShapeInBoundedMemory() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 1000, height: 1000)))
        var app = Application(tree: tree)
        var recorder = TouchPathRecorder(limit: 10, pointLimit: 100)
        func send(_ t: Double, _ phase: TouchPhase, _ x: Double) {
            let frame = InputFrame(device: "d", window: "w", timestamp: InputTime(seconds: t), contacts: [InputContact(id: 1, phase: phase, location: Point(x: x, y: 5))])
            for report in app.send(frame) { recorder.record(report) }
        }
        send(0, .began, 0)
        for i in 1...5_000 { send(Double(i) / 1000, .moved, Double(i % 1000)) }
        send(5.001, .ended, 7)
        let path = try #require(recorder.paths.first)
        #expect(path.points.count <= 100 && path.points.count > 50, "\(path.points.count)")
        #expect(path.points.first?.phase == .began && path.points.first?.location.x == 0)
        #expect(path.finalPhase == .ended && path.points.last?.location.x == 7)
        #expect(zip(path.points, path.points.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "a subsequence, in order")
    }

    @Test func theSnapshotFunctionDrawsATreeWithItsRecentTouches() throws {
        let (tree, paths, _, markers) = try Self.demoReplay()
        let text = try SVGRenderer.snapshot(tree: tree, window: "main", markers: markers, touches: paths, heatmap: true)
        let svg = try SVGDocumentReader.parse(text)
        #expect(svg.all("g", class: "touch").count == paths.count)
        #expect(svg.descendants.contains { $0["id"] == "heatmap" })
    }

    @Test func coloursAreStableAndWellFormed() {
        // Fixed values: a view keeps its colour across runs, processes and pictures.
        let a = ViewColours.colour(of: "tile.doors")
        #expect(a.description == "#678f19")
        #expect(ViewColours.colour(of: "home.root").description == "#8f1928")
        #expect(a == ViewColours.colour(of: ResponderID("tile." + "doors")))
        #expect(a.description.count == 7 && a.description.hasPrefix("#"))
        let sample = ["tile.doors", "tile.lights", "tile.climate", "tile.music", "tile.cameras", "tile.settings"].map {
            ViewColours.colour(of: ResponderID($0))
        }
        #expect(Set(sample).count == sample.count)
        #expect(RGBColour(hue: 0, saturation: 1, lightness: 0.5).description == "#ff0000")
        #expect(RGBColour(hue: 120, saturation: 1, lightness: 0.5).description == "#00ff00")
        #expect(RGBColour(hue: 240, saturation: 1, lightness: 0.25).description == "#000080")
    }
}
