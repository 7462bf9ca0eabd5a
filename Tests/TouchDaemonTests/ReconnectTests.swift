import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `touchctl monitor` and `touchctl watch` when the daemon restarts under them: by default they
/// connect again and subscribe again; with `--no-reconnect` they exit with status 1.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReconnectTests {
    /// A daemon replaying the demo once its first client subscribes; it exits when the replay ends
    /// only when `exits` says so.
    static func daemon(socket: String, exits: Bool) throws -> Process {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments =
            [
                "--config", "config/kiosk.toml", "--socket", socket, "--log-level", "warning", "--no-devices",
                "--replay", "config/demo-taps.evemu", "--replay-waits-for-client", "--replay-speed", "8",
            ] + (exits ? ["--exit-after-replay"] : [])
        daemon.currentDirectoryURL = URL(fileURLWithPath: Binaries.repository)
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        return daemon
    }

    /// `touchctl ARGUMENTS`, its standard output and error written to files.
    static func touchctl(_ arguments: [String], out: String, err: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.touchctl)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        return process
    }

    /// Waits (at most a minute) until the file at `path` holds `text` `times` times.
    @discardableResult
    static func waitFor(_ text: String, in path: String, times: Int = 1) -> Bool {
        for _ in 0..<1200 {
            let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if contents.components(separatedBy: text).count > times { return true }
            usleep(50_000)
        }
        return false
    }

    static func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func monitorConnectsAgainAndSubscribesAgainWhenTheDaemonRestarts() throws {
        let socket = temporaryPath("reconnect") + ".sock"
        let (out, err) = (temporaryPath("monitor-out"), temporaryPath("monitor-err"))
        defer { for path in [out, err] { unlink(path) } }
        let first = try Self.daemon(socket: socket, exits: false)
        let monitor = try Self.touchctl(["--socket", socket, "monitor", "--topics", "hits", "--json"], out: out, err: err)
        defer { if monitor.isRunning { monitor.terminate() } }
        #expect(Self.waitFor(#""touch":1,"#, in: out), "\(Self.contents(out))")
        first.terminate()
        first.waitUntilExit()
        #expect(Self.waitFor("touchd closed the connection (shutting down); connecting again", in: err), "\(Self.contents(err))")
        // A new daemon on the same socket: the monitor subscribes to it, which starts its replay.
        let second = try Self.daemon(socket: socket, exits: true)
        defer { if second.isRunning { second.terminate() } }
        #expect(Self.waitFor("connected again; subscribed as before", in: err), "\(Self.contents(err))")
        monitor.waitUntilExit()
        // The second daemon's replay ended it ("input ended"): nothing to connect to, a clean end.
        #expect(monitor.terminationStatus == 0, "\(Self.contents(err))")
        let touchOne = Self.contents(out).components(separatedBy: #""touch":1,"#).count - 1
        #expect(touchOne == 2, "the first touch of each daemon's replay: \(Self.contents(out))")
    }

    @Test func monitorWithoutReconnectExitsWithStatusOne() throws {
        let socket = temporaryPath("noreconnect") + ".sock"
        let (out, err) = (temporaryPath("monitor-out"), temporaryPath("monitor-err"))
        defer { for path in [out, err] { unlink(path) } }
        let daemon = try Self.daemon(socket: socket, exits: false)
        let monitor = try Self.touchctl(["--socket", socket, "monitor", "--topics", "hits", "--no-reconnect"], out: out, err: err)
        defer { if monitor.isRunning { monitor.terminate() } }
        #expect(Self.waitFor("hit", in: out), "\(Self.contents(out))")
        daemon.terminate()
        daemon.waitUntilExit()
        monitor.waitUntilExit()
        #expect(monitor.terminationStatus == 1)
        #expect(Self.contents(err).contains("touchctl: touchd closed the connection (shutting down)"), "\(Self.contents(err))")
    }

    @Test func watchKeepsServingAndConnectsAgain() throws {
        let socket = temporaryPath("watch-reconnect") + ".sock"
        let (out, err) = (temporaryPath("watch-out"), temporaryPath("watch-err"))
        defer { for path in [out, err] { unlink(path) } }
        let first = try Self.daemon(socket: socket, exits: false)
        let watch = try Self.touchctl(["--socket", socket, "watch", "--listen", "127.0.0.1:0"], out: out, err: err)
        defer { if watch.isRunning { watch.terminate() } }
        #expect(Self.waitFor("serving http://127.0.0.1:", in: out), "\(Self.contents(err))")
        first.terminate()
        first.waitUntilExit()
        #expect(Self.waitFor("touchctl watch: touchd closed the connection (shutting down); connecting again", in: err), "\(Self.contents(err))")
        #expect(watch.isRunning, "the page is still served while touchd is away")
        let second = try Self.daemon(socket: socket, exits: false)
        defer {
            if second.isRunning { second.terminate() }
            second.waitUntilExit()
        }
        #expect(Self.waitFor("touchctl watch: connected again; subscribed as before", in: err), "\(Self.contents(err))")
        watch.terminate()
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0, "\(Self.contents(err))")

        let third = try Self.touchctl(["--socket", socket, "watch", "--listen", "127.0.0.1:0", "--no-reconnect"], out: out, err: err)
        defer { if third.isRunning { third.terminate() } }
        #expect(Self.waitFor("serving http://127.0.0.1:", in: out), "\(Self.contents(err))")
        second.terminate()
        third.waitUntilExit()
        #expect(third.terminationStatus == 1)
        #expect(Self.contents(err).contains("touchctl: touchd closed the connection (shutting down)"), "\(Self.contents(err))")
    }
}
