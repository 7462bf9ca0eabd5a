import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// Every real recording in ../shared/recordings through the whole pipeline (decode, frames,
/// mapping, application, messages), and the bundled demo recording as a golden test.
@Suite(.timeLimit(.minutes(10))) struct RecordingReplayTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
    static let recordings = root + "/../shared/recordings"
    static let available = FileManager.default.fileExists(atPath: recordings + "/INDEX.tsv")

    struct Row: CustomTestStringConvertible, Sendable {
        var path: String
        var touchDowns: Int?
        var maxContacts: Int?
        var testDescription: String { path }
    }

    /// The INDEX.tsv rows that are touch recordings with events (not description-only, not the keyboard).
    static let rows: [Row] = {
        guard available, let text = try? String(contentsOfFile: recordings + "/INDEX.tsv", encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.removeFirst()
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        return lines.compactMap { cells in
            let format = cells[column("format")]
            guard !format.contains("description only"), !cells[column("path")].hasSuffix(".yml") else { return nil }
            return Row(path: cells[column("path")], touchDowns: Int(cells[column("touch_downs")]), maxContacts: Int(cells[column("max_simultaneous_contacts")]))
        }
    }()

    static func checkAvailable() {
        if !available {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record("../shared/recordings is missing: CI must run the recording tests")
            } else {
                print("note: ../shared/recordings is absent: the real-recording replay tests were skipped")
            }
        }
    }

    static func plainLayout() throws -> (LayoutDocument, Application) {
        let document = try LayoutLoader.parse("[[window]]\nid = \"w\"\nsize = [1000, 1000]\n", file: "test.toml")
        return (document, try document.makeApplication())
    }

    @Test func recordingsAreThere() {
        Self.checkAvailable()
        if Self.available { #expect(Self.rows.count >= 30) }
    }

    @Test(.enabled(if: RecordingReplayTests.available, "../shared/recordings is absent"), arguments: RecordingReplayTests.rows)
    func replaysThroughTheWholePipeline(row: Row) throws {
        // The whole window is one view: every touch, the panel's edges included, must land on it.
        let document = try LayoutLoader.parse(
            "[[window]]\nid = \"w\"\nsize = [1000, 1000]\n[[view]]\nid = \"all\"\nparent = \"w\"\nframe = [0, 0, 1000, 1000]\n",
            file: "test.toml")
        var app = try document.makeApplication()
        let replay = try RecordingReplay(path: Self.recordings + "/" + row.path, descriptionPath: nil, layout: document, tree: app.tree, window: "w")
        var hits: [HitRecord] = []
        var finals: [TouchID: Int] = [:]
        var maxDown = 0
        var messages = 0
        replay.run(into: &app) { report in
            hits += report.hits
            for touch in report.changedTouches where touch.phase.isFinal { finals[touch.id, default: 0] += 1 }
            maxDown = max(maxDown, report.event.allTouches.filter { !$0.phase.isFinal }.count)
            messages += MessageEncoder.messages(for: report).count
        }
        if let expected = row.touchDowns { #expect(hits.count == expected, "touch-downs") }
        if let expected = row.maxContacts, row.touchDowns != nil { #expect(maxDown <= expected, "simultaneous contacts") }
        #expect(!hits.isEmpty, "at least one touch")
        for hit in hits {
            #expect(finals[hit.touch] == 1, "touch \(hit.touch) finished \(finals[hit.touch] ?? 0) times")
            #expect(hit.pointInWindow.x >= 0 && hit.pointInWindow.x < 1000 && hit.pointInWindow.y >= 0 && hit.pointInWindow.y < 1000,
                    "lands inside the window: \(hit.pointInWindow)")
            #expect(hit.window == "w")
            #expect(hit.view == "all", "touch \(hit.touch) at \(hit.pointInWindow) hits the view under it")
        }
        #expect(app.activeTouches.isEmpty)
        #expect(messages > 0)
    }

    /// The shared keyboard recording (libinput-record) replays as presses at the first responder,
    /// through a `keys` entry that names no window.
    @Test(.enabled(if: RecordingReplayTests.available, "../shared/recordings is absent"))
    func theKeyboardRecordingReplaysAsPressesAtTheFirstResponder() throws {
        let document = try LayoutLoader.parse(
            """
            [[window]]
            id = "w"
            size = [800, 480]
            first_responder = "field"
            [[view]]
            id = "field"
            parent = "w"
            frame = [0, 0, 100, 40]
            can_become_first_responder = true
            [[device]]
            match.kind = "keys"
            """, file: "keys.toml")
        var app = try document.makeApplication()
        let replay = try RecordingReplay(path: Self.recordings + "/ibus/libinput-test.yml", descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        let downs = replay.recording.events.filter { $0.type == 1 && $0.value == 1 }.count
        var presses: [Press] = []
        replay.run(into: &app) { report in presses += report.presses }
        #expect(downs > 10)
        #expect(presses.filter { $0.phase == .began }.count == downs)
        #expect(presses.filter { $0.phase == .ended }.count == downs, "every key that went down came up")
        #expect(presses.allSatisfy { $0.responder == "field" })
        #expect(presses.contains { $0.keyName == "KEY_A" })
    }

    @Test(.enabled(if: RecordingReplayTests.available, "../shared/recordings is absent"))
    func theLGPinchKeepsTwoTouchesWhoseDistanceChanges() throws {
        let (document, loaded) = try Self.plainLayout()
        var app = loaded
        let replay = try RecordingReplay(path: Self.recordings + "/hid-devices/lg_1fd2_0064_0.ev", descriptionPath: nil, layout: document, tree: app.tree, window: "w")
        var distances: [Double] = []
        replay.run(into: &app) { report in
            let down = report.event.allTouches.filter { !$0.phase.isFinal }
            if down.count == 2 { distances.append(down[0].locationInWindow.distance(to: down[1].locationInWindow)) }
        }
        let spread = (distances.max() ?? 0) - (distances.min() ?? 0)
        #expect(distances.count > 10)
        #expect(spread > 100, "a pinch: the fingers' distance changes by \(spread) points")
    }

    @Test func theDemoRecordingOnTheKioskLayoutGivesTheDocumentedActions() throws {
        let document = try LayoutLoader.load(path: Self.root + "/config/kiosk.toml")
        var app = try document.makeApplication()
        let replay = try RecordingReplay(path: Self.root + "/config/demo-taps.evemu", descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        #expect(replay.match?.explanation == "device[0] → window main")
        var subscriber = SubscriberView(topics: [.hits, .actions])
        var lines: [String] = []
        replay.run(into: &app) { report in lines += subscriber.lines(for: report) }
        let messages = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(messages.map { $0["seq"] as? Int } == Array(1...messages.count).map { Optional($0) })
        // A tap on the doors tile, the info button, a double tap on the lights tile, nothing for the
        // touch between tiles, the drag across the music tile or the two fingers on the cameras
        // tile (no taps), then taps on the music and doors tiles.
        let actions = messages.filter { $0["type"] as? String == "action" }
        #expect(actions.map { $0["name"] as? String } == ["open-tile", "show-info", "lights-all-off", "open-tile", "open-tile"])
        #expect(actions.map { ($0["payload"] as? [String: Any])?["tile"] as? String } == ["doors", nil, nil, "music", "doors"])
        #expect(actions[1]["control"] as? String == "header.info" && actions[1]["responder"] is NSNull)
        #expect(messages.filter { $0["type"] as? String == "hit" }.map { $0["view"] as? String } == [
            "tile.doors", "header.info", "tile.lights", "tile.lights", "grid", "tile.music", "tile.cameras", "tile.cameras", "tile.music",
            "tile.doors",
        ])
        #expect(messages.filter { $0["type"] as? String == "hit" }.map { $0["tap_count"] as? Int } == [1, 1, 1, 2, 1, 1, 1, 1, 1, 1])
    }

    @Test func aRecordingNoEntryTakesIsExplained() throws {
        let document = try LayoutLoader.parse(
            "[[window]]\nid = \"w\"\nsize = [100, 100]\n[[device]]\nmatch.kind = \"touchpad\"\nwindow = \"w\"\n", file: "pads.toml")
        let app = try document.makeApplication()
        #expect {
            _ = try RecordingReplay(path: Self.root + "/config/demo-taps.evemu", descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        } throws: { error in
            "\(error)".contains("kind is touchscreen, not touchpad") && "\(error)".contains("--window")
        }
    }

    @Test func aBadRecordingNamesItsLine() throws {
        let path = NSTemporaryDirectory() + "touchd-bad-\(getpid()).evemu"
        try "N: x\nI: 0003 0001 0001 0001\nE: 1.0 0003 zz 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let (document, app) = try Self.plainLayout()
        #expect {
            _ = try RecordingReplay(path: path, descriptionPath: nil, layout: document, tree: app.tree, window: "w")
        } throws: { error in
            "\(error)".contains(":3")
        }
    }
}
