import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Floods: pipelined requests, expensive requests, connections up to and past the limit, and
/// descriptors running out. The loop stays responsive: input first, every client its turn.
/// Assertions are about order and counts, never about time.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileFloodTests {
    func began(_ id: UInt64, at t: Double) -> InputFrame {
        InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: id, phase: .began, location: Point(x: 150, y: 150))])
    }

    @Test func inputThatArrivesWithARequestIsServedFirst() throws {
        let h = try DaemonHarness(app: kioskApp())
        let input = try InputPipe(h)
        let c = try h.connect(topics: ["touches"])
        // The request's descriptor becomes ready first, the input's second: both in one wakeup.
        c.send(#"{"id":1,"cmd":"ping"}"#)
        input.send(began(1, at: 1))
        _ = try h.loop.runOnce(timeoutMilliseconds: 1000)
        c.poll()
        let touch = try #require(c.of(type: "touch").first)
        let reply = try #require(c.reply(id: 1))
        #expect((touch["seq"] as! Int) < (reply["seq"] as! Int), "the touch is published before the reply")
    }

    @Test func aClientPipeliningPingsDelaysNeitherInputNorOthers() throws {
        let h = try DaemonHarness(app: kioskApp())
        let input = try InputPipe(h)
        let observer = try h.connect(topics: ["touches"])
        let attacker = try h.connectBare()
        attacker.keepsMessages = false
        let count = 20_000
        var flood: [UInt8] = []
        for i in 0..<count { flood += Array(#"{"id":\#(i),"cmd":"ping"}"#.utf8) + [10] }
        let memory = residentBytes()
        attacker.queue(flood)
        var servedWhenAnswered: Int?
        for step in 0..<400 {
            attacker.pump()
            _ = try h.loop.runOnce(timeoutMilliseconds: 50)
            observer.poll()
            if step == 3 {
                input.send(began(1, at: 1))
                observer.send(#"{"id":"normal","cmd":"ping"}"#)
            }
            #expect(h.daemon.server.totalQueuedBytes <= h.daemon.server.limits.maximumQueuedBytes + 16 * 1024)
            if step > 3, !observer.of(type: "touch").isEmpty, observer.of(type: "reply").contains(where: { $0["id"] as? String == "normal" }) {
                servedWhenAnswered = h.daemon.server.statistics.requestsServed
                break
            }
        }
        let served = try #require(servedWhenAnswered, "the normal client was answered and got its touch")
        #expect(served < count / 2, "…while most of the attacker's \(count) pings wait (\(served) served)")
        #expect(h.daemon.server.clientCount == 2, "the attacker is paused, not disconnected")
        // The attacker reads at last: every reply, in order, none lost.
        for _ in 0..<2000 {
            attacker.pump()
            try h.settle()
            attacker.poll()
            if attacker.replyIDs.count >= count { break }
        }
        #expect(attacker.replyIDs == Array(0..<count))
        #expect(attacker.seqsContiguous && attacker.replyCodes == ["ok": count])
        #expect(attacker.brokenLines.isEmpty && !attacker.closed)
        #expect(try h.answersPing())
        #expect(h.daemon.server.totalQueuedBytes == 0)
        h.expectBoundedMemory(since: memory, "pipelined pings")
    }

    /// A tree of `count` extra views under home, so that `views` replies are large.
    func bigApp(views count: Int) -> Application {
        var app = kioskApp()
        for i in 0..<count {
            try! app.addView(ResponderID("home.extra.\(i)"), parent: "home", ViewProperties(frame: Rect(x: 1, y: 1, width: 2, height: 2)))
        }
        return app
    }

    @Test func expensiveRequestsAreOneATurnAndOneInFlightPerClient() throws {
        let h = try DaemonHarness(app: bigApp(views: 4000))
        let a = try h.connectBare()
        let b = try h.connectBare()
        // Both ask in one wakeup: one picture a turn, so b waits a turn; a's ping follows its own.
        a.send(#"{"id":1,"cmd":"views"}"#)
        a.send(#"{"id":2,"cmd":"ping"}"#)
        b.send(#"{"id":1,"cmd":"views"}"#)
        b.send(#"{"id":2,"cmd":"ping"}"#)
        _ = try h.loop.runOnce(timeoutMilliseconds: 1000)
        #expect(h.daemon.server.statistics.requestsServed == 1, "one views in the first turn, the rest of both turns waiting")
        // a does not read: a second views while the first is unwritten is refused.
        a.send(#"{"id":3,"cmd":"views"}"#)
        try h.drain(b)
        #expect(b.code(id: 1) == "ok" && b.code(id: 2) == "ok")
        for _ in 0..<500 {
            _ = try h.loop.runOnce(timeoutMilliseconds: 5)
            a.poll(maximumBytes: 16 * 1024)  // reading slowly
            if a.reply(id: 3) != nil { break }
        }
        try h.drain(a)
        #expect(a.code(id: 1) == "ok" && a.code(id: 2) == "ok")
        #expect(a.code(id: 3) == "busy", "\(String(describing: a.reply(id: 3)))")
        a.send(#"{"id":4,"cmd":"views"}"#)
        try h.drain(a)
        #expect(a.code(id: 4) == "ok", "once read, the next one is served")
        #expect(a.brokenLines.isEmpty && b.brokenLines.isEmpty)
    }

    @Test func aReplyOverItsBudgetIsRefused() throws {
        let h = try DaemonHarness(app: kioskApp(), limits: ClientLimits(maximumReplyBytes: 600))
        let c = try h.connectBare()
        c.send(#"{"id":1,"cmd":"views"}"#)
        c.send(#"{"id":2,"cmd":"ping"}"#)
        try h.drain(c)
        let error = c.reply(id: 1)?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "reply_too_large")
        #expect((error?["message"] as? String)?.contains("replies are limited to 600 bytes") == true)
        #expect(c.code(id: 2) == "ok")
    }

    @Test func connectionsPastTheLimitAreToldWhyAndTheOthersGoOn() throws {
        let h = try DaemonHarness(app: kioskApp(), limits: ClientLimits(maximumClients: 8))
        var clients: [TestClient] = []
        for _ in 0..<12 { clients.append(try TestClient(path: h.path)) }
        try h.settle()
        for c in clients { c.poll() }
        let greeted = clients.filter { !$0.of(type: "hello").isEmpty }
        let refused = clients.filter { $0.of(type: "goodbye").first?["reason"] as? String == "too many clients: at most 8 are served at once" }
        #expect(greeted.count == 8 && refused.count == 4)
        #expect(refused.allSatisfy { $0.closed && $0.of(type: "hello").isEmpty })
        #expect(h.daemon.server.statistics.refusedFull == 4)
        #expect(h.daemon.server.clientCount == 8)
        // Two leave: two more are let in.
        greeted[0].hangUp()
        greeted[1].hangUp()
        try h.settle()
        let late = [try TestClient(path: h.path), try TestClient(path: h.path)]
        try h.settle()
        for c in late { c.poll() }
        #expect(late.allSatisfy { !$0.of(type: "hello").isEmpty })
        greeted[2].send(#"{"id":1,"cmd":"ping"}"#)
        greeted[2].send(#"{"id":2,"cmd":"stats"}"#)
        try h.drain(greeted[2])
        #expect(greeted[2].code(id: 1) == "ok")
        #expect(h.daemon.server.clientCount == 8)
        // The stats reply tells an operator what happened.
        let stats = greeted[2].reply(id: 2)?["result"] as? [String: Any]
        #expect(stats?["clients"] as? Int == 8)
        #expect(stats?["clients_accepted"] as? Int == 10)
        #expect(stats?["clients_refused_full"] as? Int == 4)
        #expect(stats?["clients_refused"] as? Int == 0)
        #expect(stats?["requests_served"] as? Int == 1, "the ping; the stats request is served after its counters are read")
    }

    /// The CPU ticks (user and system) `pid` has used: `/proc/PID/stat`'s fields 14 and 15.
    func cpuTicks(_ pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// A counter of a running daemon's `stats` reply, asked through `client`.
    func counter(_ name: String, _ client: TestClient, id: Int) throws -> Int {
        client.send(#"{"id":\#(id),"cmd":"stats"}"#)
        for _ in 0..<250 {
            usleep(20_000)
            client.poll()
            if let result = client.reply(id: id)?["result"] as? [String: Any], let n = result[name] as? Int { return n }
        }
        throw DaemonProcessTests.SystemErrorForTests("no stats reply")
    }

    /// The `wakeups` counter of a running daemon, asked through `client`.
    func wakeups(_ client: TestClient, id: Int) throws -> Int { try counter("wakeups", client, id: id) }

    @Test func acceptingBacksOffWhenDescriptorsRunOut() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { return }
        let socket = temporaryPath("emfile") + ".sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        // Few descriptors: they run out long before the daemon's limit of clients.
        process.arguments = ["--nofile=24:24", Binaries.touchd, "--config", DaemonProcessTests.kiosk, "--socket", socket, "--no-devices"]
        let log = temporaryPath("emfile") + ".log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        var st = stat()
        for _ in 0..<100 where stat(socket, &st) != 0 { usleep(50_000) }
        let first = try TestClient(path: socket)
        var others: [TestClient] = []
        for _ in 0..<20 { others.append(try TestClient(path: socket)) }
        usleep(300_000)
        for c in others { c.poll() }
        let waiting = others.filter { $0.of(type: "hello").isEmpty }
        #expect(!waiting.isEmpty, "some connections wait in the backlog")
        // While descriptors are out, the daemon sleeps between attempts instead of spinning.
        let before = try wakeups(first, id: 1)
        let ticks = cpuTicks(process.processIdentifier)
        usleep(1_500_000)
        let after = try wakeups(first, id: 2)
        print("accept backoff: \(after - before) wakeups and \(cpuTicks(process.processIdentifier) - ticks) CPU ticks in 1.5 s at the limit")
        #expect(after - before < 100, "\(after - before) wakeups")
        #expect(try counter("accept_backoffs", first, id: 10) > 0)
        // Descriptors come back: the waiting connections are let in.
        for c in others where !waiting.contains(where: { $0 === c }) { c.hangUp() }
        for _ in 0..<100 where waiting.contains(where: { $0.of(type: "hello").isEmpty }) {
            usleep(50_000)
            for c in waiting { c.poll() }
        }
        #expect(waiting.allSatisfy { !$0.of(type: "hello").isEmpty }, "every waiting client is greeted once there is room")
        #expect(try wakeups(first, id: 3) > after, "the first client is still served")
        // The log says once why clients wait (not at every pause), and when they are taken again.
        let lines = (try String(contentsOfFile: log, encoding: .utf8)).split(separator: "\n")
        let stalls = lines.filter { $0.contains("out of file descriptors") && $0.contains("LimitNOFILE") }
        #expect(stalls.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("connections are accepted again") }, "\(lines)")
    }
}
