import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The installer's commands as people run them: `touchd calibrate --from-recording`, `touchd
/// measure`, and `touchctl record`, `calibrate` and `watch` against a daemon replaying a skewed panel.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InstallerToolTests {
    /// A directory with the sessions' layout and a recording of the skewed panel tapping `taps`.
    /// With `lingering`, the panel stays present for 60 s after the taps (a session outlives them).
    static func workspace(taps: [(seconds: Double, point: Point)], lingering: Bool = false) throws -> String {
        let dir = temporaryPath("installer")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try DeviceSessionTests.layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        var recording = DeviceSessionTests.recording(taps: taps)
        if lingering, let last = recording.events.last {
            recording.events.append(InputEvent(time: EventTime(microseconds: last.time.microseconds + 60_000_000), type: EventType.syn, code: SynCode.report, value: 0))
        }
        try EvemuWriter.text(recording).write(toFile: dir + "/panel.evemu", atomically: true, encoding: .utf8)
        return dir
    }

    static let targets = CalibrationSession.defaultTargets(in: Rect(origin: .zero, size: DeviceSessionTests.window))
    static var targetTaps: [(seconds: Double, point: Point)] { targets.enumerated().map { (1 + Double($0.offset) * 0.5, $0.element) } }

    /// `touchd` replaying the workspace's recording once a client asks for it.
    static func daemon(_ dir: String) throws -> (Process, String) {
        let socket = dir + "/touchd.sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments = [
            "--config", dir + "/layout.toml", "--socket", socket, "--no-devices", "--log-level", "warning", "--replay", dir + "/panel.evemu",
            "--replay-waits-for-client",
        ]
        try daemon.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        return (daemon, socket)
    }

    @Test func touchdCalibratesFromARecordingOfTheTargets() throws {
        let dir = try Self.workspace(taps: Self.targetTaps)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try runToEnd(
            Binaries.touchd, ["calibrate", "--from-recording", dir + "/panel.evemu", "--config", dir + "/layout.toml", "--out", dir + "/out.calibration"])
        #expect(run.status == 0, "\(run.stderr)")
        let worst = run.lines.first { $0.hasPrefix("worst residual ") }?.split(separator: " ")[2]
        #expect(worst.flatMap { Double($0) }.map { $0 < 1 } == true, "\(run.stdout)")
        #expect(run.lines.filter { $0.hasPrefix("target ") }.count == 5)
        let file = try CalibrationFile.parse(String(contentsOfFile: dir + "/out.calibration", encoding: .utf8))
        #expect(file.device == "replay:skewed panel" && file.residualsMillimetres.allSatisfy { $0 < 1 })
        let three = try runToEnd(
            Binaries.touchd,
            ["calibrate", "--from-recording", dir + "/panel.evemu", "--config", dir + "/layout.toml", "--targets", "128,80", "1152,80", "640,400"])
        #expect(three.status == 1)
        #expect(three.stderr.contains("has 5 touches for 3 targets: expected one touch per target, in order"), "\(three.stderr)")
    }

    /// Five taps in one spot, not on the targets: the fit would mean nothing, so nothing is written.
    @Test func touchdRefusesTapsHuddledInOneSpot() throws {
        let spot = [(0.0, 0.0), (6, 0), (6, 6), (0, 6), (3, 2)].map { Point(x: 640 + $0.0, y: 400 + $0.1) }
        let dir = try Self.workspace(taps: spot.enumerated().map { (1 + Double($0.offset) * 0.5, $0.element) })
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try runToEnd(
            Binaries.touchd, ["calibrate", "--from-recording", dir + "/panel.evemu", "--config", dir + "/layout.toml", "--out", dir + "/out.calibration"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("expected touches spread at least"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.calibration"))
    }

    @Test func touchdMeasuresTouchSizesAndSuggestsThresholds() throws {
        var device = DeviceSessionTests.panel()
        device.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 1000)
        device.codes[EventType.abs]?.insert(AbsCode.mtTouchMajor)
        var events: [InputEvent] = []
        for (i, major) in [96, 100, 104, 320].enumerated() {
            // Stamped as a recording of a live device is: seconds since the epoch.
            let t = 1_330_495_943_000_000 + Int64(i) * 1_000_000
            events += [
                InputEvent(time: EventTime(microseconds: t), type: EventType.abs, code: AbsCode.mtTrackingID, value: Int32(i)),
                InputEvent(time: EventTime(microseconds: t), type: EventType.abs, code: AbsCode.mtTouchMajor, value: Int32(major)),
                InputEvent(time: EventTime(microseconds: t), type: EventType.syn, code: SynCode.report, value: 0),
                InputEvent(time: EventTime(microseconds: t + 50_000), type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
                InputEvent(time: EventTime(microseconds: t + 50_000), type: EventType.syn, code: SynCode.report, value: 0),
            ]
        }
        let path = temporaryPath("measure") + ".evemu"
        try EvemuWriter.text(Recording(description: device, events: events)).write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let run = try runToEnd(Binaries.touchd, ["measure", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let size = try #require(report["palm_touch_major"] as? [String: Any])
        #expect(size["suggested"] as? Int == 212 && size["most"] as? Int == 320, "\(size)")
        #expect((report["contacts"] as? [[String: Any]])?.compactMap { $0["touch_major_mm"] as? Double } == [6, 6.25, 6.5, 20])
        #expect((report["palm_pressure"] as? [String: Any])?["suggested"] is NSNull)
        // Times count from the recording's start, in the JSON and in the text alike.
        let contacts = report["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.compactMap { ($0["began"] as? NSNumber)?.doubleValue } == [0, 1, 2, 3], "\(contacts)")
        #expect(contacts.compactMap { ($0["ended"] as? NSNumber)?.doubleValue } == [0.05, 1.05, 2.05, 3.05], "\(contacts)")
        let text = try runToEnd(Binaries.touchd, ["measure", path])
        #expect(text.lines.dropFirst().prefix(4).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == ["1 0 0.05", "2 1 0.05", "3 2 0.05", "4 3 0.05"], "\(text.stdout)")
        #expect(text.lines.contains { $0.hasPrefix("suggested palm_touch_major = 212: 3 contacts reached at most 104 (6.5 mm)") }, "\(text.stdout)")
    }

    /// A recording whose time goes backwards is measured with the warning `touchd replay` gives,
    /// and with times that never go below the start.
    @Test func measureWarnsOfARecordingWhoseTimeGoesBackwards() throws {
        var device = DeviceDescription(
            name: "measured panel", properties: [InputProperty.direct],
            codes: [EventType.syn: [SynCode.report], EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTouchMajor]])
        device.absInfo = [
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 1000),
        ]
        var events: [InputEvent] = []
        // The second contact's clock restarted: it comes after the first in the file, 5 s before it.
        for (i, start) in [Int64(10_000_000), 5_000_000].enumerated() {
            events += [
                InputEvent(time: EventTime(microseconds: start), type: EventType.abs, code: AbsCode.mtTrackingID, value: Int32(i)),
                InputEvent(time: EventTime(microseconds: start), type: EventType.abs, code: AbsCode.mtTouchMajor, value: 100),
                InputEvent(time: EventTime(microseconds: start), type: EventType.syn, code: SynCode.report, value: 0),
                InputEvent(time: EventTime(microseconds: start + 50_000), type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
                InputEvent(time: EventTime(microseconds: start + 50_000), type: EventType.syn, code: SynCode.report, value: 0),
            ]
        }
        let path = temporaryPath("measure-backwards") + ".evemu"
        try EvemuWriter.text(Recording(description: device, events: events)).write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let run = try runToEnd(Binaries.touchd, ["measure", path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("touchd measure: warning: 5.000000 [recording] time goes backwards at event 6 (from 10.050000 to 5.000000)"), "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let contacts = report["contacts"] as? [[String: Any]] ?? []
        #expect(contacts.compactMap { ($0["began"] as? NSNumber)?.doubleValue } == [0, 0.05], "\(contacts)")
        #expect(contacts.compactMap { ($0["ended"] as? NSNumber)?.doubleValue } == [0.05, 0.1], "\(contacts)")
    }

    @Test func touchctlRecordsWhatTheDaemonReads() throws {
        let dir = try Self.workspace(taps: [(1, Point(x: 100, y: 100)), (1.5, Point(x: 900, y: 500))])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try Self.daemon(dir)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(Binaries.touchctl, ["--socket", socket, "record", "--out", dir + "/recorded.evemu"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote \(dir)/recorded.evemu: 20 events of replay:skewed panel (the device went away)"), "\(run.stderr)")
        let original = try Recording.load(path: dir + "/panel.evemu")
        let recorded = try Recording.load(path: dir + "/recorded.evemu")
        #expect(recorded.events == original.events && recorded.description == original.description)
        // The same messages, replayed.
        let replay = { (file: String) in try runToEnd(Binaries.touchd, ["replay", file, "--config", dir + "/layout.toml", "--topics", "hits,touches"]).stdout }
        #expect(try replay(dir + "/recorded.evemu") == replay(dir + "/panel.evemu"))
    }

    @Test func touchctlRecordsEveryTouchDeviceIntoADirectory() throws {
        let dir = try Self.workspace(taps: [(1, Point(x: 100, y: 100))])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try Self.daemon(dir)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        try FileManager.default.createDirectory(atPath: dir + "/all", withIntermediateDirectories: true)
        let both = try runToEnd(Binaries.touchctl, ["--socket", socket, "record", "--all", "--device", "x", "--out", dir + "/all"])
        #expect(both.status == 64 && both.stderr.contains("--device and --all: give one of them"), "\(both.stderr)")
        let run = try runToEnd(Binaries.touchctl, ["--socket", socket, "record", "--all", "--out", dir + "/all"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let recorded = try Recording.load(path: dir + "/all/replay_skewed_panel.evemu")
        #expect(recorded.events.count == 10 && recorded.description.name == "skewed panel")
    }

    @Test func aRecordingThatCannotBeWrittenIsRefusedBeforeItStarts() throws {
        let dir = try Self.workspace(taps: [(1, Point(x: 100, y: 100))])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try Self.daemon(dir)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        for out in [["--out", dir + "/missing/recorded.evemu"], ["--all", "--out", dir + "/panel.evemu"], ["--out", dir]] {
            let run = try runToEnd(Binaries.touchctl, ["--socket", socket, "record"] + out, timeout: 60)
            #expect(run.status == 1, "\(out): \(run.stderr)")
            #expect(!run.stderr.contains("stop with Ctrl-C"), "refused before recording: \(run.stderr)")
        }
        let touchd = try runToEnd(Binaries.touchd, ["record", "/dev/input/event0", "--out", dir + "/missing/x.evemu"])
        #expect(touchd.status == 1 && touchd.stderr.contains("\(dir)/missing/x.evemu"), "\(touchd.stderr)")
    }

    @Test func touchctlCalibratesTargetByTarget() throws {
        let dir = try Self.workspace(taps: Self.targetTaps, lingering: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try Self.daemon(dir)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(Binaries.touchctl, ["--socket", socket, "calibrate"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.filter { $0.hasPrefix("touch target ") }.count == 5, "\(run.stdout)")
        #expect(run.lines.contains("touch target 4 at (640, 400): 128 mm from the window's left edge, 80 mm from its top"), "\(run.stdout)")
        #expect(run.lines.contains("kept in \(dir)/panel.calibration"), "\(run.stdout)")
        let worst = run.lines.first { $0.hasPrefix("worst residual ") }?.split(separator: " ")[2]
        #expect(worst.flatMap { Double($0) }.map { $0 < 1 } == true, "\(run.stdout)")
    }

    @Test func theFullScreenExampleCalibratesToo() throws {
        let python = try #require(ClientToolTests.python3, "python3 runs the example")
        let dir = try Self.workspace(taps: Self.targetTaps, lingering: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try Self.daemon(dir)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(python, ["examples/calibrate.py", "--socket", socket, "--text"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.filter { $0.hasPrefix("touch target ") }.count == 5, "\(run.stdout)")
        #expect(run.lines.contains("kept in \(dir)/panel.calibration"), "\(run.stdout)")
        let worst = run.lines.first { $0.hasPrefix("worst residual ") }?.split(separator: " ")[2]
        #expect(worst.flatMap { Double($0) }.map { $0 < 1 } == true, "\(run.stdout)")
    }

    /// One HTTP request to the watch page's server: the status line and the body read within a second.
    static func get(_ port: UInt16, _ path: String, method: String = "GET", host: String? = nil, token: String? = nil) throws -> (status: String, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(connected == 0)
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let authorization = token.map { "Cookie: touchctl_watch_\(port)=\($0)\r\n" } ?? ""
        let request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(authorization)\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (parts[0].components(separatedBy: "\r\n")[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test func touchctlWatchServesThePageTheLayoutAndTheStream() throws {
        let socket = temporaryPath("watch") + ".sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments = [
            "--config", "config/kiosk.toml", "--socket", socket, "--no-devices", "--log-level", "warning", "--replay", "config/demo-taps.evemu",
            "--replay-waits-for-client", "--replay-speed", "8",
        ]
        daemon.currentDirectoryURL = URL(fileURLWithPath: Binaries.repository)
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Binaries.touchctl)
        watch.arguments = ["--socket", socket, "watch", "--listen", "127.0.0.1:0"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        defer { watch.terminate(); watch.waitUntilExit() }
        var line = Data()
        while !line.contains(10), let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        let port = try #require(text.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }, "\(text)")
        #expect(text.hasPrefix("touchctl watch: serving http://127.0.0.1:\(port)/#token="))
        let token = String(try #require(text.split(separator: "#token=").last?.split(separator: " ").first))
        #expect(try Self.get(port, "/layout").status == "HTTP/1.1 401 Unauthorized", "what touchd says needs the token")
        let page = try Self.get(port, "/")
        #expect(page.status == "HTTP/1.1 200 OK" && page.body.contains(#"<script src="/watch.js"></script>"#))
        #expect(try Self.get(port, "/watch.js").body.contains("new EventSource(\"/events\")"))
        let layout = try Self.get(port, "/layout", token: token)
        let windows = (try JSONSerialization.jsonObject(with: Data(layout.body.utf8)) as? [String: Any])?["windows"] as? [[String: Any]]
        #expect(windows?.map { $0["id"] as? String } == ["main"])
        let svg = windows?.first?["svg"] as? String ?? ""
        #expect(svg.contains(#"data-view="tile.doors""#))
        #expect(!svg.contains(#"class="touch""#), "the page draws the touches itself")
        usleep(1_500_000)
        let events = try Self.get(port, "/events", token: token)
        #expect(events.status == "HTTP/1.1 200 OK")
        #expect(events.body.contains(#"data: {"seq":"#) && events.body.contains(#""type":"hit","time":1,"touch":1"#), "the recent messages come first")
        #expect(try Self.get(port, "/layout", host: "attacker.example:80", token: token).status == "HTTP/1.1 421 Misdirected Request")
        #expect(try Self.get(port, "/layout", host: "localhost:\(port)", token: token).status == "HTTP/1.1 200 OK")
        #expect(try Self.get(port, "/", method: "POST").status == "HTTP/1.1 405 Method Not Allowed")
        #expect(try Self.get(port, "/etc/passwd").status == "HTTP/1.1 404 Not Found")
    }
}
