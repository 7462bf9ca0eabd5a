import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The WebSocket listener under attack: floods of connections, handshakes that never end, frames
/// that lie about their size or never finish, peers that vanish without closing. While each attack
/// runs another client's tap gets its hit and its ping its reply within a few wakeups of the loop
/// (``ServiceProbe``: the milliseconds are printed, never asserted), and memory stays bounded.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileWebSocketTests {
    static let control = "control-token-0123456789"
    static let readOnly = "readonly-token-0123456789"

    /// A daemon on the kiosk tree with a WebSocket listener on a free loopback port.
    final class Harness {
        let h: DaemonHarness
        let listener: WebSocketListener
        let tokens: String

        init(limits: ClientLimits = ClientLimits(), clock: any TimeSource = MonotonicClock(), origins: [String] = []) throws {
            h = try DaemonHarness(app: kioskApp(), limits: limits, clock: clock)
            tokens = temporaryPath("tokens")
            let text = "control \(HostileWebSocketTests.control)\nread_only \(HostileWebSocketTests.readOnly)\n"
            #expect(FileManager.default.createFile(atPath: tokens, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
            let settings = WebSocketListener.Settings(
                address: try InternetSocketAddress(parsing: "127.0.0.1:0"), tokensFile: tokens, origins: origins)
            try h.daemon.server.listen(webSocket: settings) { _ in }
            listener = try #require(h.daemon.server.webSocketListener)
        }

        deinit { unlink(tokens) }

        var port: UInt16 { UInt16(listener.boundAddress.split(separator: ":").last.flatMap { UInt16($0) } ?? 0) }

        /// A connected WebSocket client with `token`, past its handshake and hello.
        func client(token: String = HostileWebSocketTests.control) throws -> WebSocketTestClient {
            let client = try WebSocketTestClient(port: port)
            try h.settle()
            client.write(WebSocketTestClient.handshake(token: token, port: port))
            for _ in 0..<20 where client.of(type: "hello").isEmpty && !client.closed {
                try h.settle()
                client.poll()
            }
            return client
        }

        /// Runs the loop and lets `clients` read, a few rounds.
        func exchange(_ clients: [WebSocketTestClient], rounds: Int = 5) throws {
            for _ in 0..<rounds {
                try h.settle()
                for client in clients { client.poll() }
            }
        }
    }

    @Test func aClientIsServedLikeOneOfTheUnixSocket() throws {
        let w = try Harness()
        let client = try w.client()
        #expect(client.status == 101)
        let hello = try #require(client.of(type: "hello").first)
        #expect(hello["role"] as? String == "control" && hello["seq"] as? Int == 1)
        client.request(#"{"id":1,"cmd":"subscribe","topics":["hits","actions"]}"#)
        // A request in two fragments.
        client.write(WebSocketTestClient.frame(opcode: 1, Array(#"{"id":2,"#.utf8), final: false))
        client.write(WebSocketTestClient.frame(opcode: 0, Array(#""cmd":"ping"}"#.utf8)))
        try w.exchange([client])
        #expect(client.of(type: "reply").compactMap { $0["id"] as? Int }.sorted() == [1, 2])
        // A tap reaches it as frames.
        let input = try InputPipe(w.h)
        input.send(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))]))
        input.send(InputFrame(device: "d", window: "main", timestamp: 1.05, contacts: [InputContact(id: 1, phase: .ended, location: Point(x: 150, y: 150))]))
        try w.exchange([client])
        #expect(client.of(type: "hit").first?["view"] as? String == "home.ok")
        #expect(client.of(type: "action").first?["name"] as? String == "ok")
        let seqs = client.messages.compactMap { $0["seq"] as? Int }
        #expect(seqs == Array(1...seqs.count), "seq counts every message: \(seqs)")
        // A read-only token may watch, not change.
        let reader = try w.client(token: Self.readOnly)
        #expect(reader.of(type: "hello").first?["role"] as? String == "read_only")
        reader.request(#"{"id":3,"cmd":"set","view":"home.ok","properties":{"hidden":true}}"#)
        try w.exchange([reader])
        let refusal = try #require(reader.of(type: "reply").first)
        #expect((refusal["error"] as? [String: Any])?["code"] as? String == "forbidden")
        // Its close is answered with 1000; the daemon's shutdown says goodbye with 1001.
        reader.write(WebSocketTestClient.frame(opcode: 8, [0x03, 0xE8]))
        try w.exchange([reader])
        #expect(reader.closeCode == 1000 && reader.closed)
        w.h.daemon.server.shutdown(reason: "shutting down")
        client.poll()
        #expect(client.of(type: "goodbye").first?["reason"] as? String == "shutting down")
        #expect(client.closeCode == 1001)
        #expect(w.h.daemon.server.statistics.webSocketHandshakes == 2)
    }

    @Test func theLayoutKeysAreCheckedWithTheirLine() throws {
        let head = "[[window]]\nid = \"w\"\nsize = [1, 1]\n[daemon]\n"
        let document = try LayoutLoader.parse(
            head + "websocket = \"127.0.0.1:8765\"\nwebsocket_tokens = \"/etc/touchd/tokens\"\n"
                + "websocket_origins = [\"http://127.0.0.1:8080\", \"https://kiosk.example\", \"null\"]\n",
            file: "d.toml")
        #expect(document.daemon.webSocket == "127.0.0.1:8765")
        #expect(document.daemon.webSocketTokens == "/etc/touchd/tokens")
        #expect(document.daemon.webSocketOrigins == ["http://127.0.0.1:8080", "https://kiosk.example", "null"])
        #expect(DaemonSpec().webSocketTokens == "/var/lib/touchd/websocket-tokens")
        #expect {
            _ = try LayoutLoader.parse(
                head + "websocket = \"localhost\"\nwebsocket_tokens = \"tokens\"\nwebsocket_origins = [\"http://a/b\", 5]\n", file: "d.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("d.toml:5:1: daemon.websocket:") && text.contains("is not HOST:PORT")
                && text.contains("d.toml:6:") && text.contains("is relative")
                && text.contains("daemon.websocket_origins[0]") && text.contains("no path")
                && text.contains("daemon.websocket_origins[1]")
        }
        // At start: an IP literal; off the loopback, tokens are required.
        let missing = temporaryPath("no-tokens")
        #expect(StartupChecks.webSocketReadiness(address: "kiosk:8765", tokensFile: missing).isRefused)
        #expect(StartupChecks.webSocketReadiness(address: "0.0.0.0:8765", tokensFile: missing).isRefused)
        #expect(StartupChecks.webSocketReadiness(address: "[::]:8765", tokensFile: missing).isRefused)
        #expect(StartupChecks.webSocketReadiness(address: "127.0.0.1:8765", tokensFile: missing) != .ready)
        #expect(!StartupChecks.webSocketReadiness(address: "[::1]:8765", tokensFile: missing).isRefused)
        let w = try Harness()
        #expect(StartupChecks.webSocketReadiness(address: "0.0.0.0:8765", tokensFile: w.tokens) == .ready)
    }

    @Test func handshakesAreRefusedWithTheirStatus() throws {
        let w = try Harness(origins: ["http://127.0.0.1:8080"])
        let cases: [(String, [UInt8], Int)] = [
            ("no token", WebSocketTestClient.handshake(token: nil, port: w.port), 401),
            ("a wrong token", WebSocketTestClient.handshake(token: "wrong-token-0123456789", port: w.port), 401),
            ("an origin not allowed", WebSocketTestClient.handshake(token: Self.control, origin: "http://evil.example", port: w.port), 403),
            ("not HTTP", Array("hello\r\n\r\n".utf8), 400),
            ("a bare-LF head over 8 KiB", Array(repeating: UInt8(ascii: "\n"), count: 9_000), 431),
        ]
        for (name, request, status) in cases {
            let client = try WebSocketTestClient(port: w.port)
            try w.h.settle()
            client.write(request)
            try w.exchange([client])
            #expect(client.status == status && client.closed, "\(name): \(String(describing: client.status))")
        }
        let allowed = try WebSocketTestClient(port: w.port)
        try w.h.settle()
        allowed.write(WebSocketTestClient.handshake(token: Self.control, origin: "http://127.0.0.1:8080", port: w.port))
        try w.exchange([allowed])
        #expect(allowed.status == 101)
        #expect(w.h.daemon.server.statistics.webSocketRefused == cases.count)
        // A tokens file others may read lets nobody in (a token is a password).
        chmod(w.tokens, 0o644)
        let late = try WebSocketTestClient(port: w.port)
        try w.h.settle()
        late.write(WebSocketTestClient.handshake(token: Self.control, port: w.port))
        try w.exchange([late])
        #expect(late.status == 503)
    }

    @Test func tenThousandConnectionsCostTheLoopNothing() throws {
        let w = try Harness(limits: ClientLimits(webSocketHandshakeTimeout: 0.2))
        let memory = residentBytes()
        var probe = try ServiceProbe(w.h)
        var held: [WebSocketTestClient] = []
        var opened = 0
        var mostPending = 0
        while opened < 10_000 {
            try probe.check("\(opened) WebSocket connections opened, \(held.count) held") {
                for _ in 0..<50 where opened < 10_000 {
                    if let client = try? WebSocketTestClient(port: w.port) {
                        held.append(client)
                        opened += 1
                    }
                }
                if held.count > 1_000 { held.removeFirst(held.count - 1_000) }
                mostPending = max(mostPending, w.listener.pendingHandshakes)
            }
        }
        #expect(mostPending <= w.h.daemon.server.limits.maximumPendingWebSocketHandshakes, "handshakes waiting at once: \(mostPending)")
        #expect(w.h.daemon.server.clientCount == 1, "none of them became a client: only the probe's observer")
        held.removeAll()
        // A real client still gets in once the flood is gone.
        usleep(300_000)
        try w.h.settle()
        let client = try w.client()
        #expect(client.status == 101, "after the flood")
        w.h.expectBoundedMemory(since: memory, "ten thousand WebSocket connections")
    }

    @Test func slowHandshakesAreCutAtTheirDeadline() throws {
        let clock = ManualClock()
        let w = try Harness(limits: ClientLimits(webSocketHandshakeTimeout: 5), clock: clock)
        var probe = try ServiceProbe(w.h)
        let request = WebSocketTestClient.handshake(token: Self.control, port: w.port)
        var slow: [WebSocketTestClient] = []
        for _ in 0..<64 { slow.append(try WebSocketTestClient(port: w.port)) }
        var sent = 0
        try probe.check("64 handshakes a byte at a time") {
            for client in slow where sent < request.count - 4 { client.write([request[sent]]) }
            sent += 1
        }
        #expect(w.listener.pendingHandshakes == 64)
        // Another connection finds every handshake place taken: refused at once.
        let extra = try WebSocketTestClient(port: w.port)
        try w.exchange([extra])
        #expect(extra.status == 503 && extra.closed)
        clock.advance(by: 5)
        w.h.loop.runDueTimers()
        try w.exchange(slow, rounds: 2)
        #expect(w.listener.pendingHandshakes == 0)
        #expect(slow.allSatisfy { $0.closed }, "every slow handshake was closed")
        #expect(w.h.daemon.server.statistics.webSocketHandshakeTimeouts == 64)
        let client = try w.client()
        #expect(client.status == 101)
        try probe.check("after the slow handshakes")
    }

    @Test func framesThatLieOrNeverEndAreClosedWithoutHoldingMemory() throws {
        let w = try Harness()
        var probe = try ServiceProbe(w.h)
        let memory = residentBytes()
        // A frame announcing 2^62 bytes: closed at once, nothing allocated for it.
        let liar = try w.client()
        liar.write(WebSocketTestClient.frame(opcode: 1, [], announced: 1 << 62))
        try w.exchange([liar])
        #expect(liar.closeCode == 1009)
        // Fragments adding up past 64 KiB: closed when the sum passes it.
        let fragmenter = try w.client()
        fragmenter.write(WebSocketTestClient.frame(opcode: 1, Array(repeating: 0x20, count: 16_000), final: false))
        for _ in 0..<5 { fragmenter.write(WebSocketTestClient.frame(opcode: 0, Array(repeating: 0x20, count: 16_000), final: false)) }
        try w.exchange([fragmenter])
        #expect(fragmenter.closeCode == 1009)
        // Many clients each holding a frame just under the bound, never finished.
        var trickling: [WebSocketTestClient] = []
        for _ in 0..<40 {
            let client = try w.client()
            client.write(Array(WebSocketTestClient.frame(opcode: 1, Array(repeating: 0x20, count: 60_000)).dropLast(10)))
            trickling.append(client)
        }
        try probe.check("40 clients with an unfinished 60 KB frame each")
        // An unmasked frame and a binary one.
        let unmasked = try w.client()
        unmasked.write(WebSocketTestClient.frame(opcode: 1, Array("{}".utf8), masked: false))
        let binary = try w.client()
        binary.write(WebSocketTestClient.frame(opcode: 2, [1, 2, 3]))
        try w.exchange([unmasked, binary])
        #expect(unmasked.closeCode == 1002 && binary.closeCode == 1003)
        #expect(w.h.daemon.server.statistics.webSocketProtocolErrors == 4)
        // Pings sent by the thousand to a peer that never reads: the pongs stop piling up once its
        // queue is half full (it is no longer read).
        let pinger = try w.client()
        pinger.answersPings = false
        let ping = WebSocketTestClient.frame(opcode: 9, Array(repeating: 0x70, count: 125))
        for _ in 0..<20 {
            pinger.write(Array([[UInt8]](repeating: ping, count: 1_000).joined()))
            try w.h.settle()
        }
        #expect(w.h.daemon.server.totalQueuedBytes <= w.h.daemon.server.limits.maximumQueuedBytes + 128 << 10,
                "queued for the pinger: \(w.h.daemon.server.totalQueuedBytes)")
        try probe.check("a peer pinging without reading")
        w.h.expectBoundedMemory(since: memory, "lying WebSocket frames")
    }

    @Test func aPeerThatVanishedIsPingedThenClosed() throws {
        let clock = ManualClock()
        let w = try Harness(limits: ClientLimits(webSocketPingInterval: 30), clock: clock)
        let gone = try w.client()
        gone.answersPings = false
        let alive = try w.client()
        var probe = try ServiceProbe(w.h)
        clock.advance(by: 30)
        w.h.loop.runDueTimers()
        try w.exchange([gone, alive])
        #expect(gone.pings == 1 && alive.pings == 1)
        try probe.check("a half-open peer, pinged")
        clock.advance(by: 30)
        w.h.loop.runDueTimers()
        try w.exchange([gone, alive])
        #expect(gone.closeCode == 1001 && gone.of(type: "goodbye").first != nil)
        #expect(alive.closeCode == nil && !alive.closed)
        #expect(w.h.daemon.server.statistics.webSocketPingTimeouts == 1)
    }
}

extension StartupChecks.WebSocketReadiness {
    var isRefused: Bool { if case .refused = self { true } else { false } }
}
