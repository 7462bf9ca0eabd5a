import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Slow and stalled readers: they never receive a cut line, and learn why they were let go
/// (`dropped`, then `goodbye`) before the connection closes. Others see everything meanwhile.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileReaderTests {
    /// `count` taps on home.ok, reading `reader` every `burst` taps and letting the loop run.
    func taps(_ h: DaemonHarness, count: Int, burst: Int = 50, from first: Int = 0, between: () throws -> Void = {}) throws {
        for i in first..<(first + count) {
            tap(h.daemon, id: UInt64(i + 10), at: Point(x: 150, y: 150), t: Double(i))
            if i % burst == 0 {
                try h.settle()
                try between()
            }
        }
        try h.settle()
    }

    /// Checks what a client let go received: whole lines, then `dropped`, then `goodbye`, then the end.
    func expectLetGoCleanly(_ c: TestClient, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(c.closed, sourceLocation: sourceLocation)
        #expect(c.brokenLines.isEmpty, "no cut or garbled line: \(c.brokenLines.prefix(1))", sourceLocation: sourceLocation)
        #expect(c.unterminatedBytes == 0, "nothing after the last line", sourceLocation: sourceLocation)
        let types = c.messages.map { $0["type"] as? String ?? "" }
        #expect(types.suffix(2) == ["dropped", "goodbye"], "\(types.suffix(3))", sourceLocation: sourceLocation)
        #expect((c.of(type: "goodbye").last?["reason"] as? String)?.hasPrefix(reason) == true, sourceLocation: sourceLocation)
        // Received plus reported missing cover every number, once.
        if let notice = c.of(type: "dropped").last, let first = notice["first_seq"] as? Int, let last = notice["last_seq"] as? Int {
            let before = c.seqs.filter { $0 < first }
            #expect(before == Array(1..<first), "every line before the gap arrived", sourceLocation: sourceLocation)
            #expect(notice["seq"] as? Int == last + 1, sourceLocation: sourceLocation)
        }
    }

    @Test func aStalledClientFindsEveryLineWholeThenDroppedAndGoodbye() throws {
        let limits = ClientLimits(maximumQueuedBytes: 16 * 1024)
        let h = try DaemonHarness(app: kioskApp(), limits: limits)
        let stalled = try h.connect(topics: ["hits", "actions", "touches"])
        let reader = try h.connect(topics: ["actions"])
        try taps(h, count: 2000) { reader.poll() }
        reader.poll()
        #expect(reader.of(type: "action").count == 2000, "the other client sees everything")
        #expect(h.daemon.server.statistics.disconnectedSlow == 1)
        // Its last words fit in its socket: the connection closed at once, nothing lingers.
        #expect(h.daemon.server.closingCount == 0)
        #expect(h.daemon.server.statistics.closedStalled == 0)
        // It reads, long after: everything whole, then why it was let go.
        stalled.poll()
        expectLetGoCleanly(stalled, reason: "too slow")
        #expect(try h.answersPing())
        #expect(h.daemon.server.totalQueuedBytes == 0)
    }

    @Test func aSlowReaderIsNeverSentACutLine() throws {
        let limits = ClientLimits(maximumQueuedBytes: 16 * 1024)
        let h = try DaemonHarness(app: kioskApp(), limits: limits)
        let slow = try h.connect(topics: ["hits", "actions", "touches"])
        let reader = try h.connect(topics: ["actions"])
        // 4 KB read for every burst of 20 taps (about 30 KB of messages).
        try taps(h, count: 3000, burst: 20) {
            slow.poll(maximumBytes: 4096)
            reader.poll()
        }
        for _ in 0..<2000 where !slow.closed {
            slow.poll(maximumBytes: 4096)
            try h.settle()
        }
        reader.poll()
        #expect(reader.of(type: "action").count == 3000)
        expectLetGoCleanly(slow, reason: "too slow")
        #expect(h.daemon.server.statistics.closedStalled == 0)
        #expect(h.daemon.server.closingCount == 0)
    }

    /// The kiosk tree with `count` more views, so that a `views` reply is far longer than one send.
    func bigApp(views count: Int) -> Application {
        var app = kioskApp()
        for i in 0..<count {
            try! app.addView(ResponderID("home.extra.\(i)"), parent: "home", ViewProperties(frame: Rect(x: 1, y: 1, width: 2, height: 2)))
        }
        return app
    }

    @Test func aSlowReaderInTheMiddleOfALongLineIsKeptWhileItReads() throws {
        let limits = ClientLimits(maximumQueuedBytes: 64 * 1024)
        let h = try DaemonHarness(app: bigApp(views: 3000), limits: limits)
        let slow = try h.connect(topics: ["actions"])
        slow.send(#"{"id":1,"cmd":"views"}"#)
        try h.settle()
        // The reply is being written; actions pile up behind it until one does not fit.
        try taps(h, count: 400, burst: 400)
        #expect(h.daemon.server.statistics.disconnectedSlow == 1)
        #expect(h.daemon.server.closingCount == 1, "kept: the reply is partly written")
        for _ in 0..<3000 where !slow.closed {
            slow.poll(maximumBytes: 8 * 1024)
            _ = try h.loop.runOnce(timeoutMilliseconds: 2)
        }
        slow.poll()
        let views = try #require(slow.reply(id: 1)?["result"] as? [[String: Any]])
        #expect(views.count > 3000, "the long reply arrived whole")
        expectLetGoCleanly(slow, reason: "too slow")
        #expect(h.daemon.server.statistics.closedStalled == 0)
        #expect(h.daemon.server.closingCount == 0)
    }

    @Test func aClientThatStopsReadingInTheMiddleOfALongLineIsClosedAtTheStallTimeout() throws {
        let limits = ClientLimits(maximumQueuedBytes: 64 * 1024, closingStallTimeout: 0.3, maximumClosingTime: 5)
        let h = try DaemonHarness(app: bigApp(views: 3000), limits: limits)
        let stalled = try h.connect(topics: ["actions"])
        stalled.send(#"{"id":1,"cmd":"views"}"#)
        try h.settle()
        try taps(h, count: 400, burst: 400)
        #expect(h.daemon.server.closingCount == 1)
        for _ in 0..<200 where h.daemon.server.closingCount > 0 { _ = try h.loop.runOnce(timeoutMilliseconds: 50) }
        // The documented exception: the line longer than one send that it stopped reading is cut.
        #expect(h.daemon.server.closingCount == 0)
        #expect(h.daemon.server.statistics.closedStalled == 1)
        stalled.poll()
        #expect(stalled.closed)
        #expect(stalled.reply(id: 1) == nil && stalled.unterminatedBytes > 0)
        #expect(stalled.of(type: "goodbye").isEmpty)
        #expect(try h.answersPing())
    }
}
