import Testing
import TouchCore
import TouchDaemon
#if canImport(Glibc)
import Glibc
#endif

/// A touch-down frame's `hit` messages leave as soon as its hit-tests are done: when the sinks
/// hear of the frame's report (its handlers ran already), a subscriber's socket holds the frame's
/// hit, behind everything of the frames before it, and none of the frame's own actions yet.
@Suite(.timeLimit(.minutes(10))) struct HitsFirstTests {
    /// A sink that looks, at each report with hits, at what a client's socket holds unread.
    final class SocketPeek: ReportSink {
        var fd: Int32 = -1
        var unreadAtTouchDown: [String] = []

        func applicationChanged(_ app: Application) {}
        func stop() {}
        func deliverAhead(_ forwarded: [ForwardedTouch]) {}

        func deliver(_ report: DispatchReport) {
            guard !report.hits.isEmpty, fd >= 0 else { return }
            var bytes = [UInt8](repeating: 0, count: 1 << 16)
            let n = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
            unreadAtTouchDown.append(n > 0 ? String(decoding: bytes[0..<n], as: UTF8.self) : "")
        }
    }

    /// The kiosk tree, whose OK button acts as soon as it is touched and Cancel when released.
    func app() -> Application {
        Application(
            tree: kioskTree(),
            handlers: HandlerTable([
                Handler(responder: "home.ok", trigger: .touchesBegan, action: "pressed", passesOn: false),
                Handler(responder: "home.cancel", trigger: .touchesEnded, action: "cancel", passesOn: false),
            ]))
    }

    @Test func aTouchDownsHitsAreOnTheSocketBeforeItsHandlersRun() throws {
        let peek = SocketPeek()
        let h = try DaemonHarness(app: app(), sinks: [peek])
        let c = try h.connect(topics: ["hits", "actions"])
        try h.drain(c)
        let read = c.messages.count
        peek.fd = c.fd
        // One wakeup: a finger lifts from Cancel, another lands on OK.
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 450, y: 150))]))
        try h.settle()
        #expect(peek.unreadAtTouchDown.count == 1 && peek.unreadAtTouchDown[0].contains(#""type":"hit""#))
        try h.drain(c)
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 2, contacts: [InputContact(id: 1, phase: .ended, location: Point(x: 450, y: 150))]))
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 2.01, contacts: [InputContact(id: 2, phase: .began, location: Point(x: 150, y: 150))]))
        try h.settle()
        let unread = try #require(peek.unreadAtTouchDown.last)
        #expect(peek.unreadAtTouchDown.count == 2)
        #expect(unread.contains(#""name":"cancel""#), "the frame before was written before the hit: \(unread)")
        #expect(unread.contains(#""view":"home.ok""#) && unread.contains(#""type":"hit""#), "the hit is on the socket: \(unread)")
        #expect(!unread.contains(#""name":"pressed""#), "the frame's own action is not yet: \(unread)")
        // The client then reads everything, once, in order.
        try h.drain(c)
        let after = c.messages[read...].compactMap { message -> String? in
            switch message["type"] as? String {
            case "hit": "hit \(message["view"] as? String ?? "-")"
            case "action": "action \(message["name"] as? String ?? "-")"
            default: nil
            }
        }
        #expect(after == ["hit home.cancel", "action cancel", "hit home.ok", "action pressed"])
        let seqs = c.messages.compactMap { $0["seq"] as? Int }
        #expect(seqs == Array(1...seqs.count), "seq stays in order, nothing twice")
    }

    @Test func withoutHitSubscribersNothingIsWrittenEarly() throws {
        let peek = SocketPeek()
        let h = try DaemonHarness(app: app(), sinks: [peek])
        let c = try h.connect(topics: ["actions"])
        try h.drain(c)
        peek.fd = c.fd
        h.daemon.receive(InputFrame(device: "d", window: "main", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 150, y: 150))]))
        try h.settle()
        #expect(peek.unreadAtTouchDown == [""], "no hit message, so no early write")
        try h.drain(c)
        #expect(c.of(type: "action").map { $0["name"] as? String } == ["pressed"])
        #expect(c.of(type: "hit").isEmpty)
    }
}
