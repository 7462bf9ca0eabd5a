import TouchSystem
import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchProtocol

@Suite(.serialized, .timeLimit(.minutes(10))) struct SocketServerTests {
    @Test func clientsGetHelloRepliesAndTheirSubscribedTopicsInOrder() throws {
        let h = try DaemonHarness(app: kioskApp())
        let all = try h.connect()
        let actionsOnly = try h.connect(topics: ["actions"])
        let prefix = try h.connect(topics: ["hits"], extra: #","views":["home.can*"]"#)
        #expect(all.of(type: "hello").count == 1)
        #expect(all.messages.first?["type"] as? String == "hello")
        #expect((all.reply(id: 0)?["result"] as? [String: Any])?["subscription"] as? Int == 1)

        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        tap(h.daemon, id: 2, at: Point(x: 450, y: 150), t: 2)
        try h.settle()
        for c in [all, actionsOnly, prefix] { c.poll() }

        #expect(all.of(type: "hit").map { $0["view"] as? String } == ["home.ok", "home.cancel"])
        #expect(all.of(type: "touch").map { $0["phase"] as? String } == ["began", "ended", "began", "ended"])
        #expect(all.of(type: "action").map { $0["name"] as? String } == ["ok", "cancel"])
        #expect(actionsOnly.of(type: "hit").isEmpty)
        #expect(actionsOnly.of(type: "action").map { $0["name"] as? String } == ["ok", "cancel"])
        #expect(prefix.of(type: "hit").map { $0["view"] as? String } == ["home.cancel"])
        for c in [all, actionsOnly, prefix] { #expect(c.seqs == Array(1...c.seqs.count), "no gaps") }
    }

    /// Empty lines spend a turn's share without a request being served: the server says that more
    /// waits, and the next turns serve it.
    @Test(.timeLimit(.minutes(10))) func linesLeftForTheNextTurnAreSaidToWait() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connectBare()
        #expect(!h.daemon.server.hasRequestsWaiting)
        c.sendRaw(Array(String(repeating: "\n", count: 40).utf8) + Array(#"{"id":7,"cmd":"ping"}"#.utf8) + [10])
        // One wakeup reads everything and serves one turn: 16 lines, all of them empty.
        try h.loop.runOnce(timeoutMilliseconds: 1000)
        c.poll()
        #expect(c.reply(id: 7) == nil)
        #expect(h.daemon.server.hasRequestsWaiting)
        try h.drain(c)
        #expect(c.code(id: 7) == "ok")
        #expect(!h.daemon.server.hasRequestsWaiting)
    }

    @Test func badRequestsGetErrorsAndTheConnectionStays() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        c.send("{this is not json")
        c.send(#"{"id":5,"cmd":"launch_missiles"}"#)
        c.send(#"{"id":6,"cmd":"set","view":"home.ok","properties":{"alpha":"high"}}"#)
        c.send(#"{"id":7,"cmd":"set","view":"nope","properties":{"hidden":true}}"#)
        c.send(#"{"id":8,"cmd":"ping"}"#)
        try h.settle()
        c.poll()
        let replies = c.of(type: "reply")
        #expect(replies.compactMap { ($0["error"] as? [String: Any])?["code"] as? String } == ["malformed_json", "unknown_command", "bad_argument", "unknown_view"])
        #expect(c.reply(id: 8)?["ok"] as? Bool == true)
        #expect(!c.closed)
    }

    @Test func anOverlongLineIsAnErrorAndADisconnect() throws {
        let h = try DaemonHarness(app: kioskApp(), limits: ClientLimits(maximumQueuedBytes: 1 << 20, maximumLineLength: 1024))
        let bad = try h.connect()
        let good = try h.connect()
        bad.sendRaw(Array(repeating: UInt8(ascii: "x"), count: 4096))
        try h.settle()
        bad.poll()
        #expect(bad.of(type: "error").first.flatMap { ($0["error"] as? [String: Any])?["code"] as? String } == "line_too_long")
        #expect(bad.of(type: "goodbye").count == 1)
        #expect(bad.closed)
        good.send(#"{"id":1,"cmd":"ping"}"#)
        try h.settle()
        good.poll()
        #expect(good.reply(id: 1)?["ok"] as? Bool == true, "others are unaffected")
    }

    @Test func aStalledClientStaysBoundedAndOthersSeeEverything() throws {
        let limits = ClientLimits(maximumQueuedBytes: 32 * 1024, maximumLineLength: 64 * 1024)
        let h = try DaemonHarness(app: kioskApp(), limits: limits)
        let stalled = try h.connect(topics: ["touches"])
        stalled.shrinkReceiveBuffer()
        let reader = try h.connect(topics: ["touches", "actions"])
        // One finger moving at 1 kHz for 3 s, with the reader reading and the stalled client never.
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 0, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))]))
        for i in 1...3000 {
            let p = Point(x: 150 + Double(i % 40), y: 150)
            h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: Double(i) / 1000), contacts: [InputContact(id: 1, phase: .moved, location: p)]))
            if i % 50 == 0 {
                try h.settle()
                reader.poll()
                let queued = h.daemon.server.clientSummaries.map(\.queuedBytes).max() ?? 0
                #expect(queued <= limits.maximumQueuedBytes + 4096, "queued bytes stay bounded: \(queued)")
            }
        }
        try h.settle()
        reader.poll()
        #expect(reader.of(type: "touch").count == 3001)
        #expect(reader.seqs == Array(1...reader.seqs.count), "the reader sees every message in order")
        #expect(h.daemon.server.statistics.droppedMessages > 0)
        // The stalled client starts reading again: it learns what it missed.
        for _ in 0..<50 {
            stalled.poll()
            try h.settle()
        }
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 4, contacts: [InputContact(id: 1, phase: .moved, location: Point(x: 200, y: 150))]))
        try h.settle()
        stalled.poll()
        let notices = stalled.of(type: "dropped")
        #expect(!notices.isEmpty)
        let missed = notices.map { $0["count"] as! Int }.reduce(0, +)
        let touches = stalled.of(type: "touch").count
        #expect(touches + missed == 3002, "every message is either received or reported missing")
        // Sequence numbers: received plus reported missing cover 1...last without overlap.
        var covered = Set(stalled.seqs)
        for n in notices { covered.formUnion((n["first_seq"] as! Int)...(n["last_seq"] as! Int)) }
        #expect(covered == Set(1...(stalled.seqs.max() ?? 0)))
    }

    @Test func aStalledClientThatWouldLoseAnActionIsDisconnectedWithAReason() throws {
        let limits = ClientLimits(maximumQueuedBytes: 8 * 1024, maximumLineLength: 64 * 1024)
        // A clock that stands still: the disconnected client's grace to read its last words never
        // runs out, however slowly a loaded machine runs this test.
        let h = try DaemonHarness(app: kioskApp(), limits: limits, clock: ManualClock())
        let stalled = try h.connect(topics: ["actions", "hits"])
        stalled.shrinkReceiveBuffer()
        let reader = try h.connect(topics: ["actions"])
        for i in 0..<2000 {
            tap(h.daemon, id: UInt64(i + 10), at: Point(x: 150, y: 150), t: Double(i))
            if i % 50 == 0 {
                try h.settle()
                reader.poll()
            }
        }
        try h.settle()
        reader.poll()
        #expect(reader.of(type: "action").count == 2000)
        #expect(h.daemon.server.statistics.disconnectedSlow == 1)
        #expect(h.daemon.server.clientCount == 1)
        // The stalled client's queue filled up to its limit, and no further (its goodbye aside).
        let peak = h.daemon.server.largestQueuePeak
        #expect(peak > limits.maximumQueuedBytes - 1024 && peak <= limits.maximumQueuedBytes + 512, "peak \(peak)")
        // The stalled client reads at last: what it got is in order, then one notice says exactly
        // which messages it will never get, then the goodbye says why, then the connection closes.
        for _ in 0..<200 where !stalled.closed {
            stalled.poll()
            try h.settle()
        }
        #expect(stalled.closed)
        let types = stalled.messages.map { $0["type"] as? String ?? "" }
        #expect(types.suffix(2) == ["dropped", "goodbye"], "\(types.suffix(4))")
        let notice = try #require(stalled.of(type: "dropped").last)
        let bye = try #require(stalled.of(type: "goodbye").first)
        #expect((bye["reason"] as? String)?.hasPrefix("too slow") == true, "\(bye)")
        let first = try #require(notice["first_seq"] as? Int)
        let last = try #require(notice["last_seq"] as? Int)
        let received = stalled.messages.filter { ($0["seq"] as? Int ?? 0) < first }
        #expect(received.last?["seq"] as? Int == first - 1, "the notice starts right after the last message received")
        #expect(notice["seq"] as? Int == last + 1)
        #expect(notice["count"] as? Int == last - first + 1)
        #expect(bye["seq"] as? Int == last + 2, "the message that did not fit is the last one missed")
        #expect(stalled.seqs == Array(1..<first) + [last + 1, last + 2], "no gap in seq but the one reported")
        #expect(received.allSatisfy { $0["type"] as? String != "dropped" })
    }

    @Test func aStalledClientThatResumesReadingLearnsTheExactGap() throws {
        let limits = ClientLimits(maximumQueuedBytes: 16 * 1024, maximumLineLength: 64 * 1024)
        let h = try DaemonHarness(app: kioskApp(), limits: limits)
        let stalled = try h.connect(topics: ["touches"])
        stalled.shrinkReceiveBuffer()
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 0, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))]))
        for i in 1...3000 {
            let p = Point(x: 150 + Double(i % 40), y: 150)
            h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: Double(i) / 1000), contacts: [InputContact(id: 1, phase: .moved, location: p)]))
            if i % 100 == 0 { try h.settle() }
        }
        try h.settle()
        let dropped = h.daemon.server.statistics.droppedMessages
        #expect(dropped > 0)
        // No new message is sent: reading alone must bring the notice.
        for _ in 0..<200 {
            stalled.poll()
            try h.settle()
        }
        stalled.poll()
        let notices = stalled.of(type: "dropped")
        #expect(notices.count == 1, "\(notices)")
        let notice = try #require(notices.first)
        let touchSeqs = stalled.of(type: "touch").compactMap { $0["seq"] as? Int }
        // hello = 1, the subscribe reply = 2, then 3001 touch messages numbered 3...3003.
        #expect(notice["first_seq"] as? Int == (touchSeqs.last ?? 0) + 1)
        #expect(notice["last_seq"] as? Int == 3003)
        #expect(notice["count"] as? Int == dropped)
        #expect(notice["seq"] as? Int == 3004)
        #expect(touchSeqs == Array(3...(touchSeqs.last ?? 2)), "what arrived is contiguous")
        #expect(touchSeqs.count + dropped == 3001)
        #expect(!stalled.closed)
    }

    /// A view added or changed over the socket meets the layout's bound on its composed scale:
    /// the request is refused and the tree stays as it was.
    @Test func treeChangesPastTheComposedScaleBoundAreRefused() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        c.send(#"{"id":1,"cmd":"set","view":"home","properties":{"transform":{"scale":1000}}}"#)
        c.send(#"{"id":2,"cmd":"add_view","view":"home.fine","parent":"home.ok","properties":{"frame":[0,0,5,5],"transform":{"scale":1000}}}"#)
        c.send(#"{"id":3,"cmd":"add_view","view":"home.big","parent":"home.fine","properties":{"frame":[0,0,5,5],"transform":{"scale":[2,1]}}}"#)
        c.send(#"{"id":4,"cmd":"set","view":"home.ok","properties":{"transform":{"scale":1.5}}}"#)
        c.send(#"{"id":5,"cmd":"set","view":"home.ok","properties":{"transform":{"scale":[1,0.5]}}}"#)
        try h.settle()
        c.poll()
        #expect(c.code(id: 1) == "ok" && c.code(id: 2) == "ok" && c.code(id: 5) == "ok")
        for (id, view, excess) in [(3, "home.big", "2000000"), (4, "home.fine", "1500000")] {
            #expect(c.code(id: id) == "bad_argument")
            let message = (c.reply(id: id)?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains(#"view "\#(view)""#) && message.contains("enlarges it \(excess)-fold"), "\(message)")
        }
        #expect(h.daemon.app.tree.kind(of: "home.big") == nil)
        #expect(h.daemon.app.tree.properties(of: "home.ok")?.transform.scaleY == 0.5)
    }

    @Test func treeChangesInterleavedWithTouches() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        c.send(#"{"id":1,"cmd":"set","view":"home.ok","properties":{"hidden":true}}"#)
        try h.settle()
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        c.send(#"{"id":2,"cmd":"set","view":"home.ok","properties":{"hidden":false}}"#)
        c.send(#"{"id":3,"cmd":"add_view","view":"home.new","parent":"home","properties":{"frame":[100,300,100,100]}}"#)
        try h.settle()
        tap(h.daemon, id: 2, at: Point(x: 150, y: 150), t: 2)
        tap(h.daemon, id: 3, at: Point(x: 150, y: 350), t: 3)
        // A touch held on home.new, then the view is removed: the touch is cancelled.
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 4, contacts: [InputContact(id: 4, phase: .began, location: Point(x: 150, y: 350))]))
        c.send(#"{"id":4,"cmd":"remove_view","view":"home.new"}"#)
        c.send(#"{"id":5,"cmd":"hit_test","x":150,"y":150}"#)
        try h.settle()
        c.poll()
        #expect(c.of(type: "hit").map { $0["view"] as? String } == ["home", "home.ok", "home.new", "home.new"])
        #expect(c.of(type: "action").map { $0["name"] as? String } == ["ok"])
        let phases = c.of(type: "touch").filter { $0["touch"] as? Int == 4 }.map { $0["phase"] as? String }
        #expect(phases == ["began", "cancelled"])
        let hit = c.reply(id: 5)?["result"] as? [String: Any]
        #expect(hit?["view"] as? String == "home.ok")
        #expect((hit?["responder_chain"] as? [String])?.last == "app_delegate")
        #expect((hit?["trace"] as? [Any])?.isEmpty == false)
        for id in 1...5 { #expect(c.reply(id: id)?["ok"] as? Bool == true, "request \(id)") }
    }

    @Test func aRequestSetsAControlsValueAndStateAndViewsShowThem() throws {
        let app = Application(
            tree: kioskTree(),
            controls: [
                ControlSpec(view: "home.ok", kind: .toggle(isOn: false), targets: [ControlTarget(event: .valueChanged, action: "lights")]),
                ControlSpec(view: "home.cancel", kind: .slider(minimum: 0, maximum: 10, value: 0, step: 2)),
            ])
        let h = try DaemonHarness(app: app)
        let c = try h.connect()
        c.send(#"{"id":1,"cmd":"set_control","view":"home.cancel","value":5}"#)
        c.send(#"{"id":2,"cmd":"set_control","view":"home.ok","value":true,"enabled":false}"#)
        c.send(#"{"id":3,"cmd":"set_control","view":"home.ok","value":3}"#)
        c.send(#"{"id":4,"cmd":"set_control","view":"home","enabled":true}"#)
        c.send(#"{"id":5,"cmd":"views"}"#)
        try h.settle()
        c.poll()
        let slider = try #require(c.reply(id: 1)?["result"] as? [String: Any])
        #expect(slider["value"] as? Double == 6, "snapped to the step of 2: \(slider)")
        #expect(slider["kind"] as? String == "slider" && slider["step"] as? Int == 2)
        let toggle = try #require(c.reply(id: 2)?["result"] as? [String: Any])
        #expect(toggle["value"] as? Bool == true && toggle["enabled"] as? Bool == false)
        #expect((c.reply(id: 3)?["error"] as? [String: Any])?["code"] as? String == "bad_argument")
        #expect((c.reply(id: 4)?["error"] as? [String: Any])?["code"] as? String == "unknown_control")
        let views = try #require(c.reply(id: 5)?["result"] as? [[String: Any]])
        let ok = try #require(views.first { $0["id"] as? String == "home.ok" })
        #expect((ok["control"] as? [String: Any])?["value"] as? Bool == true)
        #expect(c.of(type: "action").isEmpty, "setting a value sends no control event")
        // Disabled, the toggle forwards the tap like any view: no action either.
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        try h.settle()
        c.poll()
        #expect(c.of(type: "action").isEmpty)
        #expect(h.daemon.app.controlValue(of: "home.ok") == .bool(true))
    }

    @Test func garbageInputNeverCrashesTheDaemon() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        let seed = UInt64.random(in: 0...UInt64.max)
        print("garbage input: seed \(seed)")
        var rng = SeededGenerator(seed: seed)
        let fragments = [#"{"cmd":"#, #""set""#, "}", "{", "\"", "[", "]", ",", "null", "1e999", #"{"cmd":"hit_test","x":1e308,"y":-1e308}"#,
                         #"{"cmd":"subscribe","topics":[1,2]}"#, "\u{00}", "\u{FFFF}", #"{"id":{"a":[1,{"b":null}]},"cmd":"ping"}"#]
        for i in 0..<300 {
            // Let the daemon read now and then: the test client's own sends must not overflow.
            if i % 20 == 0 { try h.drain(c) }
            var line = ""
            for _ in 0..<Int.random(in: 1...6, using: &rng) { line += fragments.randomElement(using: &rng)! }
            c.send(line)
            // Truncated input too.
            c.sendRaw(Array(line.utf8.prefix(Int.random(in: 0...line.utf8.count, using: &rng))))
            c.send("")
        }
        c.send(#"{"id":"last","cmd":"ping"}"#)
        try h.drain(c)
        #expect(c.of(type: "reply").contains { $0["id"] as? String == "last" && $0["ok"] as? Bool == true },
                "seed \(seed): \(c.messages.suffix(3)) \(c.messages.count)")
        #expect(!c.closed)
    }

    @Test func aLiveDaemonsSocketIsNeverTakenOverButAStaleOneIsReplaced() throws {
        let h = try DaemonHarness(app: kioskApp())
        let loop = try EventLoop()
        #expect(throws: SystemError.self) { _ = try SocketEndpoint.bind(path: h.path) }
        // A stale file: a socket nobody listens on.
        let stale = NSTemporaryDirectory() + "touchd-stale-\(getpid()).sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in stale.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        let endpoint = try SocketEndpoint.bind(path: stale)
        var st = stat()
        #expect(stat(stale, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)
        let daemon = Daemon(app: kioskApp(), socket: DaemonSocket(endpoint: endpoint), loop: loop, version: "touchd test")
        try daemon.start()
        daemon.server.shutdown(reason: "test over")
        #expect(stat(stale, &st) != 0, "the socket file is removed on shutdown")
    }
}

extension SocketServerTests {
    @Test func aClientThatStopsSendingStillGetsItsReplies() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connectBare()
        c.send(#"{"id":1,"cmd":"views"}"#)
        c.send(#"{"id":2,"cmd":"ping"}"#)
        c.finishSending()
        for _ in 0..<200 where !c.closed {
            try h.settle()
            c.poll()
        }
        #expect(c.code(id: 1) == "ok" && c.code(id: 2) == "ok")
        #expect(c.closed && c.brokenLines.isEmpty && c.unterminatedBytes == 0)
        #expect(c.of(type: "goodbye").isEmpty, "the client ended it")
        #expect(h.daemon.server.clientCount == 0)
    }

    @Test func aLastRequestWithoutItsNewlineIsServedWhenTheClientStopsSending() throws {
        // As `printf '{"cmd":"ping"}' | nc -U` sends it.
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connectBare()
        c.send(#"{"id":1,"cmd":"ping"}"#)
        c.sendRaw(Array(#"{"id":2,"cmd":"ping"}"#.utf8))
        try h.settle()
        c.poll()
        #expect(c.code(id: 1) == "ok" && c.code(id: 2) == nil, "a line is whole only with its newline while the client sends")
        c.finishSending()
        for _ in 0..<200 where !c.closed {
            try h.settle()
            c.poll()
        }
        #expect(c.code(id: 2) == "ok")
        #expect(c.closed && c.brokenLines.isEmpty)

        // Nothing after the last newline is no request.
        let d = try h.connectBare()
        d.send(#"{"id":3,"cmd":"ping"}"#)
        d.finishSending()
        for _ in 0..<200 where !d.closed {
            try h.settle()
            d.poll()
        }
        #expect(d.code(id: 3) == "ok")
        #expect(d.of(type: "reply").count == 1 && d.closed, "one reply, to the one request")
    }

    @Test func aSnapshotDrawsTheRunningTreeWithItsLastTouches() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        c.send(#"{"id":9,"cmd":"snapshot"}"#)
        c.send(#"{"id":10,"cmd":"snapshot","window":"nope"}"#)
        try h.drain(c)
        let svg = try #require((c.reply(id: 9)?["result"] as? [String: Any])?["svg"] as? String)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
        #expect(svg.contains("data-view=\"home.ok\""))
        #expect(svg.contains("data-touch=\"1\""), "the tap's path is drawn")
        #expect((c.reply(id: 10)?["error"] as? [String: Any])?["code"] as? String == "unknown_window")
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct GestureSocketTests {
    @Test func gestureRecordsAndTheActionsOfRecognizersAndControlsReachSubscribers() throws {
        // The kiosk tree; a double-tap recognizer on home, and home.ok a button whose action
        // walks the chain to home's handler.
        let app = Application(
            tree: kioskTree(),
            handlers: HandlerTable([Handler(responder: "home", trigger: .action, action: "confirmed", selector: "confirm")]),
            gestureRecognizers: [GestureRecognizerSpec(id: "home.double", view: "home", kind: .tap(taps: 2, touches: 1), action: "zoom")],
            controls: [ControlSpec(view: "home.ok", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "confirm")])])
        let clock = ManualClock(seconds: 50)
        let h = try DaemonHarness(app: app, clock: clock)
        let client = try h.connect(topics: ["gestures", "actions"])
        // A double tap on home away from the buttons, then a single tap on the button.
        tap(h.daemon, id: 1, at: Point(x: 700, y: 400), t: 1)
        tap(h.daemon, id: 2, at: Point(x: 702, y: 401), t: 1.2)
        tap(h.daemon, id: 3, at: Point(x: 150, y: 150), t: 3)
        try h.drain(client)
        #expect(client.of(type: "gesture").map { $0["state"] as? String } == ["recognized"], "the single tap's fate waits for the timer")
        // The double tap's window closes on the daemon's timer, once the loop's clock passes it.
        clock.advance(by: 1)
        h.loop.runDueTimers()
        #expect(h.daemon.app.nextDeadline == nil)
        try h.drain(client)

        let gestures = client.of(type: "gesture")
        #expect(gestures.map { $0["state"] as? String } == ["recognized", "failed"])
        let recognized = try #require(gestures.first)
        #expect(recognized["recognizer"] as? String == "home.double")
        #expect(recognized["kind"] as? String == "tap")
        #expect(recognized["view"] as? String == "home")
        #expect(recognized["taps"] as? Int == 2)
        #expect(recognized["touches"] as? [Int] == [1, 2])
        let location = try #require(recognized["location"] as? [String: Any])
        #expect((location["x"] as? NSNumber)?.doubleValue == 702 && (location["y"] as? NSNumber)?.doubleValue == 401, "the last tap's finger: \(location)")
        // The single tap on the button: the double tap waits, then fails on its timer, at the button.
        let failed = gestures[1]
        #expect(failed["touches"] as? [Int] == [3])
        let failedAt = try #require(failed["location"] as? [String: Any])
        #expect((failedAt["x"] as? NSNumber)?.doubleValue == 150 && (failedAt["y"] as? NSNumber)?.doubleValue == 150)

        let actions = client.of(type: "action")
        #expect(actions.map { $0["name"] as? String } == ["zoom", "confirmed"])
        #expect(actions.first?["event"] as? String == "gesture_recognized")
        #expect(actions.first?["responder"] as? String == "home.double")
        let confirmed = try #require(actions.last)
        #expect(confirmed["responder"] as? String == "home")
        #expect(confirmed["view"] as? String == "home.ok")
        #expect((confirmed["payload"] as? [String: Any])?.isEmpty == true, "the handler's payload, untouched")
        #expect(confirmed["control"] as? String == "home.ok")
        #expect(confirmed["control_event"] as? String == "touch_up_inside")
        #expect(client.seqs == Array(1...client.seqs.count), "no gaps")
    }
}
