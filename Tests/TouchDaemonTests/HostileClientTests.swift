import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchProtocol

/// What a client sends cannot crash, hang or bloat the daemon: the worst lines are answered with
/// valid JSON (read here with Foundation's reader, independently of touchd's own), the connection
/// stays, and `touchctl` refuses out-of-domain arguments before sending them. After each attack
/// the daemon answers a ping and its memory is back within a bound. The other classes of attack
/// are in `HostileFloodTests`, `HostileReaderTests` and `HostileChurnTests`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileClientTests {
    @Test func hostileRequestsAreAnsweredAndTheDaemonGoesOn() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        let sixtyKB = String(repeating: "z", count: 60 * 1024)
        c.send(#"{"id":1,"cmd":"unsubscribe","subscription":1e300}"#)
        c.send(#"{"id":1e308,"cmd":"ping"}"#)
        c.send(#"{"id":3,"cmd":"set","view":"home.ok","properties":{"frame":[1.7e308,-1.7e308,1.7e308,1.7e308]}}"#)
        c.send(#"{"id":4,"cmd":"hit_test","x":-1.7e308,"y":1.7e308}"#)
        c.sendRaw(Array(repeating: UInt8(ascii: "["), count: 30_000) + Array(repeating: UInt8(ascii: "]"), count: 30_000) + [10])
        c.send(#"{"id":"\#(sixtyKB)","cmd":"ping"}"#)
        c.sendRaw(Array(#"{"id":7,"cmd":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) + [10])
        c.send(#"{"id":8,"cmd":"hit_test","x":NaN,"y":Infinity}"#)
        c.send(#"{"id":9,"cmd":"ping","id":10}"#)
        // A request written byte by byte is read whole.
        for byte in Array(#"{"id":11,"cmd":"ping"}"#.utf8) + [10] {
            c.sendRaw([byte])
            try h.settle()
        }
        try h.drain(c)
        // The first reply answered the harness's subscription.
        let replies = Array(c.of(type: "reply").dropFirst())
        #expect(replies.count == 10, "\(replies)")
        let codes = replies.map { ($0["error"] as? [String: Any])?["code"] as? String ?? "ok" }
        #expect(
            codes == [
                "bad_argument", "ok", "bad_argument", "bad_argument", "malformed_json", "bad_argument", "malformed_json", "malformed_json",
                "malformed_json", "ok",
            ])
        #expect(replies[1]["id"] as? Double == 1e308)
        #expect(c.reply(id: 11)?["ok"] as? Bool == true)
        #expect(!c.closed)
        // The view was not moved to the edge of the doubles.
        c.send(#"{"id":12,"cmd":"hit_test","x":150,"y":150}"#)
        try h.drain(c)
        #expect((c.reply(id: 12)?["result"] as? [String: Any])?["view"] as? String == "home.ok")
    }

    @Test func touchctlChecksItsArgumentsAgainstTheSameDomains() throws {
        let cases: [([String], String)] = [
            (["hit-test", "1e300", "1e300"], #""x": expected a finite number from -1000000 to 1000000 (points)"#),
            (["hit-test", "--", "0", "-inf"], #""y": expected a finite number from -1000000 to 1000000 (points)"#),
            (["hit-test", "0", "nan"], #""y": expected a finite number from -1000000 to 1000000 (points)"#),
            (["set", "home.ok", "frame=0,0,1e300,1"], #""properties.frame[2]": expected a finite number from 0 to 1000000 (points)"#),
            (["set", "home.ok", "alpha=2"], #""properties.alpha": expected a finite number from 0 to 1"#),
            (["set", "", "hidden=true"], #""view": expected a string of 1 to 256 bytes"#),
            (["first-responder", String(repeating: "r", count: 300)], #""responder": expected a string of 1 to 256 bytes"#),
            (["monitor", "--topics", "hits,sparks"], #"unknown topic "sparks""#),
            (["monitor", "--count", "0"], "--count 0: expected at least 1"),
        ]
        for (arguments, message) in cases {
            let run = try runToEnd(Binaries.touchctl, [arguments[0], "--socket", "/nonexistent.sock"] + arguments.dropFirst(), timeout: 20)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test func numbersOutOfEveryDomainAreRefusedOverTheSocket() throws {
        let h = try DaemonHarness(app: kioskApp())
        let c = try h.connect()
        let before = h.daemon.app.tree
        let lines: [(String, String)] = [
            (#"{"id":1,"cmd":"hit_test","x":1000000.5,"y":0}"#, "\"x\""),
            (#"{"id":2,"cmd":"hit_test","x":0,"y":-1e300}"#, "\"y\""),
            (#"{"id":3,"cmd":"set","view":"home.ok","properties":{"frame":[-1e7,0,1,1]}}"#, "\"properties.frame[0]\""),
            (#"{"id":4,"cmd":"set","view":"home.ok","properties":{"frame":[0,1e7,1,1]}}"#, "\"properties.frame[1]\""),
            (#"{"id":5,"cmd":"set","view":"home.ok","properties":{"frame":[0,0,-0.5,1]}}"#, "\"properties.frame[2]\""),
            (#"{"id":6,"cmd":"set","view":"home.ok","properties":{"frame":[0,0,1,1e300]}}"#, "\"properties.frame[3]\""),
            (#"{"id":7,"cmd":"set","view":"home.ok","properties":{"bounds_origin":[-2e6,0]}}"#, "\"properties.bounds_origin[0]\""),
            (#"{"id":8,"cmd":"set","view":"home.ok","properties":{"alpha":-0.1}}"#, "\"properties.alpha\""),
            (#"{"id":9,"cmd":"set","view":"home.ok","properties":{"hit_expansion":1e9}}"#, "\"properties.hit_expansion\""),
            (#"{"id":10,"cmd":"set","view":"home.ok","properties":{"hit_expansion":[0,0,-1,0]}}"#, "\"properties.hit_expansion[2]\""),
            (#"{"id":11,"cmd":"add_view","view":"x","parent":"home","properties":{"frame":[0,0,2e6,1]}}"#, "\"properties.frame[2]\""),
            (#"{"id":12,"cmd":"unsubscribe","subscription":0}"#, "\"subscription\""),
            (#"{"id":13,"cmd":"unsubscribe","subscription":2147483648}"#, "\"subscription\""),
            (#"{"id":14,"cmd":"unsubscribe","subscription":-9223372036854775808}"#, "\"subscription\""),
            (#"{"id":15,"cmd":"set","view":"\#(String(repeating: "v", count: 257))","properties":{}}"#, "\"view\""),
            (#"{"id":16,"cmd":"subscribe","views":[\#(Array(repeating: "\"a\"", count: 65).joined(separator: ","))]}"#, "\"views\""),
        ]
        for (line, _) in lines { c.send(line) }
        c.send(#"{"id":1e400,"cmd":"ping"}"#)
        c.send(#"{"id":17,"cmd":"ping"}"#)
        try h.drain(c)
        for (i, (line, field)) in lines.enumerated() {
            let error = c.reply(id: i + 1)?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "bad_argument", "\(line)")
            #expect((error?["message"] as? String)?.hasPrefix(field) == true, "\(line): \(String(describing: error))")
        }
        #expect(c.of(type: "reply").contains { ($0["error"] as? [String: Any])?["code"] as? String == "malformed_json" }, "1e400")
        #expect(c.code(id: 17) == "ok")
        #expect(h.daemon.app.tree.viewCount == before.viewCount && h.daemon.app.tree.kind(of: "x") == nil, "nothing changed")
        #expect(h.daemon.app.tree.properties(of: "home.ok") == before.properties(of: "home.ok"))
        #expect(try h.answersPing())
    }

    @Test func hugeAndDeeplyNestedLinesAreBoundedAndTheDaemonGoesOn() throws {
        let limits = ClientLimits()
        let h = try DaemonHarness(app: kioskApp(), limits: limits)
        let memory = residentBytes()
        // Nesting just past the reader's bound, and far past it within one line.
        let nested = try h.connect()
        nested.sendRaw(Array(repeating: UInt8(ascii: "["), count: 129) + Array(repeating: UInt8(ascii: "]"), count: 129) + [10])
        nested.sendRaw(Array(#"{"id":1,"cmd":"ping","x":"#.utf8) + Array(repeating: UInt8(ascii: "{"), count: 60_000) + [10])
        nested.send(#"{"id":2,"cmd":"ping"}"#)
        try h.drain(nested)
        let codes = nested.of(type: "reply").dropFirst().map { ($0["error"] as? [String: Any])?["code"] as? String ?? "ok" }
        #expect(codes == ["malformed_json", "malformed_json", "ok"], "\(codes)")
        // A line exactly at the bound is read; one byte more ends the connection.
        let atBound = try h.connect()
        let padding = limits.maximumLineLength - #"{"id":3,"cmd":"ping","pad":""}"#.utf8.count
        atBound.send(#"{"id":3,"cmd":"ping","pad":"\#(String(repeating: "p", count: padding))"}"#)
        try h.drain(atBound)
        #expect(atBound.code(id: 3) == "bad_argument", "read whole, refused for its unknown argument")
        #expect(!atBound.closed)
        let overBound = try h.connect()
        overBound.queue(Array(repeating: UInt8(ascii: "x"), count: limits.maximumLineLength + 1) + [10])
        try h.drain(overBound)
        #expect(overBound.of(type: "error").first.flatMap { ($0["error"] as? [String: Any])?["code"] as? String } == "line_too_long")
        #expect(overBound.of(type: "goodbye").first?["reason"] as? String == "request line too long")
        #expect(overBound.closed && overBound.brokenLines.isEmpty)
        // Megabytes without a newline: refused as soon as the bound is passed, never buffered.
        let endless = try h.connect()
        endless.queue(Array(repeating: UInt8(ascii: "{"), count: 4 << 20))
        for _ in 0..<200 where !endless.closed {
            endless.pump()
            try h.settle()
            endless.poll()
        }
        #expect(endless.closed, "the connection ends")
        #expect(endless.of(type: "goodbye").count == 1)
        #expect(try h.answersPing())
        #expect(h.daemon.server.totalQueuedBytes == 0)
        h.expectBoundedMemory(since: memory, "huge and nested lines")
    }
}
