import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchSystem

/// The installer's sessions through the socket, on a replayed skewed panel: a calibration holds the
/// device out of dispatch, fits, applies at once and keeps its file; a recording sends the events
/// as they were played, and they read back as the recording they came from.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DeviceSessionTests {
    /// A 4095 × 2559 panel at 16 units/mm whose touches land `skew` away from where they were meant.
    static let skew = CalibrationMatrix(a: 1.05, b: 0.04, c: -0.03, d: -0.03, e: 0.96, f: 0.05)
    static let window = Size(width: 1280, height: 800)

    static func panel() -> DeviceDescription {
        DeviceDescription(
            name: "skewed panel", bus: 3, vendor: 0x1234, product: 9, properties: [InputProperty.direct],
            codes: [
                EventType.syn: [EventType.syn, EventType.key, EventType.abs], EventType.key: [KeyCode.btnTouch],
                EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY],
            ],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2559, resolution: 16),
            ])
    }

    /// Taps (60 ms each) on window points at the given seconds, as the skewed panel reports them.
    static func recording(taps: [(seconds: Double, point: Point)]) -> Recording {
        var events: [InputEvent] = []
        func add(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(time: EventTime(microseconds: ms * 1000), type: type, code: code, value: value))
        }
        for (i, tap) in taps.enumerated() {
            let reported = skew.apply(to: Point(x: tap.point.x / window.width, y: tap.point.y / window.height))
            let (x, y) = (Int32((reported.x * 4095).rounded()), Int32((reported.y * 2559).rounded()))
            let ms = Int64((tap.seconds * 1000).rounded())
            add(ms, EventType.abs, AbsCode.mtTrackingID, Int32(i + 1))
            add(ms, EventType.abs, AbsCode.mtPositionX, x)
            add(ms, EventType.abs, AbsCode.mtPositionY, y)
            add(ms, EventType.key, KeyCode.btnTouch, 1)
            add(ms, EventType.syn, SynCode.report, 0)
            add(ms + 30, EventType.abs, AbsCode.mtPositionX, x + 1)
            add(ms + 30, EventType.syn, SynCode.report, 0)
            add(ms + 60, EventType.abs, AbsCode.mtTrackingID, -1)
            add(ms + 60, EventType.key, KeyCode.btnTouch, 0)
            add(ms + 60, EventType.syn, SynCode.report, 0)
        }
        return Recording(description: panel(), events: events)
    }

    static let layout = """
        [[window]]
        id = "main"
        size = [1280, 800]
        points_per_mm = 5

        [[view]]
        id = "left"
        parent = "main"
        frame = [0, 0, 640, 800]

        [[view]]
        id = "right"
        parent = "main"
        frame = [640, 0, 640, 800]

        [[device]]
        match.kind = "touchscreen"
        window = "main"
        calibration_file = "panel.calibration"

        """

    /// A daemon playing `recording` on a manual clock, with the layout above in `dir`.
    static func harness(_ recording: Recording, dir: String) throws -> (DaemonHarness, ManualClock) {
        try layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        try EvemuWriter.text(recording).write(toFile: dir + "/panel.evemu", atomically: true, encoding: .utf8)
        let loaded = try LoadedLayout.load(path: dir + "/layout.toml")
        let replay = try RecordingReplay(path: dir + "/panel.evemu", descriptionPath: nil, layout: loaded.document, tree: loaded.app.tree, window: nil)
        let clock = ManualClock(seconds: 100)
        let source = RecordingSource(replay: replay, clock: clock)
        return (try DaemonHarness(app: loaded.app, clock: clock, sources: [source], layoutFile: dir + "/layout.toml"), clock)
    }

    static func step(_ h: DaemonHarness, _ clock: ManualClock, by seconds: Double, _ clients: TestClient...) throws {
        clock.advance(by: TimeSpan(seconds: seconds))
        h.loop.runDueTimers()
        for client in clients { try h.drain(client) }
    }

    static func temporaryDirectory() throws -> String {
        let dir = temporaryPath("sessions")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aCalibrationHoldsTheDeviceFitsAppliesAndKeepsItsFile() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let targets = CalibrationSession.defaultTargets(in: Rect(origin: .zero, size: Self.window))
        var taps = targets.enumerated().map { (seconds: 1 + Double($0.offset) * 0.5, point: $0.element) }
        taps += [(seconds: 6, point: Point(x: 630, y: 400)), (seconds: 7, point: Point(x: 680, y: 400))]
        let (h, clock) = try Self.harness(Self.recording(taps: taps), dir: dir)
        let watcher = try h.connect(topics: ["hits"])
        let installer = try h.connectBare()
        installer.send(#"{"id":1,"cmd":"calibrate"}"#)
        try h.drain(installer)
        let started = try #require(installer.reply(id: 1)?["result"] as? [String: Any])
        #expect(started["device"] as? String == "replay:skewed panel")
        #expect((started["targets"] as? [[String: Any]])?.count == 5)
        #expect(started["calibration_file"] as? String == dir + "/panel.calibration")
        // The five taps play: each is told as it lands and as a sample when it lifts; no view gets one.
        try Self.step(h, clock, by: 0, installer, watcher)
        try Self.step(h, clock, by: 2.2, installer, watcher)
        let samples = installer.of(type: "calibration_sample")
        #expect(installer.of(type: "calibration_touch").count == 5 && samples.count == 5)
        #expect(watcher.of(type: "hit").isEmpty, "a held device's touches reach no view")
        for (target, sample) in samples.enumerated() {
            installer.send(#"{"id":\#(10 + target),"cmd":"calibration_point","sample":\#(sample["sample"] as? Int ?? 0),"target":\#(target)}"#)
        }
        installer.send(#"{"id":20,"cmd":"finish_calibration"}"#)
        try h.drain(installer)
        let finished = try #require(installer.reply(id: 20)?["result"] as? [String: Any], "\(installer.messages)")
        let worst = try #require(finished["worst_residual_mm"] as? Double)
        #expect(worst < 1, "\(finished)")
        #expect(finished["kept"] as? Bool == true)
        let kept = try CalibrationFile.parse(String(contentsOfFile: dir + "/panel.calibration", encoding: .utf8))
        #expect(kept.device == "replay:skewed panel" && kept.residualsMillimetres.count == 5)
        // Applied at once: the next taps land on the views they were meant for (uncalibrated, the
        // skew would put the tap at x = 630 on the right half).
        try Self.step(h, clock, by: 4, watcher)
        #expect(watcher.of(type: "hit").map { $0["view"] as? String } == ["left", "right"], "\(watcher.of(type: "hit"))")
        // And kept across a reload: the file is read with the layout.
        let reloaded = try LoadedLayout.load(path: dir + "/layout.toml")
        #expect(reloaded.document.devices.first?.calibrationFileMatrix == kept.matrix)
    }

    @Test func aCalibrationRefusesWhatItCannotDoAndEndsWithItsClient() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (h, clock) = try Self.harness(Self.recording(taps: [(1, Point(x: 100, y: 100)), (3, Point(x: 100, y: 100))]), dir: dir)
        let watcher = try h.connect(topics: ["hits"])
        let a = try h.connectBare()
        let b = try h.connectBare()
        a.send(#"{"id":1,"cmd":"calibrate","targets":[[10,10],[20,20],[2000,10]]}"#)
        a.send(#"{"id":2,"cmd":"finish_calibration"}"#)
        a.send(#"{"id":3,"cmd":"calibrate","device":"nope"}"#)
        a.send(#"{"id":4,"cmd":"calibrate"}"#)
        a.send(#"{"id":5,"cmd":"finish_calibration"}"#)
        a.send(#"{"id":6,"cmd":"calibration_point","sample":1,"target":0}"#)
        try h.drain(a)
        b.send(#"{"id":1,"cmd":"calibrate"}"#)
        try h.drain(b)
        #expect(a.code(id: 1) == "bad_argument" && a.code(id: 2) == "no_calibration" && a.code(id: 3) == "unknown_device")
        #expect(a.code(id: 4) == "ok" && a.code(id: 5) == "calibration_failed" && a.code(id: 6) == "bad_argument")
        #expect(b.code(id: 1) == "busy")
        try Self.step(h, clock, by: 0, watcher)
        #expect(watcher.of(type: "hit").isEmpty)
        // The installer leaves: the device is let go, and its next tap reaches a view.
        a.hangUp()
        try h.drain(watcher)
        try Self.step(h, clock, by: 2.5, watcher)
        #expect(watcher.of(type: "hit").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/panel.calibration"), "nothing was kept")
    }

    @Test func aCalibrationWhoseDeviceWentAwaySaysSoWhenFinished() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (h, clock) = try Self.harness(Self.recording(taps: [(1, Point(x: 100, y: 100))]), dir: dir)
        let installer = try h.connectBare()
        installer.send(#"{"id":1,"cmd":"calibrate"}"#)
        try h.drain(installer)
        #expect(installer.code(id: 1) == "ok")
        // The recording ends after its one tap: the device goes away while the session runs.
        try Self.step(h, clock, by: 0, installer)
        try Self.step(h, clock, by: 2, installer)
        #expect(installer.of(type: "calibration_ended").map { $0["reason"] as? String } == ["the device went away"])
        installer.send(#"{"id":2,"cmd":"finish_calibration"}"#)
        try h.drain(installer)
        #expect(installer.code(id: 2) == "no_calibration")
        let message = (installer.reply(id: 2)?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message == "the calibration of \"replay:skewed panel\" ended: the device went away; nothing changed; send calibrate to begin again", "\(message)")
    }

    @Test func aRecordingReadsBackAsTheEventsPlayed() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = Self.recording(taps: [(1, Point(x: 100, y: 100)), (2, Point(x: 900, y: 500))])
        let (h, clock) = try Self.harness(original, dir: dir)
        let recorder = try h.connectBare()
        recorder.send(#"{"id":1,"cmd":"record"}"#)
        try h.drain(recorder)
        let devices = try #require((recorder.reply(id: 1)?["result"] as? [String: Any])?["devices"] as? [[String: Any]])
        #expect(devices.count == 1)
        let description = try Recording.parseDescription(text: devices.first?["evemu"] as? String ?? "", name: "reply")
        try Self.step(h, clock, by: 0, recorder)
        try Self.step(h, clock, by: 2, recorder)
        var events: [InputEvent] = []
        for message in recorder.of(type: "raw") {
            for fields in message["events"] as? [[Int]] ?? [] where fields.count == 5 {
                events.append(InputEvent(
                    time: EventTime(seconds: Int64(fields[0]), microseconds: Int64(fields[1])), type: UInt16(fields[2]), code: UInt16(fields[3]),
                    value: Int32(fields[4])))
            }
        }
        #expect(description == original.description)
        #expect(events == original.events)
        let text = EvemuWriter.text(Recording(description: description, events: events))
        #expect(try Recording.parse(text: text, name: "recorded.evemu") == original)
        #expect(recorder.of(type: "recording_ended").map { $0["reason"] as? String } == ["the device went away"])
        recorder.send(#"{"id":2,"cmd":"stop_recording","device":"replay:skewed panel"}"#)
        try h.drain(recorder)
        #expect(recorder.code(id: 2) == "not_recording")
    }
}
