import TouchSystem
import Foundation
import Testing
import TouchDaemon
import TouchLayout
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The real `touchd` binary as systemd runs it: notify messages, reload by signal, socket
/// activation, clean exit.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DaemonProcessTests {
    /// `touchd`, built beside the test bundle.
    static let touchd: String = {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var dir = me
        // The runner may be inside the .xctest bundle directory.
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("touchd").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return me.appendingPathComponent("touchd").path
    }()

    static let kiosk: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/config/kiosk.toml"
    }()

    /// A datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init() {
            path = NSTemporaryDirectory() + "touchd-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Datagrams until one contains `needle` or `timeout` seconds pass.
        func wait(for needle: String, timeout: Double = 5) -> [String] {
            var seen: [String] = []
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { continue }
                let text = String(decoding: buffer[0..<n], as: UTF8.self)
                seen.append(text)
                if text.contains(needle) { return seen }
            }
            return seen
        }
    }

    func viewCount(socket: String) throws -> Int {
        let client = try TestClient(path: socket)
        client.send(#"{"id":1,"cmd":"views"}"#)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            usleep(20_000)
            client.poll()
            if let reply = client.reply(id: 1), let items = reply["result"] as? [[String: Any]] {
                return items.filter { $0["kind"] as? String == "view" }.count
            }
        }
        throw SystemErrorForTests("no reply to views")
    }

    struct SystemErrorForTests: Error { var message: String; init(_ m: String) { message = m } }

    @Test func notifiesReadyStatusWatchdogReloadAndStopping() throws {
        let notify = NotifySocket()
        let layout = temporaryPath("layout") + ".toml"
        try FileManager.default.copyItem(atPath: Self.kiosk, toPath: layout)
        defer { unlink(layout) }
        let socket = temporaryPath("sock") + ".sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.touchd)
        process.arguments = ["--config", layout, "--socket", socket]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["WATCHDOG_USEC"] = "200000"
        let stderr = Pipe()
        environment["JOURNAL_STREAM"] = journalStream(of: stderr)
        process.environment = environment
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let ready = notify.wait(for: "READY=1")
        #expect(ready.last?.contains("READY=1") == true, "\(ready)")
        #expect(ready.last?.contains("STATUS=0 devices, 0 clients, 16 views") == true, "\(ready)")
        #expect(notify.wait(for: "WATCHDOG=1", timeout: 2).last == "WATCHDOG=1")
        #expect(try viewCount(socket: socket) == 16)

        // A bad layout is refused and the old one keeps running.
        try "[[window]]\nid = 1\n".write(toFile: layout, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        let badReload = notify.wait(for: "READY=1")
        #expect(badReload.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        #expect(try viewCount(socket: socket) == 16)

        // A good one replaces it.
        var text = try String(contentsOfFile: Self.kiosk, encoding: .utf8)
        text += "\n[[view]]\nid = \"extra\"\nparent = \"home.root\"\nframe = [0, 0, 10, 10]\n"
        try text.write(toFile: layout, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        let goodReload = notify.wait(for: "READY=1")
        #expect(try viewCount(socket: socket) == 17)
        // The status after a reload still counts devices, clients and views.
        let status = goodReload.last ?? ""
        #expect(status.contains(" devices, ") && status.contains(" client") && status.contains(", 17 views"), "\(goodReload)")

        let started = Date()
        kill(process.processIdentifier, SIGTERM)
        #expect(notify.wait(for: "STOPPING=1").last == "STOPPING=1")
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 1.0, "exits within a second")
        #expect(process.terminationStatus == 0)
        #expect(access(socket, F_OK) != 0, "the socket file is removed")
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("<6>listening"), "journald priorities: \(log)")
        #expect(log.contains("<3>reload refused"), "\(log)")
        #expect(log.contains("<6>layout reloaded") && log.contains("by=SIGHUP"), "\(log)")
    }

    @Test func adoptsASocketFromSystemdAndLeavesItInPlace() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate") else {
            Issue.record("systemd-socket-activate is not installed (Debian package systemd)")
            return
        }
        let socket = temporaryPath("activated") + ".sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = ["-l", socket, Self.touchd, "--config", Self.kiosk, "--socket", temporaryPath("unused") + ".sock"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var client: TestClient?
        for _ in 0..<50 where client == nil {
            usleep(50_000)
            client = try? TestClient(path: socket)
        }
        let c = try #require(client)
        var hello: [String: Any]?
        for _ in 0..<100 where hello == nil {
            usleep(20_000)
            c.poll()
            hello = c.of(type: "hello").first
        }
        #expect(hello?["protocol"] as? Int == 2)
        #expect(hello?["daemon"] as? String == ReleaseVersion.of("touchd"))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(access(socket, F_OK) == 0, "an adopted socket is never unlinked by touchd")
        unlink(socket)
    }
}

extension DaemonProcessTests {
    @Test func refusesToAdoptSomethingThatIsNotAListeningSocket() throws {
        // As systemd would pass it, but descriptor 3 is /dev/null.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"export LISTEN_PID=$$ LISTEN_FDS=1; exec "$0" "$@" 3</dev/null"#, Self.touchd, "--config", Self.kiosk,
            "--socket", temporaryPath("unused") + ".sock",
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(text.contains("cannot start: socket activation passed descriptor 3, which is not a socket"), "\(text)")
    }

    @Test func onlyAListeningUnixStreamSocketCanBeAdopted() throws {
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(datagram) }
        #expect(throws: SocketActivation.Unusable.self) { try SocketActivation.check(datagram) }
        let stream = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(stream) }
        do {
            try SocketActivation.check(stream)
            Issue.record("a stream socket that does not listen was accepted")
        } catch {
            #expect(error.description.contains("not listening"))
        }
        let path = temporaryPath("listening") + ".sock"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stream, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        defer { unlink(path) }
        #expect(bound == 0 && listen(stream, 4) == 0)
        #expect(throws: Never.self) { try SocketActivation.check(stream) }
        let inet = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(inet) }
        #expect(throws: SocketActivation.Unusable.self) { try SocketActivation.check(inet) }
    }

    /// A touchscreen spanning the kiosk window (0...1279 × 0...799) and finger 1 landing on the
    /// doors tile at (200, 250) at 1.0 s: the start of the held-touch recordings.
    static let fingerDownOnTheDoorsTile = """
        N: held finger
        I: 0003 0001 0001 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1279 0 0 0
        A: 01 0 799 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 1279 0 0 0
        A: 36 0 799 0 0 0
        A: 39 0 65535 0 0 0
        E: 1.000000 0003 002f 0000
        E: 1.000000 0003 0039 0001
        E: 1.000000 0003 0035 0200
        E: 1.000000 0003 0036 0250
        E: 1.000000 0000 0000 0000

        """

    /// A recording with one finger held for `hold` seconds on the kiosk's doors tile.
    static func heldTouchRecording(hold: Double) -> String {
        let lift = String(format: "%.6f", 1 + hold)
        return fingerDownOnTheDoorsTile + "E: \(lift) 0003 0039 -001\nE: \(lift) 0000 0000 0000\n"
    }

    @Test func sigtermDuringATouchCancelsItAndSaysGoodbye() throws {
        let recording = temporaryPath("held") + ".evemu"
        try Self.heldTouchRecording(hold: 30).write(toFile: recording, atomically: true, encoding: .utf8)
        defer { unlink(recording) }
        let socket = temporaryPath("sigterm") + ".sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.touchd)
        process.arguments = ["--config", Self.kiosk, "--socket", socket, "--replay", recording, "--replay-waits-for-client"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var client: TestClient?
        for _ in 0..<100 where client == nil {
            usleep(50_000)
            client = try? TestClient(path: socket)
        }
        let c = try #require(client)
        c.send(#"{"id":1,"cmd":"subscribe","topics":["touches","hits"]}"#)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && c.of(type: "touch").isEmpty {
            usleep(20_000)
            c.poll()
        }
        #expect(c.of(type: "touch").first?["phase"] as? String == "began")
        #expect(c.of(type: "hit").first?["view"] as? String == "tile.doors")
        let started = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 1.0)
        #expect(process.terminationStatus == 0)
        c.poll()
        let phases = c.of(type: "touch").map { $0["phase"] as? String }
        #expect(phases == ["began", "cancelled"])
        // The cancellation is stamped on the recording's timeline (the touch began at 1.0 and
        // was held well under a second), not with the machine's monotonic clock.
        let times = c.of(type: "touch").compactMap { $0["time"] as? Double }
        #expect(times.first == 1.0)
        #expect(times.count == 2 && times[1] >= 1.0 && times[1] < 6.0, "\(times)")
        #expect(c.of(type: "goodbye").first?["reason"] as? String == "shutting down")
        #expect(c.closed)
    }
}

extension DaemonProcessTests {
    static let systemdDirectory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/systemd"
    }()

    @Test func theServiceUnitIsVerifiedAndItsExposureIsAtMost2() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is not installed (Debian package systemd)")
            return
        }
        let dir = temporaryPath("units")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The installed binary does not exist here: point ExecStart at one that does.
        let unit = try String(contentsOfFile: Self.systemdDirectory + "/touchd.service", encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/touchd", with: "/bin/true")
        try unit.write(toFile: dir + "/touchd.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.systemdDirectory + "/touchd.socket", toPath: dir + "/touchd.socket")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["security", "--offline=yes", "--no-pager", dir + "/touchd.service"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(text)")
        let figure = line.split(separator: " ").compactMap { Double($0) }.first
        #expect(figure != nil && figure! <= 2.0, "\(line)")
    }
}

extension DaemonProcessTests {
    @Test func theSocketPathAndModeCanComeFromTheLayout() throws {
        let socket = temporaryPath("fromlayout") + ".sock"
        let layout = temporaryPath("daemon") + ".toml"
        let text = try String(contentsOfFile: Self.kiosk, encoding: .utf8) + "\n[daemon]\nsocket = \"\(socket)\"\nsocket_mode = \"0600\"\n"
        try text.write(toFile: layout, atomically: true, encoding: .utf8)
        defer { unlink(layout) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.touchd)
        process.arguments = ["--config", layout, "--no-devices"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var st = stat()
        for _ in 0..<100 where stat(socket, &st) != 0 { usleep(50_000) }
        #expect(stat(socket, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func badDaemonSettingsAreLayoutErrors() {
        #expect {
            _ = try LayoutLoader.parse(
                "[[window]]\nid = \"w\"\nsize = [1, 1]\n[daemon]\nsocket = \"relative.sock\"\nsocket_mode = \"999\"\nallow_users = [-1]\nmode = 1\n",
                file: "d.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("d.toml:5:1: daemon.socket: \"relative.sock\" is relative")
                && text.contains("d.toml:6:1: daemon.socket_mode: \"999\" is not a mode")
                && text.contains("d.toml:7:16: daemon.allow_users[0]")
                && text.contains("daemon.mode: unknown key \"mode\" in [daemon]: did you mean \"socket_mode\"")
        }
    }
}

extension DaemonProcessTests {
    /// Runs `touchctl ARGS` as user and group 65534 with `groups` as its supplementary groups;
    /// returns its exit status and output.
    func touchctlAsNobody(groups: [UInt32], _ arguments: [String]) throws -> (status: Int32, output: String) {
        let groupList = groups.map(String.init).joined(separator: ",")
        let run = try runToEnd(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--groups=\(groupList)", Binaries.touchctl] + arguments, mergingErrors: true)
        return (run.status, run.stdout)
    }

    @Test func allowGroupsAdmitsAClientThroughASupplementaryGroup() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            Issue.record("setpriv is not installed (Debian package util-linux): cannot run a client with other groups")
            return
        }
        guard getuid() == 0 else {
            Issue.record("this test changes user and groups with setpriv, which needs root")
            return
        }
        let socket = temporaryPath("groups") + ".sock"
        let layout = temporaryPath("groups") + ".toml"
        // The file mode lets everyone in, so only the group check decides.
        let text = try String(contentsOfFile: Self.kiosk, encoding: .utf8) + "\n[daemon]\nsocket_mode = \"0666\"\n"
        try text.write(toFile: layout, atomically: true, encoding: .utf8)
        defer { unlink(layout) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.touchd)
        process.arguments = ["--config", layout, "--socket", socket, "--no-devices", "--allow-groups", "4242"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var st = stat()
        for _ in 0..<100 where stat(socket, &st) != 0 { usleep(50_000) }
        // Primary group 65534, supplementary 4241 and 4242: allowed through 4242.
        let member = try touchctlAsNobody(groups: [4241, 4242], ["ping", "--socket", socket])
        #expect(member.status == 0 && member.output.contains("pong"), "\(member)")
        // The same user without that group is refused.
        let outsider = try touchctlAsNobody(groups: [4241], ["ping", "--socket", socket])
        #expect(outsider.status != 0 && !outsider.output.contains("pong"), "\(outsider)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
