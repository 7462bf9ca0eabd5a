import Foundation
import Testing
import TouchCore
import TouchLayout
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM reaches the real `touchd` while the heaviest attack of `HostileBudgetTests` runs: every
/// client place taken by clients holding the most subscriptions with the most patterns each, on a
/// layout as deep as a layout may be with as many recognizers on the tapped view's hit path as it
/// may carry, while a replay taps that view twice a second. The daemon still exits cleanly
/// and says goodbye to every client. How long it took is printed; only a liveness bound far above
/// it is checked, since the machine's load decides the time.
extension DaemonProcessTests {
    /// The kiosk layout with a chain of views as deep as allowed inside the doors tile, the deepest
    /// carrying as many tap recognizers as its hit path may hold beside the kiosk's own.
    static func deepRecognizerLayout() throws -> String {
        let kioskText = try String(contentsOfFile: kiosk, encoding: .utf8)
        let app = try LayoutLoader.load(path: kiosk).makeApplication(file: kiosk)
        let path = app.tree.path(to: "tile.doors")
        let depth = Limits.maximumViewDepth - path.count
        let above = app.gestureRecognizerSpecs.filter { path.contains($0.view) }.count
        var text = kioskText
        var parent = "tile.doors"
        for n in 0..<depth {
            text += "\n[[view]]\nid = \"deep.\(n)\"\nparent = \"\(parent)\"\nframe = [0, 0, 380, 292]\n"
            parent = "deep.\(n)"
        }
        for n in 0..<(Limits.maximumRecognizersOnHitPath - above) {
            text += "\n[[gesture]]\nid = \"deep.tap.\(n)\"\nview = \"\(parent)\"\nkind = \"tap\"\naction = \"deep.tap.\(n)\"\n"
        }
        return text
    }

    /// Taps on the doors tile twice a second for `seconds` seconds, each held 50 ms.
    static func tappingRecording(seconds: Int) -> String {
        var text = fingerDownOnTheDoorsTile
        for k in 1..<(seconds * 2) {
            let down = String(format: "%.6f", 1 + Double(k) * 0.5)
            let up = String(format: "%.6f", 1 + Double(k) * 0.5 - 0.45)
            text += "E: \(up) 0003 0039 -001\nE: \(up) 0000 0000 0000\n"
            text += "E: \(down) 0003 0039 \(String(format: "%04d", k + 1))\nE: \(down) 0003 0035 0200\nE: \(down) 0003 0036 0250\n"
            text += "E: \(down) 0000 0000 0000\n"
        }
        return text
    }

    @Test func sigtermUnderTheHeaviestAttackExitsCleanlyAndSaysGoodbye() throws {
        let layout = temporaryPath("attacked") + ".toml"
        let recording = temporaryPath("taps") + ".evemu"
        let socket = temporaryPath("attacked") + ".sock"
        try Self.deepRecognizerLayout().write(toFile: layout, atomically: true, encoding: .utf8)
        try Self.tappingRecording(seconds: 150).write(toFile: recording, atomically: true, encoding: .utf8)
        defer {
            unlink(layout)
            unlink(recording)
        }
        // The layout is as large as the validator accepts on that path.
        let document = try LayoutLoader.load(path: layout)
        #expect(document.gestures.filter { $0.id.rawValue.hasPrefix("deep.tap.") }.count > Limits.maximumRecognizersOnHitPath / 2)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.touchd)
        process.arguments = ["--config", layout, "--socket", socket, "--no-devices", "--replay", recording]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var observer: TestClient?
        for _ in 0..<200 where observer == nil {
            usleep(50_000)
            observer = try? TestClient(path: socket)
        }
        let watcher = try #require(observer, "the daemon listens")
        watcher.send(#"{"id":1,"cmd":"subscribe","topics":["hits","gestures"]}"#)

        // Every other place: the most subscriptions, each with the most patterns, none matching.
        var attackers: [TestClient] = []
        for a in 0..<(Limits.maximumClients - 1) {
            let client = try TestClient(path: socket)
            client.keepsMessages = false
            for s in 0..<Limits.maximumSubscriptionsPerClient {
                let list = HostileBudgetTests.patterns(Limits.maximumRequestListEntries, salt: a * 100 + s).map { "\"\($0)\"" }.joined(separator: ",")
                client.queue(Array(#"{"id":\#(s),"cmd":"subscribe","topics":["hits","touches","actions","gestures"],"views":[\#(list)]}"#.utf8) + [10])
            }
            attackers.append(client)
        }
        // Until every subscription is confirmed, and the taps go on meanwhile.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            for client in attackers {
                client.pump()
                client.poll()
            }
            watcher.poll()
            let confirmed = attackers.allSatisfy { $0.replyCodes["ok"] == Limits.maximumSubscriptionsPerClient }
            if confirmed && watcher.of(type: "hit").count >= 3 { break }
            usleep(10_000)
        }
        #expect(attackers.allSatisfy { $0.replyCodes["ok"] == Limits.maximumSubscriptionsPerClient }, "every subscription is taken")
        #expect((watcher.of(type: "hit").last?["view"] as? String)?.hasPrefix("deep.") == true, "the taps land in the deep chain")
        #expect(watcher.of(type: "gesture").count > 0, "the recognizers on the path decide")
        #expect(process.isRunning, "the replay is still tapping")
        // What the attackers sent is kept (their patterns, compiled): the daemon's memory grows
        // with it by a bounded factor, not with the taps.
        let sent = attackers.count * Limits.maximumSubscriptionsPerClient * Limits.maximumRequestListEntries
            * HostileBudgetTests.patterns(1, salt: 9999)[0].utf8.count
        let peak = try residentBytes(of: process.processIdentifier, peak: true)
        print("heaviest attack: touchd's resident peak \(peak >> 20) MiB for \(sent >> 20) MiB of patterns")
        #expect(peak < 4 * sent + (64 << 20), "resident peak \(peak) bytes for \(sent) bytes of patterns")

        let started = Date()
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning && Date().timeIntervalSince(started) < 10 { usleep(5_000) }
        let elapsed = Date().timeIntervalSince(started)
        print("SIGTERM under attack: touchd exited after \(Int(elapsed * 1000)) ms")
        #expect(!process.isRunning, "exits within 10 s (a liveness bound: it took \(elapsed) s)")
        guard !process.isRunning else { return }
        #expect(process.terminationStatus == 0)
        for client in attackers + [watcher] { client.poll() }
        #expect(watcher.of(type: "goodbye").first?["reason"] as? String == "shutting down")
        let told = attackers.filter { $0.typeCounts["goodbye"] == 1 }.count
        #expect(told == attackers.count, "every client is told goodbye: \(told) of \(attackers.count)")
        let closed = (attackers + [watcher]).filter { $0.closed }.count
        #expect(closed == attackers.count + 1, "every connection is closed: \(closed)")
    }
}
