import Foundation
import Testing
import TouchSystem
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Churn and budgets: subscriptions and run-time views come and go by the thousand without the
/// daemon growing; each connection has its budget of both; the views a client added leave with it;
/// a read-only client's forbidden requests change nothing.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileChurnTests {
    @Test func subscriptionsComeAndGoWithoutGrowthAndAreBoundedPerConnection() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connectBare()
        c.keepsMessages = false
        let seed = UInt64.random(in: 0...UInt64.max)
        print("subscription churn: seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        let memory = residentBytes()
        let filter = (0..<64).map { "\"home.view.\($0).*\"" }.joined(separator: ",")
        var next = 1
        for _ in 0..<100 {
            var batch: [UInt8] = []
            for _ in 0..<100 {
                let withFilter = Bool.random(using: &rng)
                let extra = withFilter ? #","views":[\#(filter)]"# : ""
                batch += Array(#"{"id":\#(next),"cmd":"subscribe","topics":["hits"]\#(extra)}"#.utf8) + [10]
                batch += Array(#"{"id":-\#(next),"cmd":"unsubscribe","subscription":\#(next)}"#.utf8) + [10]
                next += 1
            }
            c.queue(batch)
            try exchange(h, c, replies: next * 2 - 2)
        }
        #expect(c.replyCodes == ["ok": 20_000], "seed \(seed)")
        #expect(h.daemon.server.clientSummaries.map(\.subscriptions) == [0])
        h.expectBoundedMemory(since: memory, "subscription churn")
        // The budget: 16 at once.
        c.keepsMessages = true
        for i in 0..<17 { c.queue(Array(#"{"id":\#(100_000 + i),"cmd":"subscribe","views":[\#(filter)]}"#.utf8) + [10]) }
        try h.drain(c)
        #expect((0..<16).allSatisfy { c.code(id: 100_000 + $0) == "ok" })
        #expect(c.code(id: 100_016) == "too_many_subscriptions")
        #expect(try h.answersPing())
    }

    /// Runs the loop and the client until the client has `replies` replies in all.
    func exchange(_ h: DaemonHarness, _ c: TestClient, replies: Int) throws {
        for _ in 0..<100_000 {
            c.pump()
            _ = try h.loop.runOnce(timeoutMilliseconds: 1)
            c.poll()
            if c.replyIDs.count >= replies || c.closed { return }
        }
    }

    /// A layout file holding the test kiosk's window and home view and a view `panel`, for a
    /// reload to replace the running tree with.
    func reloadableLayoutFile() throws -> String {
        let path = NSTemporaryDirectory() + "touchd-churn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        let text = """
            [[window]]
            id = "main"
            size = [800, 480]

            [[view]]
            id = "home"
            parent = "main"
            frame = [0, 0, 800, 480]

            [[view]]
            id = "panel"
            parent = "home"
            frame = [0, 0, 10, 10]

            """
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    @Test func viewsAddedAndRemovedByTheThousandAreFreedAndCostTheSame() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connectBare()
        c.keepsMessages = false
        let views = h.daemon.app.tree.viewCount
        let memory = residentBytes()
        var batchTimes: [Double] = []
        for batch in 0..<100 {
            var lines: [UInt8] = []
            for i in 0..<100 {
                let id = "churn.\(batch).\(i).\(String(repeating: "v", count: 200))"
                lines += Array(#"{"id":1,"cmd":"add_view","view":"\#(id)","parent":"home","properties":{"frame":[1,1,5,5]}}"#.utf8) + [10]
                lines += Array(#"{"id":2,"cmd":"remove_view","view":"\#(id)"}"#.utf8) + [10]
            }
            let start = MonotonicClock().now
            c.queue(lines)
            try exchange(h, c, replies: (batch + 1) * 200)
            batchTimes.append(MonotonicClock().now.span(since: start).seconds)
        }
        #expect(c.replyCodes == ["ok": 20_000])
        #expect(h.daemon.app.tree.viewCount == views)
        let grown = residentBytes() - memory
        let first = batchTimes.prefix(10).reduce(0, +) * 1000
        let last = batchTimes.suffix(10).reduce(0, +) * 1000
        print("view churn: 10,000 add/remove cycles; first 1,000 \(Int(first)) ms, last 1,000 \(Int(last)) ms; resident memory +\(grown / 1024) KiB")
        #expect(grown < 32 << 20, "\(grown) bytes more")
        #expect(try h.answersPing())
    }

    @Test func eachConnectionHasAViewBudgetAndTheTreeItsBound() throws {
        let h = try DaemonHarness(app: kioskApp(), limits: ClientLimits(maximumViewsPerClient: 5))
        let a = try h.connectBare()
        let b = try h.connectBare()
        for i in 0..<6 { a.send(#"{"id":\#(i),"cmd":"add_view","view":"a.\#(i)","parent":"home","properties":{"frame":[0,0,1,1]}}"#) }
        try h.drain(a)
        #expect((0..<5).allSatisfy { a.code(id: $0) == "ok" })
        #expect(a.code(id: 5) == "too_many_views")
        // Another connection has its own budget; a removal (by anyone) gives room back.
        b.send(#"{"id":1,"cmd":"add_view","view":"b.1","parent":"a.0","properties":{"frame":[0,0,1,1]}}"#)
        b.send(#"{"id":2,"cmd":"remove_view","view":"a.0"}"#)
        try h.drain(b)
        #expect(b.code(id: 1) == "ok" && b.code(id: 2) == "ok")
        a.send(#"{"id":6,"cmd":"add_view","view":"a.6","parent":"home","properties":{"frame":[0,0,1,1]}}"#)
        try h.drain(a)
        #expect(a.code(id: 6) == "ok")
        // The tree's own bound.
        var app = kioskApp()
        for i in 0..<(Limits.maximumViews - app.tree.viewCount) {
            try app.addView(ResponderID("fill.\(i)"), parent: "home", ViewProperties(frame: Rect(x: 0, y: 0, width: 1, height: 1)))
        }
        let full = try DaemonHarness(app: app)
        let c = try full.connectBare()
        c.send(#"{"id":1,"cmd":"add_view","view":"one.more","parent":"home","properties":{"frame":[0,0,1,1]}}"#)
        try full.drain(c)
        let error = c.reply(id: 1)?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "too_many_views")
        #expect((error?["message"] as? String)?.contains("\(Limits.maximumViews)") == true)
    }

    @Test func theViewsAClientAddedLeaveWithItTheirTouchesCancelled() throws {
        let layoutFile = try reloadableLayoutFile()
        defer { try? FileManager.default.removeItem(atPath: layoutFile) }
        let h = try DaemonHarness(app: kioskApp(), layoutFile: layoutFile)
        let owner = try h.connectBare()
        let other = try h.connect(topics: ["touches"])
        owner.send(#"{"id":1,"cmd":"add_view","view":"panel","parent":"home","properties":{"frame":[500,300,200,100]}}"#)
        owner.send(#"{"id":2,"cmd":"add_view","view":"panel.button","parent":"panel","properties":{"frame":[10,10,50,50]}}"#)
        other.send(#"{"id":1,"cmd":"add_view","view":"kept","parent":"home","properties":{"frame":[0,400,50,50]}}"#)
        try h.drain(owner, other)
        // A finger held on the owner's button.
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 520, y: 320))]))
        try h.drain(other)
        #expect(other.of(type: "touch").first?["view"] as? String == "panel.button")
        owner.hangUp()
        try h.drain(other)
        #expect(other.of(type: "touch").map { $0["phase"] as? String } == ["began", "cancelled"])
        #expect(h.daemon.app.tree.kind(of: "panel") == nil && h.daemon.app.tree.kind(of: "panel.button") == nil)
        #expect(h.daemon.app.tree.kind(of: "kept") == .view, "another client's view stays")
        // A reload replaced the tree meanwhile: what the client added before is no longer its own.
        let second = try h.connectBare()
        second.send(#"{"id":1,"cmd":"add_view","view":"gone","parent":"home","properties":{"frame":[0,0,1,1]}}"#)
        second.send(#"{"id":2,"cmd":"reload"}"#)
        second.send(#"{"id":3,"cmd":"add_view","view":"mine","parent":"home","properties":{"frame":[0,0,1,1]}}"#)
        try h.drain(second)
        #expect((1...3).allSatisfy { second.code(id: $0) == "ok" })
        second.hangUp()
        try h.drain(other)
        #expect(h.daemon.app.tree.kind(of: "panel") == .view, "the new layout's view of the same name stays")
        #expect(h.daemon.app.tree.kind(of: "mine") == nil, "what it added after the reload goes")
        #expect(try h.answersPing())
    }

    /// Sends 1000 `set` requests and a ping as user nobody (a read-only client), with Python's
    /// socket module; prints the role it was greeted with and the count of each reply's code.
    static let forbiddenFlood = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        s.sendall(b"".join(b'{"id":%d,"cmd":"set","view":"home.ok","properties":{"hidden":true}}\\n' % i for i in range(1000)) + b'{"id":"last","cmd":"ping"}\\n')
        role, codes = None, {}
        for line in s.makefile("rb"):
            m = json.loads(line)
            if m["type"] == "hello": role = m.get("role")
            if m["type"] == "reply":
                if m["id"] == "last": break
                code = "ok" if m["ok"] else m["error"]["code"]
                codes[code] = codes.get(code, 0) + 1
        print(json.dumps({"role": role, "codes": codes}))
        """

    @Test func aFloodOfForbiddenRequestsChangesNothing() throws {
        let uid = geteuid()
        let other: UInt32 = uid == 4242 ? 4243 : 4242
        let h = try DaemonHarness(app: kioskApp(), policy: PeerPolicy(daemonUID: other), mode: 0o666)
        let memory = residentBytes()
        var role: String?
        var codes: [String: Int] = [:]
        if uid != 0 {
            // This process is a read-only client of a daemon that runs as someone else.
            let c = try h.connectBare()
            var lines: [UInt8] = []
            for i in 0..<1000 { lines += Array(#"{"id":\#(i),"cmd":"set","view":"home.ok","properties":{"hidden":true}}"#.utf8) + [10] }
            c.queue(lines)
            try h.drain(c)
            role = c.of(type: "hello").first?["role"] as? String
            for reply in c.of(type: "reply") { codes[(reply["error"] as? [String: Any])?["code"] as? String ?? "ok", default: 0] += 1 }
        } else {
            // Root always has control: the client runs as nobody.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            else { return }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", Self.forbiddenFlood, h.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            while process.isRunning { _ = try h.loop.runOnce(timeoutMilliseconds: 10) }
            let result = try JSONSerialization.jsonObject(with: out.fileHandleForReading.readDataToEndOfFile()) as? [String: Any]
            role = result?["role"] as? String
            codes = result?["codes"] as? [String: Int] ?? [:]
        }
        #expect(role == "read_only")
        #expect(codes == ["forbidden": 1000], "\(codes)")
        #expect(h.daemon.app.tree.properties(of: "home.ok")?.isHidden == false, "nothing changed")
        #expect(try h.answersPing())
        h.expectBoundedMemory(since: memory, "forbidden requests")
    }
}
