import Foundation
import Testing

/// The `touchd check` and `touchd hit-test` commands as a user runs them: output, exit status and
/// errors on the real binary.
@Suite(.timeLimit(.minutes(10))) struct CommandLineTests {
    static func touchd(_ arguments: [String]) throws -> ProcessResult { try runToEnd(Binaries.touchd, arguments) }

    static func temporaryLayout(_ text: String) throws -> String {
        let path = temporaryPath("cli") + ".toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func checkSummarisesAValidLayout() throws {
        let run = try Self.touchd(["check", "--config", "config/kiosk.toml"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "config/kiosk.toml: valid: 1 window, 16 views, 2 controllers, 1 handler, 8 gesture recognizers, 3 controls, 1 device entry"
        )
        #expect(lines.contains("window main: 1280×800 pt, level 0, key, 5 pt/mm, display default, 16 views, root controller home"))
        #expect(lines.contains("controller dialog: root view dialog.root, presented by home"))
        #expect(lines.contains("handler dialog on action \"confirm\" → dialog.confirm"))
        #expect(lines.contains("gesture tile.lights.double: tap on tile.lights → lights-all-off"))
        #expect(lines.contains("control header.info: button, touch_up_inside → show-info (no responder takes it: clients get it as it is)"))
        #expect(lines.contains("control dialog.ok: button, touch_up_inside → confirm (taken by dialog)"))
        #expect(lines.contains("device[0]: touchscreen → window main"))
        // The bundled layout passes its own lint: the info button's hit area is 9.2 mm, enough for a finger.
        #expect(!lines.contains { $0.hasPrefix("warning:") }, "\(lines)")
    }

    @Test func checkListsGesturesAndControls() throws {
        let path = try Self.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [400, 300]

            [[view]]
            id = "v"
            parent = "w"
            frame = [0, 0, 400, 300]

            [[view]]
            id = "ok"
            parent = "v"
            frame = [10, 10, 100, 60]

            [[gesture]]
            id = "double"
            view = "v"
            kind = "tap"
            taps = 2
            action = "zoom"

            [[control]]
            view = "ok"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "confirm"
            target = "v"
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["check", "--config", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 gesture recognizer, 1 control,"))
        #expect(run.stdout.contains("gesture double: tap on v → zoom"))
        #expect(run.stdout.contains("control ok: button, touch_up_inside → confirm (to v; no responder takes it: clients get it as it is)"))
    }

    @Test func checkTakesTheFileAsAnArgumentAndSaysWhereEachControlsActionGoes() throws {
        let path = try Self.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [1920, 1080]

            [[controller]]
            id = "home"
            view = "v"

            [[view]]
            id = "v"
            parent = "w"
            frame = [0, 0, 1920, 1080]

            [[view]]
            id = "checkin"
            parent = "v"
            frame = [100, 100, 400, 200]

            [[view]]
            id = "ok"
            parent = "v"
            frame = [600, 100, 400, 200]

            [[view]]
            id = "idle"
            parent = "v"
            frame = [1100, 100, 400, 200]

            [[control]]
            view = "checkin"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "check-in"

            [[control]]
            view = "ok"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "save"

            [[control]]
            view = "idle"
            kind = "toggle"

            [[handler]]
            responder = "home"
            on = "action"
            selector = "save"
            action = "saved"

            [[handler]]
            responder = "home"
            on = "action"
            selector = "sav"
            action = "never"

            [[device]]
            window = "w"
            region = [0, 0, 2000, 1080]
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["check", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("control checkin: button, touch_up_inside → check-in (no responder takes it: clients get it as it is)"))
        #expect(lines.contains("control ok: button, touch_up_inside → save (taken by home)"))
        #expect(lines.contains("handler home on action \"save\" → saved"), "the selector is in the line: \(lines)")
        #expect(lines.contains { $0.hasPrefix("warning: control \"idle\" sends no action: it has no [[control.target]]") }, "\(lines)")
        #expect(lines.contains("warning: handler of \"home\" on action \"sav\" never runs: no [[control.target]] sends \"sav\""), "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("warning: device[0].region [0, 0, 2000, 1080] reaches outside window \"w\" (1920×1080 points)")
            }, "\(lines)")
        #expect(!lines.contains { $0.contains("\"save\" never runs") })

        let both = try Self.touchd(["check", path, "--config", path])
        #expect(both.status == 64)
        #expect(both.stderr.contains("not both") && both.stderr.contains("Usage: touchd check"), "\(both.stderr)")
        let neither = try Self.touchd(["check"])
        #expect(neither.status == 64)
        #expect(neither.stderr.contains("missing the layout file"), "\(neither.stderr)")
    }

    /// A control's touch handler that consumes the call is an override without `super`: `check`
    /// says the control will stop working, and the layout is still valid.
    @Test func checkWarnsOfAControlWhoseTouchHandlerDoesNotPassOn() throws {
        let path = try Self.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [400, 300]

            [[view]]
            id = "ok"
            parent = "w"
            frame = [10, 10, 100, 60]

            [[control]]
            view = "ok"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "confirm"

            [[handler]]
            responder = "ok"
            on = "touches_began"
            action = "ok-pressed"
            pass_on = false

            [[handler]]
            responder = "ok"
            on = "touches_ended"
            action = "ok-released"

            """)
        defer { unlink(path) }
        let run = try Self.touchd(["check", "--config", path])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: control") }
        #expect(warnings == [
            "warning: control ok: its touches_began handler (ok-pressed) does not pass the call on, like a touchesBegan override that does not call super: the control never begins tracking: no touch_down and no action (pass_on = true keeps it working)"
        ])
    }

    @Test func checkReportsEveryProblemWithItsLineAndExitsOne() throws {
        let path = try Self.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [400, 300]

            [[view]]
            id = "v"
            parent = "nowhere"
            frame = [0, 0, 400, 300]

            [[view]]
            id = "u"
            parent = "w"
            frame = [0, 0, 10, 10]
            alpha = 2
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["check", "--config", path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(path):7:") && $0.contains("parent") && $0.contains("\"nowhere\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):14:") && $0.contains("alpha") }, "\(lines)")
        #expect(lines.last == "\(path): 2 problems; nothing was loaded")
    }

    @Test func aSubcommandsUsageErrorShowsTheSubcommandsUsage() throws {
        let run = try Self.touchd(["hit-test", "--config", "config/kiosk.toml", "--window", "nope", "1", "1"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("Usage: touchd hit-test ") && run.stderr.contains("See 'touchd hit-test --help'"), "\(run.stderr)")
        #expect(!run.stderr.contains("touchd <subcommand>"), "\(run.stderr)")
    }

    @Test func aLayoutsSocketGroupIsBlamedOnTheLayoutNotTheFlag() throws {
        let path = try Self.temporaryLayout("[[window]]\nid = \"w\"\nsize = [10, 10]\n[daemon]\nsocket_group = \"no-such-group-here\"\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["--config", path, "--socket", temporaryPath("group") + ".sock", "--no-devices"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(path):5: daemon.socket_group: no group named \"no-such-group-here\""), "\(run.stderr)")
        #expect(!run.stderr.contains("Usage:"), "\(run.stderr)")
        #expect(!run.stderr.contains("--socket-group"), "\(run.stderr)")
        let flag = try Self.touchd(["--config", path, "--socket-group", "no-such-group-either", "--socket", temporaryPath("group") + ".sock", "--no-devices"])
        #expect(flag.stderr.contains("--socket-group no-such-group-either: no such group"), "\(flag.stderr)")
    }

    @Test func everyErrorIsToldInOneStyle() throws {
        let runs: [(ProcessResult, String)] = [
            (try Self.touchd(["hit-test", "--config", "config/kiosk.toml", "--window", "nope", "1", "1"]), "touchd: "),
            (try Self.touchd(["check", "--bogus"]), "touchd: "),
            (try Self.touchd(["render", "--config", "config/kiosk.toml", "--replay", "/nonexistent.evemu", "--out", temporaryPath("r") + ".svg"]), "touchd: "),
            (try runToEnd(Binaries.touchctl, ["--socket", "/nonexistent.sock", "ping"]), "touchctl: "),
            (try runToEnd(Binaries.touchctl, ["monitor", "--socket", "/nonexistent.sock", "--filter", "colour=red"]), "touchctl: "),
        ]
        for (run, prefix) in runs {
            #expect(run.status != 0)
            #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)")
            #expect(!run.stderr.contains("Error:"), "\(run.stderr)")
        }
    }

    @Test func checkRefusesWhatTheDaemonWouldRefuseAtStart() throws {
        let path = try Self.temporaryLayout(
            "[[window]]\nid = \"w\"\nsize = [10, 10]\n[daemon]\ncontrol_groups = [\"root\", \"no-such-group-here\"]\n"
                + "allow_users = [\"no-such-user-here\"]\nsocket = \"/no-such-directory-here/x.sock\"\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let check = try Self.touchd(["check", path])
        #expect(check.status == 1)
        let lines = check.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(path):5:") && $0.contains("daemon.control_groups[1]: no group named \"no-such-group-here\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):6:") && $0.contains("daemon.allow_users[0]: no user named \"no-such-user-here\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):7:") && $0.contains("daemon.socket: /no-such-directory-here/x.sock: its directory") }, "\(lines)")
        #expect(lines.last == "\(path): 3 problems on this system; the daemon would not start with it")
        // The daemon refuses the same layout with the same problems: exit status 1, no usage text.
        let run = try Self.touchd(["--config", path, "--no-devices"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("daemon.control_groups[1]: no group named") && !run.stderr.contains("Usage:"), "\(run.stderr)")
    }

    @Test func checkWarnsAboutADeviceNodeThatIsNotThere() throws {
        let path = try Self.temporaryLayout(
            "[[window]]\nid = \"w\"\nsize = [10, 10]\n[[device]]\nwindow = \"w\"\nmatch = { devnode = \"/dev/input/event-no-such\" }\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let check = try Self.touchd(["check", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("warning: device[0].match.devnode: /dev/input/event-no-such does not exist now"), "\(check.stdout)")
    }

    @Test func aSocketInAMissingDirectoryIsRefusedNotMade() throws {
        let directory = temporaryPath("no-dir")
        let socket = directory + "/x.sock"
        let path = try Self.temporaryLayout("[[window]]\nid = \"w\"\nsize = [10, 10]\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["--config", path, "--socket", socket, "--no-devices"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--socket \(socket): its directory \(directory) cannot be used: No such file or directory (ENOENT); touchd makes only /run/touchd"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test(arguments: [["replay", "config/demo-taps.evemu"], ["calibrate", "--from-recording", "config/demo-taps.evemu"]])
    func aWindowFromTheCommandLineIsBlamedOnTheCommandLine(command: [String]) throws {
        let run = try Self.touchd(command + ["--config", "config/kiosk.toml", "--window", "nope"])
        // A usage error, as an unknown --window of hit-test and render is.
        #expect(run.status == 64)
        #expect(run.stderr.contains("(--window nope) is not a window of config/kiosk.toml; its windows: main"), "\(run.stderr)")
        #expect(!run.stderr.contains("layout entry"), "\(run.stderr)")
    }

    @Test func missingInputAndOutputFilesAreNamedWithTheReason() throws {
        let recording = try Self.touchd(["replay", "/nonexistent/taps.evemu", "--config", "config/kiosk.toml"])
        #expect(recording.status == 1)
        #expect(recording.stderr.contains("/nonexistent/taps.evemu: cannot read the recording: No such file or directory"), "\(recording.stderr)")
        let picture = try Self.touchd(["render", "--config", "config/kiosk.toml", "--out", "/nonexistent/dir/kiosk.svg"])
        #expect(picture.status == 1)
        #expect(picture.stderr.contains("--out /nonexistent/dir/kiosk.svg: cannot write: No such file or directory"), "\(picture.stderr)")
        #expect(!picture.stderr.contains("Usage:"), "the command line was right: \(picture.stderr)")
    }

    @Test func aSocketDirectoryThatIsMissingIsRefusedWithWhatToDo() throws {
        let run = try Self.touchd(["--config", "config/kiosk.toml", "--no-devices", "--socket", "/nonexistent/touchd-dir/touchd.sock"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--socket /nonexistent/touchd-dir/touchd.sock: its directory /nonexistent/touchd-dir cannot be used"), "\(run.stderr)")
        #expect(run.stderr.contains("touchd makes only /run/touchd; create the directory first or choose a socket in an existing one"), "\(run.stderr)")
    }

    @Test func checkOnAMissingFileSaysSo() throws {
        let run = try Self.touchd(["check", "--config", "/nonexistent/layout.toml"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("/nonexistent/layout.toml"), "\(run.stderr)")
    }

    @Test func hitTestPrintsTheSeedTraceTheHitViewAndItsChain() throws {
        let run = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", "100", "200"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let visits = lines.filter { $0.hasPrefix("→") }.map { $0.split(separator: " ")[1] }
        #expect(visits == ["window", "root", "orange", "black", "green", "blue", "red"])
        #expect(lines.contains("hit: blue in window window at (60, 60) (view coordinates)"))
        #expect(lines.contains("path: window > root > orange > blue"))
        #expect(lines.contains("responder chain: blue → orange → root → ViewController → window → application → app_delegate"))
    }

    @Test func hitTestTakesManyPointsAsArgumentsOrOneALineOnStandardInput() throws {
        let run = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", "100", "200", "1000", "1000"])
        #expect(run.status == 0, "\(run.stderr)")
        let answers = run.lines.filter { $0.hasPrefix("point ") || $0.hasPrefix("hit: ") }
        #expect(answers == ["point (100, 200):", "hit: blue in window window at (60, 60) (view coordinates)", "point (1000, 1000):", "hit: nothing takes the point (1000, 1000)"])

        let input = temporaryPath("points")
        try "# x y\n100 200\n\n1000,1000\n".write(toFile: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let piped = try runToEnd("/bin/sh", ["-c", "\"$0\" hit-test --config config/seed-experiment.toml --json < \"$1\"", Binaries.touchd, input])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.lines.count == 2 && piped.lines[0].contains(#""view":"blue""#) && piped.lines[1].contains(#""view":null"#), "\(piped.stdout)")

        let odd = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", "1", "2", "3"])
        #expect(odd.status == 64 && odd.stderr.contains("pairs X Y"), "\(odd.stderr)")
    }

    @Test func hitTestOutsideEveryViewSaysNothingTakesThePoint() throws {
        let run = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", "--window", "window", "1000", "1000"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("hit: nothing takes the point (1000, 1000)"), "\(run.stdout)")
    }

    @Test func hitTestRefusesAnUnknownWindowAndNonFiniteCoordinates() throws {
        let unknown = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", "--window", "nope", "1", "1"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("\"nope\" is not a window") && unknown.stderr.contains("windows: window"), "\(unknown.stderr)")
        for bad in ["nan", "inf", "1e400"] {
            let run = try Self.touchd(["hit-test", "--config", "config/seed-experiment.toml", bad, "5"])
            #expect(run.status == 64, "\(bad): \(run.stdout)")
            #expect(run.stderr.contains("must be finite"), "\(bad): \(run.stderr)")
        }
    }

    static let rsvgConvert: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: rsvgConvert != nil, "rsvg-convert (Debian: librsvg2-bin) is not installed: PNG output cannot be made"))
    func renderWritesAPNGOfTheWindowsSize() throws {
        let path = temporaryPath("render") + ".png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.touchd(["render", "--config", "config/kiosk.toml", "--replay", "config/demo-taps.evemu", "--out", path])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 1000)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the PNG signature")
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        // The 1280×800 window with a margin, and the legend below it.
        #expect(width > 1280 && width < 1400, "width \(width)")
        #expect(height > 800 && height < 1200, "height \(height)")
    }

    @Test func renderRefusesAnUnknownPictureFormat() throws {
        let run = try Self.touchd(["render", "--config", "config/kiosk.toml", "--out", "/tmp/picture.gif"])
        #expect(run.status == 64)
        #expect(run.stderr.contains(".svg") && run.stderr.contains(".png"), "\(run.stderr)")
    }
}

/// What the daemon says about its devices when it starts.
@Suite(.timeLimit(.minutes(10))) struct DeviceDiagnosticsProcessTests {
    @Test func aDaemonThatMatchesNoDeviceSaysSoAndWhatItDoesNext() throws {
        let layout = try CommandLineTests.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [400, 300]

            [[device]]
            match.name = "no device is called this *"
            window = "w"
            """)
        defer { try? FileManager.default.removeItem(atPath: layout) }
        let socket = temporaryPath("nodevice") + ".sock"
        let run = try runToEnd(Binaries.touchd, ["--config", layout, "--socket", socket], timeout: 2)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning touchd: no input device matches the layout's [[device]] entries: "), "\(run.stderr)")
        #expect(run.stderr.contains("touchd waits for one to be plugged in"), "\(run.stderr)")

        let bare = try CommandLineTests.temporaryLayout("[[window]]\nid = \"w\"\nsize = [400, 300]\n")
        defer { try? FileManager.default.removeItem(atPath: bare) }
        let none = try runToEnd(Binaries.touchd, ["--config", bare, "--socket", socket], timeout: 2)
        #expect(none.stderr.contains("the layout has no [[device]] entry: no input device is used"), "\(none.stderr)")
    }

    @Test func aReplayWithLiveDevicesDoesNotWarnThatNoneMatches() throws {
        let layout = try CommandLineTests.temporaryLayout(
            """
            [[window]]
            id = "w"
            size = [400, 300]

            [[device]]
            match.kind = "touchscreen"
            window = "w"
            """)
        defer { try? FileManager.default.removeItem(atPath: layout) }
        let socket = temporaryPath("replaydevice") + ".sock"
        let run = try runToEnd(
            Binaries.touchd, ["--config", layout, "--socket", socket, "--replay", "config/demo-taps.evemu", "--replay-speed", "100", "--exit-after-replay"],
            timeout: 10)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("no input device matches"), "\(run.stderr)")
        #expect(!run.stderr.contains("waits for one"), "\(run.stderr)")
        let debug = try runToEnd(
            Binaries.touchd,
            ["--config", layout, "--socket", socket, "--replay", "config/demo-taps.evemu", "--replay-speed", "100", "--exit-after-replay", "--log-level", "debug"],
            timeout: 10)
        #expect(debug.stderr.contains("debug touchd: no input device matches"), "\(debug.stderr)")
    }
}
