import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Reloading a running `touchd` (the socket's `reload` request and `touchctl reload`) with a
/// finger held: a bad layout is refused and changes nothing; a good one cancels the touch, and the
/// input devices follow the new layout (here, a renamed window).
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReloadProcessTests {
    /// Finger 1 held on the doors tile from 1.0 to 4.0 s, moving every 0.1 s; a tap at 5.0 s.
    static func recording() -> String {
        var lines = DaemonProcessTests.fingerDownOnTheDoorsTile
        for i in 1..<30 {
            let t = String(format: "%.6f", 1 + Double(i) / 10)
            lines += "E: \(t) 0003 0035 \(String(format: "%04d", 200 + i))\nE: \(t) 0000 0000 0000\n"
        }
        lines += "E: 4.000000 0003 0039 -001\nE: 4.000000 0000 0000 0000\n"
        lines += "E: 5.000000 0003 0039 0002\nE: 5.000000 0003 0035 0210\nE: 5.000000 0003 0036 0260\nE: 5.000000 0000 0000 0000\n"
        lines += "E: 5.100000 0003 0039 -001\nE: 5.100000 0000 0000 0000\n"
        return lines
    }

    /// Polls `client` until `done` holds or `timeout` seconds pass.
    func wait(_ client: TestClient, timeout: Double = 5, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !done() {
            usleep(10_000)
            client.poll()
        }
    }

    func touches(_ client: TestClient, id: Int) -> [[String: Any]] {
        client.of(type: "touch").filter { $0["touch"] as? Int == id }
    }

    /// `touchd` on a fresh socket with `arguments`, and a client connected to it; standard error
    /// goes to `stderr` when given.
    func startDaemon(_ arguments: [String], stderr: Pipe? = nil) throws -> (Process, TestClient) {
        let socket = temporaryPath("sock") + ".sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcessTests.touchd)
        process.arguments = arguments + ["--socket", socket]
        if let stderr { process.standardError = stderr }
        try process.run()
        var client: TestClient?
        for _ in 0..<100 where client == nil {
            usleep(50_000)
            client = try? TestClient(path: socket)
        }
        guard let client else {
            process.terminate()
            throw DaemonProcessTests.SystemErrorForTests("touchd did not listen on \(socket)")
        }
        return (process, client)
    }

    @Test func aHeldTouchSurvivesABadReloadAndIsCancelledByAGoodOneAfterWhichInputFollowsTheNewLayout() throws {
        let kiosk = try String(contentsOfFile: DaemonProcessTests.kiosk, encoding: .utf8)
        let layout = temporaryPath("layout") + ".toml"
        try kiosk.write(toFile: layout, atomically: true, encoding: .utf8)
        let recording = temporaryPath("held") + ".evemu"
        try Self.recording().write(toFile: recording, atomically: true, encoding: .utf8)
        defer {
            unlink(layout)
            unlink(recording)
        }
        let stderr = Pipe()
        let (process, c) = try startDaemon(["--config", layout, "--no-devices", "--replay", recording, "--replay-waits-for-client"], stderr: stderr)
        defer { if process.isRunning { process.terminate() } }
        c.send(#"{"id":1,"cmd":"subscribe","topics":["touches","hits"]}"#)
        wait(c) { touches(c, id: 1).count >= 2 }
        #expect(touches(c, id: 1).first?["phase"] as? String == "began")
        #expect(c.of(type: "hit").first?["view"] as? String == "tile.doors")

        // A bad layout over the socket: refused with the reason, nothing cancelled, input flows on.
        try "[[window]]\nid = 1\n".write(toFile: layout, atomically: true, encoding: .utf8)
        c.send(#"{"id":2,"cmd":"reload"}"#)
        wait(c) { c.reply(id: 2) != nil }
        let refused = try #require(c.reply(id: 2))
        #expect(refused["ok"] as? Bool == false)
        let error = refused["error"] as? [String: Any]
        #expect(error?["code"] as? String == "reload_failed")
        #expect((error?["message"] as? String)?.contains("window[0].id") == true, "\(refused)")
        let before = touches(c, id: 1).count
        wait(c) { touches(c, id: 1).count >= before + 3 }
        #expect(touches(c, id: 1).dropFirst().allSatisfy { $0["phase"] as? String == "moved" }, "the touch goes on")

        // A good layout through touchctl: the window is renamed, with its views and its device entry.
        try kiosk.replacingOccurrences(of: "\"main\"", with: "\"screen\"").write(toFile: layout, atomically: true, encoding: .utf8)
        let ctl = try runToEnd(Binaries.touchctl, ["reload", "--socket", c.path])
        let answer = ctl.stdout
        #expect(ctl.status == 0)
        #expect(answer.hasPrefix("reloaded: 16 views"), "\(answer)")
        wait(c) { touches(c, id: 1).last?["phase"] as? String == "cancelled" }
        #expect(touches(c, id: 1).last?["phase"] as? String == "cancelled")

        // The next tap lands in the renamed window; the finger held across the reload stays out.
        // Touch numbers go on from the old layout's: unique for the daemon's life.
        let messagesAtCancel = c.messages.count
        wait(c, timeout: 8) { c.messages.dropFirst(messagesAtCancel).filter { $0["type"] as? String == "touch" }.count >= 2 }
        let after = c.messages.dropFirst(messagesAtCancel)
        let afterTouches = after.filter { $0["type"] as? String == "touch" }
        #expect(afterTouches.map { $0["phase"] as? String } == ["began", "ended"], "\(after)")
        #expect(afterTouches.first?["window"] as? String == "screen", "\(after)")
        #expect(afterTouches.map { $0["touch"] as? Int } == [2, 2], "\(after)")
        #expect(after.filter { $0["type"] as? String == "hit" }.map { $0["view"] as? String } == ["tile.doors"])
        #expect(c.seqs == Array(1...c.seqs.count))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("reload refused; the previous layout keeps running"), "\(log)")
        // A reload by request is logged as one by SIGHUP is, with who asked.
        #expect(log.contains("layout reloaded") && log.contains("by=request (uid \(getuid())"), "\(log)")
        #expect(!log.contains("without a touch-down"), "the held finger is not passed on as a stray contact: \(log)")
    }

    /// Each reload used to lose the whole parsed layout (TOMLKit never freed it): about 50 KB of
    /// resident memory per reload of the kiosk layout, 25 MB over 500.
    @Test func fiveHundredReloadsLeaveTheResidentMemoryWhereItWas() throws {
        let layout = temporaryPath("layout") + ".toml"
        try FileManager.default.copyItem(atPath: DaemonProcessTests.kiosk, toPath: layout)
        defer { unlink(layout) }
        let (process, c) = try startDaemon(["--config", layout, "--no-devices", "--log-level", "warning"])
        defer { if process.isRunning { process.terminate() } }
        var id = 0
        func reload(times: Int) {
            for _ in 0..<times {
                id += 1
                c.send(#"{"id":\#(id),"cmd":"reload"}"#)
                wait(c, timeout: 10) { c.reply(id: id) != nil }
            }
        }
        // Allocator arenas and caches settle over the first reloads.
        reload(times: 50)
        let before = try residentBytes(of: process.processIdentifier)
        reload(times: 500)
        let after = try residentBytes(of: process.processIdentifier)
        #expect(c.of(type: "reply").allSatisfy { $0["ok"] as? Bool == true }, "every reload was accepted")
        #expect(c.of(type: "reply").count == 550)
        let growth = after - before
        #expect(growth < 2 << 20, "resident memory grew by \(growth) bytes over 500 reloads (\(growth / 500) per reload)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
