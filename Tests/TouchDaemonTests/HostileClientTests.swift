import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchProtocol

/// What a client sends cannot crash, hang or bloat the daemon: the worst lines are answered with
/// valid JSON (read here with Foundation's reader, independently of touchd's own), the connection
/// stays, and `touchctl` refuses out-of-domain arguments before sending them.
@Suite(.serialized) struct HostileClientTests {
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
}
