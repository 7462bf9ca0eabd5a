import Foundation
import Testing
import TouchSystem

/// The operator's and the kiosk app's side of the socket: `touchctl` and the Python example client
/// against the real daemon playing the bundled demo recording.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientToolTests {
    static let python3: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Starts the daemon on the kiosk layout, playing the demo recording once a client subscribes.
    /// `speed` > 1 plays it faster (a client that reacts to actions needs the real pace).
    static func startDemoDaemon(socket: String, speed: Double = 1) throws -> Process {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments = [
            "--config", "config/kiosk.toml", "--socket", socket, "--log-level", "warning",
            "--replay", "config/demo-taps.evemu", "--replay-waits-for-client", "--exit-after-replay",
            "--replay-speed", String(speed),
        ]
        daemon.currentDirectoryURL = URL(fileURLWithPath: Binaries.repository)
        try daemon.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        return daemon
    }

    @Test func monitorFiltersByViewPrefixAndActionName() throws {
        let socket = temporaryPath("client") + ".sock"
        let daemon = try Self.startDemoDaemon(socket: socket, speed: 8)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(
            Binaries.touchctl, ["monitor", "--socket", socket, "--filter", "view=tile.*", "--filter", "action=open-tile", "--json"])
        #expect(run.status == 0)
        let messages = run.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let hits = messages.filter { $0["type"] as? String == "hit" }
        // The demo's touches on the tiles (touch 2 is on the header, touch 5 on the grid between tiles).
        #expect(hits.map { $0["touch"] as? Int } == [1, 3, 4, 6, 7, 8, 9, 10])
        #expect(hits.allSatisfy { ($0["view"] as? String)?.hasPrefix("tile.") == true })
        let actions = messages.filter { $0["type"] as? String == "action" }
        // The tiles' tap recognizers: the drag on the music tile and the two fingers on the cameras
        // tile are no taps.
        #expect(actions.map { $0["responder"] as? String } == ["tile.doors.tap", "tile.music.tap", "tile.doors.tap"])
        #expect(actions.allSatisfy { $0["name"] as? String == "open-tile" })
        // lights-all-off (tile.lights' double tap) is filtered out by name, show-info by view.
        #expect(messages.last?["type"] as? String == "goodbye")
        // Sequence numbers only grow: the filter leaves gaps, never reorders.
        let seqs = messages.compactMap { $0["seq"] as? Int }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
    }

    /// `touchd` on the kiosk layout with no input, on a fresh socket; `body` runs with the socket.
    static func withIdleDaemon(layout: String = "config/kiosk.toml", _ body: (String) throws -> Void) throws {
        let socket = temporaryPath("ctl") + ".sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments = ["--config", layout, "--socket", socket, "--no-devices", "--log-level", "warning"]
        daemon.currentDirectoryURL = URL(fileURLWithPath: Binaries.repository)
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        try body(socket)
    }

    @Test func touchctlTakesItsSocketBeforeOrAfterTheCommandAndPrintsReadableAnswers() throws {
        try Self.withIdleDaemon { socket in
            #expect(try runToEnd(Binaries.touchctl, ["--socket", socket, "ping"]).stdout == "pong\n")
            #expect(try runToEnd(Binaries.touchctl, ["ping", "--socket", socket]).stdout == "pong\n")

            // touchctl hit-test prints its trace as touchd hit-test does: indented, with the path.
            for (x, y) in [("1212", "30"), ("5", "5"), ("600.5", "250.25")] {
                let live = try runToEnd(Binaries.touchctl, ["--socket", socket, "hit-test", x, y])
                let offline = try runToEnd(Binaries.touchd, ["hit-test", "--config", "config/kiosk.toml", x, y])
                #expect(live.status == 0 && live.lines == offline.lines, "\(live.stdout)\n---\n\(offline.stdout)")
                #expect(live.lines.contains { $0.hasPrefix("  → ") }, "\(live.stdout)")
            }

            let views = try runToEnd(Binaries.touchctl, ["--socket", socket, "views"])
            #expect(views.status == 0, "\(views.stderr)")
            #expect(views.lines.first == "window main 1280×800, key, root controller home", "\(views.lines)")
            #expect(views.lines.contains("      header.title [40, 24, 600, 48] no interaction"), "\(views.lines)")
            #expect(views.lines.contains("  dialog.root [0, 0, 1280, 800] hidden, root of dialog"), "\(views.lines)")
            #expect(views.lines.contains("controller dialog → dialog.root, presented by home"))
            let json = try runToEnd(Binaries.touchctl, ["--socket", socket, "views", "--json"])
            #expect(json.lines.allSatisfy { $0.hasPrefix("{\"id\":") }, "one JSON object a line")

            let devices = try runToEnd(Binaries.touchctl, ["--socket", socket, "devices"])
            #expect(devices.stdout == "no input device\n", "\(devices.stdout)")
            #expect(try runToEnd(Binaries.touchctl, ["--socket", socket, "devices", "--json"]).stdout == "[]\n")

            // A view touchctl adds stays after it has gone; a set is dropped by a reload, and said so.
            let added = try runToEnd(Binaries.touchctl, ["--socket", socket, "add-view", "badge", "--parent", "header", "frame=10,10,30,30", "alpha=0.5"])
            #expect(added.status == 0 && added.stdout == "added badge to header\n", "\(added.stderr)")
            #expect(try runToEnd(Binaries.touchctl, ["--socket", socket, "views"]).lines.contains("      badge [10, 10, 30, 30] alpha 0.5"))
            _ = try runToEnd(Binaries.touchctl, ["--socket", socket, "set", "dialog.root", "hidden=false"])
            let reload = try runToEnd(Binaries.touchctl, ["--socket", socket, "reload"])
            #expect(reload.lines == [
                "reloaded: 16 views", "run-time change dropped: views set dialog.root", "run-time change dropped: views added badge",
            ], "\(reload.stdout) \(reload.stderr)")
            _ = try runToEnd(Binaries.touchctl, ["--socket", socket, "add-view", "badge", "--parent", "header", "frame=10,10,30,30"])
            #expect(try runToEnd(Binaries.touchctl, ["--socket", socket, "remove-view", "badge"]).stdout == "removed badge\n")
            let gone = try runToEnd(Binaries.touchctl, ["--socket", socket, "remove-view", "badge"])
            #expect(gone.status == 1 && gone.stderr.contains("unknown_view"), "\(gone.stderr)")

            // What a set gives is readable again; recognizers are listed with their state.
            let set = try runToEnd(Binaries.touchctl, ["--socket", socket, "set", "header.info", "exclusive_touch=true", "hit_expansion=20"])
            #expect(set.status == 0, "\(set.stderr)")
            let listed = try runToEnd(Binaries.touchctl, ["--socket", socket, "views", "--json"])
            let info = listed.lines.first { $0.hasPrefix(#"{"id":"header.info","#) } ?? ""
            #expect(info.contains(#""exclusive_touch":true"#) && info.contains(#""hit_expansion":[20,20,20,20]"#), "\(info)")
            #expect(info.contains(#""gesture_recognizers":[]"#) && info.contains(#""hit_test":"default""#), "\(info)")
            #expect(listed.lines.contains { $0.hasPrefix(#"{"id":"tile.doors.tap","kind":"gesture_recognizer","view":"tile.doors","type":"tap","#) }, "\(listed.stdout)")
            let readable = try runToEnd(Binaries.touchctl, ["--socket", socket, "views"]).lines
            #expect(readable.contains("gesture tile.doors.tap: tap on tile.doors → open-tile (possible)"), "\(readable)")
            #expect(readable.contains { $0.hasPrefix("      header.info [1220, 38, 20, 20] exclusive touch, hit expansion 20") }, "\(readable)")
            let misspelt = try runToEnd(Binaries.touchctl, ["--socket", socket, "set", "header.info", "hiden=true"])
            #expect(misspelt.status == 64 && misspelt.stderr.contains(#"did you mean "hidden"?"#), "\(misspelt.stderr)")
            let control = try runToEnd(Binaries.touchctl, ["--socket", socket, "set-control", "header", "--enabled", "false"])
            #expect(control.status == 1 && control.stderr.contains("\"header\" is not a control"), "\(control.stderr)")
        }
    }

    /// Runs touchctl `arguments` against a listener on a fresh socket that is not touchd: it sends
    /// `greeting` to the first connection, if any, and closes it; or, without one, accepts nothing.
    static func againstAListener(greeting: String?, _ arguments: [String]) throws -> ProcessResult {
        let socket = temporaryPath("listener") + ".sock"
        let listener = try UnixSocketAddress(path: socket).listeningStream(mode: 0o600, group: nil)
        defer {
            Descriptor.close(listener)
            unlink(socket)
        }
        if let greeting {
            DispatchQueue.global().async {
                for _ in 0..<400 {
                    if case .connection(let fd) = try? SocketIO.accept(listener, "test listener") {
                        _ = Array(greeting.utf8).withUnsafeBytes { try? SocketIO.send(fd, $0, "test connection") }
                        usleep(100_000)
                        Descriptor.close(fd)
                        return
                    }
                    usleep(25_000)
                }
            }
        }
        return try runToEnd(Binaries.touchctl, ["--socket", socket] + arguments, timeout: 30)
    }

    @Test func aSocketThatIsNotTouchdsIsToldApartWithinSeconds() throws {
        let silent = try Self.againstAListener(greeting: nil, ["ping"])
        #expect(silent.status == 1 && silent.stderr.contains("said hello within 5 s: is it touchd's socket?"), "\(silent.stderr)")
        let other = try Self.againstAListener(greeting: "HTTP/1.1 400 Bad Request\n", ["views"])
        #expect(other.status == 1, "\(other.stderr)")
        let refused = try Self.againstAListener(greeting: #"{"seq":1,"type":"goodbye","reason":"not allowed"}"# + "\n", ["ping"])
        #expect(refused.status == 1 && refused.stderr.contains("touchd refused the connection: not allowed"), "\(refused.stderr)")
    }

    @Test func anEmptyTOUCHD_SOCKETIsTheDefault() throws {
        let ping = Process()
        ping.executableURL = URL(fileURLWithPath: Binaries.touchctl)
        ping.arguments = ["ping"]
        ping.environment = ["TOUCHD_SOCKET": "", "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        ping.standardError = errors
        ping.standardOutput = FileHandle.nullDevice
        try ping.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ping.waitUntilExit()
        // This machine runs no installed daemon: what matters is the path tried.
        if ping.terminationStatus != 0 { #expect(text.contains("/run/touchd/touchd.sock"), "\(text)") }
        #expect(!text.contains("cannot connect to :"), "\(text)")
    }

    @Test func aMonitorStoppedBySignalExitsWithZero() throws {
        try Self.withIdleDaemon { socket in
            for stop in [SIGINT, SIGTERM] {
                let monitor = Process()
                monitor.executableURL = URL(fileURLWithPath: Binaries.touchctl)
                monitor.arguments = ["monitor", "--socket", socket]
                monitor.standardOutput = FileHandle.nullDevice
                try monitor.run()
                usleep(500_000)
                kill(monitor.processIdentifier, stop)
                monitor.waitUntilExit()
                #expect(monitor.terminationReason == .exit && monitor.terminationStatus == 0, "signal \(stop)")
            }
        }
        let empty = try runToEnd(Binaries.touchctl, ["monitor", "--socket", "/nonexistent.sock", "--topics", ""])
        #expect(empty.status == 64 && empty.stderr.contains("--topics: no topic given"), "\(empty.stderr)")
    }

    @Test func monitorsHelpGivesItsDefaultOnce() throws {
        let help = try runToEnd(Binaries.touchctl, ["monitor", "--help"])
        #expect(help.stdout.components(separatedBy: "hits,actions,devices").count == 2, "\(help.stdout)")
    }

    @Test func monitorRefusesAMalformedFilter() throws {
        let run = try runToEnd(Binaries.touchctl, ["monitor", "--socket", "/nonexistent.sock", "--filter", "colour=red"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
    }

    @Test func monitorPrintsGesturesAndControlActionsAsLines() throws {
        let socket = temporaryPath("client") + ".sock"
        let daemon = try Self.startDemoDaemon(socket: socket, speed: 8)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(Binaries.touchctl, ["--socket", socket, "monitor", "--topics", "gestures,actions"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.contains { $0.hasSuffix("gesture tile.lights.double (tap on tile.lights) recognized at (603.90, 251.97) touches [3,4] taps 2") }, "\(run.lines)")
        #expect(run.lines.contains {
            $0.contains("action  show-info from no responder on action of control header.info (touch_up_inside → show-info) touches [2] payload {}")
        }, "\(run.lines)")
        #expect(!run.lines.contains { $0.hasPrefix("{") }, "no message falls back to JSON: \(run.lines)")
    }

    @Test(.enabled(if: python3 != nil, "python3 is not installed: the example client cannot run"))
    func thePythonExampleClientShowsTheDialogWhenAsked() throws {
        let socket = temporaryPath("client") + ".sock"
        let daemon = try Self.startDemoDaemon(socket: socket)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let run = try runToEnd(Self.python3!, ["examples/kiosk_client.py", "--socket", socket])
        let lines = run.lines
        #expect(run.status == 0)
        #expect(lines.first?.hasPrefix("connected to touchd ") == true)
        // The info button's action makes the client show the dialog over the socket; the daemon
        // applies it between events, so the very next touch lands on the dialog.
        let showInfo = try #require(lines.firstIndex(of: "action show-info from control header.info payload {}"), "\(lines)")
        let next = try #require(lines[(showInfo + 1)...].first { $0.hasPrefix("touch ") })
        #expect(next.hasPrefix("touch 3 landed on dialog.panel"), "\(lines)")
        // A tap around the panel: the client closes the dialog it opened, and the next tap reaches
        // the home screen again.
        let outside = try #require(lines.firstIndex(of: "action dialog.outside-tap from dialog.backdrop.tap payload {}"), "\(lines)")
        let after = try #require(lines[(outside + 1)...].first { $0.hasPrefix("touch ") })
        #expect(after.hasPrefix("touch 10 landed on tile.doors"), "\(lines)")
        #expect(lines.contains("action open-tile from tile.doors.tap payload {'tile': 'doors'}"), "\(lines)")
        #expect(lines.last == "touchd closed the connection: input ended")
    }
}
