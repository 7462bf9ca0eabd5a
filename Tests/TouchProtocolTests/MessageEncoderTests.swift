import Testing
import TouchCore
import TouchProtocol

@Suite(.timeLimit(.minutes(10))) struct MessageEncoderTests {
    func tapReport() -> (DispatchReport, ViewTree) {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try! tree.addView("home", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try! tree.addView("home.ok", parent: "home", ViewProperties(frame: Rect(x: 10, y: 10, width: 20, height: 20)))
        var app = Application(
            tree: tree,
            handlers: HandlerTable([Handler(responder: "home.ok", trigger: .touchesBegan, action: "ok", payload: .object([("n", 1)]))]))
        app.recordsResponderCalls = false  // as the daemon runs it with no `calls` subscriber
        let report = app.send(
            InputFrame(device: "d", window: "w", timestamp: 1.5, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 15, y: 15.25))]))[0]
        return (report, app.tree)
    }

    @Test func hitTouchAndActionMessagesInOrder() {
        let (report, _) = tapReport()
        let messages = MessageEncoder.messages(for: report)
        #expect(messages.map(\.topic) == [.hits, .touches, .actions])
        #expect(
            messages[0].line(seq: 7)
                == #"{"seq":7,"type":"hit","time":1.5,"touch":1,"device":"d","window":"w","view":"home.ok","path":["w","home","home.ok"],"point":{"x":15,"y":15.25},"point_in_view":{"x":5,"y":5.25},"tap_count":1,"delivered":true}"# + "\n")
        #expect(messages[1].body.contains(#""phase":"began""#))
        #expect(messages[1].body.contains(#""location_in_view":{"x":5,"y":5.25},"previous_location_in_view":{"x":5,"y":5.25}"#))
        #expect(messages[1].droppable == false, "a touch-down is never dropped")
        #expect(messages[2].body.contains(#""name":"ok","responder":"home.ok","event":"touches_began","view":"home.ok","touches":[1],"payload":{"n":1}"#))
        #expect(messages[2].action == "ok")
    }

    @Test func aMovedTouchCarriesItsPreviousLocationInItsView() {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try! tree.addView("v", parent: "w", ViewProperties(frame: Rect(x: 10, y: 20, width: 50, height: 50)))
        var app = Application(tree: tree)
        _ = app.send(InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 15, y: 25))]))
        let report = app.send(
            InputFrame(device: "d", window: "w", timestamp: 1.01, contacts: [InputContact(id: 1, phase: .moved, location: Point(x: 18, y: 29))]))[0]
        let touch = MessageEncoder.messages(for: report).first { $0.topic == .touches }
        #expect(touch?.body.contains(#""location":{"x":18,"y":29},"previous_location":{"x":15,"y":25}"#) == true, "\(touch?.body ?? "")")
        #expect(
            touch?.body.contains(#""location_in_view":{"x":8,"y":9},"previous_location_in_view":{"x":5,"y":5}"#) == true, "\(touch?.body ?? "")")
    }

    /// A touch's location in its view is where the view was when the touch was dispatched: a view
    /// moved afterwards (before the message is written) does not change what the message says.
    @Test func theLocationInTheViewIsTheOneOfTheDispatch() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addView("v", parent: "w", ViewProperties(frame: Rect(x: 10, y: 20, width: 50, height: 50)))
        var app = Application(tree: tree)
        let report = app.send(InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 15, y: 25))]))[0]
        try app.updateView("v") { $0.frame = Rect(x: 0, y: 0, width: 50, height: 50) }
        let touch = MessageEncoder.messages(for: report).first { $0.topic == .touches }
        #expect(touch?.body.contains(#""location_in_view":{"x":5,"y":5},"previous_location_in_view":{"x":5,"y":5}"#) == true, "\(touch?.body ?? "")")
        // Without a view, the locations in the view are null.
        let outside = app.send(InputFrame(device: "d", window: "w", timestamp: 2, contacts: [InputContact(id: 2, phase: .began, location: Point(x: 500, y: 500))]))[0]
        let none = MessageEncoder.messages(for: outside).first { $0.topic == .touches }
        #expect(none?.body.contains(#""location_in_view":null,"previous_location_in_view":null"#) == true, "\(none?.body ?? "")")
    }

    /// A handler that makes a responder first responder does so inside its action, as
    /// `becomeFirstResponder()` inside an action method: the change follows that action and comes
    /// before the next one up the chain (seed 003 logs the change first).
    @Test func aFirstResponderChangeComesRightAfterTheActionThatMadeIt() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try tree.addView("container", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try tree.addView("button", parent: "container", ViewProperties(frame: Rect(x: 0, y: 0, width: 50, height: 50)))
        try tree.addView("field", parent: "container", ViewProperties(frame: Rect(x: 50, y: 50, width: 50, height: 50)))
        var app = Application(
            tree: tree,
            handlers: HandlerTable([
                Handler(responder: "button", trigger: .touchesBegan, action: "focus", firstResponderEffect: .become("field")),
                Handler(responder: "container", trigger: .touchesBegan, action: "after"),
                Handler(responder: "w", trigger: .touchesBegan, action: "last"),
            ]),
            firstResponderTraits: [FirstResponderTraits(responder: "field", canBecome: true, canResign: true)])
        app.recordsResponderCalls = false
        let report = app.send(InputFrame(device: "d", window: "w", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 10, y: 10))]))[0]
        let kinds = MessageEncoder.messages(for: report).map { message -> String in
            switch message.topic {
            case .actions: "action " + (message.action ?? "")
            case .firstResponder: "first_responder"
            default: message.topic.map(\.rawValue) ?? "none"
            }
        }
        #expect(kinds == ["hits", "touches", "action focus", "first_responder", "action after", "action last"])
    }

    /// The whole touch message, byte for byte, in every phase a touch message is sent in.
    @Test func touchMessagesInEveryPhase() {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try! tree.addView("v", parent: "w", ViewProperties(frame: Rect(x: 10, y: 20, width: 50, height: 50)))
        var app = Application(tree: tree)
        func touchLine(_ report: DispatchReport) -> String? {
            MessageEncoder.messages(for: report).first { $0.topic == .touches }?.line(seq: 1)
        }
        func contact(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double) -> InputContact {
            InputContact(id: id, phase: phase, location: Point(x: x, y: y), majorRadius: 4.5, force: 0.25, maximumPossibleForce: 2)
        }
        let began = app.send(InputFrame(device: "d", window: "w", timestamp: 2, contacts: [contact(1, .began, 15, 25)]))[0]
        let moved = app.send(InputFrame(device: "d", window: "w", timestamp: 2.008, contacts: [contact(1, .moved, 18.5, 29)]))[0]
        let ended = app.send(InputFrame(device: "d", window: "w", timestamp: 2.016, contacts: [contact(1, .ended, 18.5, 29)]))[0]
        _ = app.send(InputFrame(device: "d", window: "w", timestamp: 3, contacts: [contact(2, .began, 99, 99)]))
        let cancelled = app.cancelAllTouches(timestamp: 3.5)!
        let rest = #""major_radius":4.5,"major_radius_tolerance":0,"force":0.25,"maximum_possible_force":2}"# + "\n"
        let expected: [(DispatchReport, String)] = [
            (began, #"{"seq":1,"type":"touch","time":2,"touch":1,"phase":"began","device":"d","window":"w","view":"v","location":{"x":15,"y":25},"previous_location":{"x":15,"y":25},"location_in_view":{"x":5,"y":5},"previous_location_in_view":{"x":5,"y":5},"tap_count":1,"#),
            (moved, #"{"seq":1,"type":"touch","time":2.008,"touch":1,"phase":"moved","device":"d","window":"w","view":"v","location":{"x":18.5,"y":29},"previous_location":{"x":15,"y":25},"location_in_view":{"x":8.5,"y":9},"previous_location_in_view":{"x":5,"y":5},"tap_count":1,"#),
            (ended, #"{"seq":1,"type":"touch","time":2.016,"touch":1,"phase":"ended","device":"d","window":"w","view":"v","location":{"x":18.5,"y":29},"previous_location":{"x":18.5,"y":29},"location_in_view":{"x":8.5,"y":9},"previous_location_in_view":{"x":8.5,"y":9},"tap_count":1,"#),
            (cancelled, #"{"seq":1,"type":"touch","time":3.5,"touch":2,"phase":"cancelled","device":"d","window":"w","view":"w","location":{"x":99,"y":99},"previous_location":{"x":99,"y":99},"location_in_view":{"x":99,"y":99},"previous_location_in_view":{"x":99,"y":99},"tap_count":1,"#),
        ]
        for (report, line) in expected { #expect(touchLine(report) == line + rest) }
    }

    @Test func subscriptionsFilterByTopicViewPrefixAndActionName() {
        let (report, _) = tapReport()
        let messages = MessageEncoder.messages(for: report)
        let all = Subscription(id: 1, topics: Set(Topic.allCases))
        #expect(messages.allSatisfy(all.matches))
        let hitsOnly = Subscription(id: 2, topics: [.hits])
        #expect(messages.map(hitsOnly.matches) == [true, false, false])
        let prefix = Subscription(id: 3, topics: [.hits, .actions], views: ["home.*"])
        #expect(messages.map(prefix.matches) == [true, false, true])
        let other = Subscription(id: 4, topics: [.hits, .actions], views: ["settings.*"])
        #expect(messages.map(other.matches) == [false, false, false])
        let named = Subscription(id: 5, topics: [.actions], actions: ["cancel"])
        #expect(messages.map(named.matches) == [false, false, false])
        let hello = MessageEncoder.hello(daemonVersion: "touchd test")
        #expect(hitsOnly.matches(hello), "messages without a topic reach everyone")
        #expect(hello.line(seq: 1).hasPrefix(#"{"seq":1,"type":"hello","protocol":2,"daemon":"touchd test""#))
    }

    @Test func appendedLinesAreTheLinesByteForByte() {
        let (report, _) = tapReport()
        var messages = MessageEncoder.messages(for: report)
        messages.append(OutboundMessage(topic: nil, droppable: false, body: ""))
        messages.append(OutboundMessage(topic: nil, droppable: false, members: [("s", "é\n")]))
        let queue = ByteQueue(capacity: 64)
        "before".utf8.withContiguousStorageIfAvailable { queue.append(UnsafeRawBufferPointer($0)) }
        var expected = "before"
        for (message, seq) in zip(messages, [0, 9, 10, 1234567, UInt64.max, 42] as [UInt64]) {
            queue.appendLine(message, seq: seq)
            expected += message.line(seq: seq)
        }
        #expect(String(decoding: queue.bytes, as: UTF8.self) == expected)
    }

    @Test func jsonStringsAreEscaped() {
        let m = OutboundMessage(topic: nil, droppable: false, members: [("s", .string("a\"b\\c\n\u{01}é"))])
        #expect(m.line(seq: 1) == "{\"seq\":1,\"s\":\"a\\\"b\\\\c\\n\\u0001é\"}\n")
        #expect(JSONValue.double(.nan).jsonText == "null")
        #expect(JSONValue.double(0.1 + 0.2).jsonText == "0.3")
    }
}

/// The batch the daemon keeps warm from one event to the next: what it gave stays as it was while
/// anything holds it, and a batch no message refers to any more is written again in place.
@Suite(.timeLimit(.minutes(10))) struct WarmBatchTests {
    @Test func messagesStillHeldAreNeverRewrittenAndTheSameTextComesOut() {
        let (report, _) = MessageEncoderTests().tapReport()
        let interest = MessageInterest([Subscription(id: 1, topics: Topic.defaultTopics)])
        let fresh = MessageEncoder.messages(for: report, interest: interest, hitsSent: false).map(\.body)
        var marks = InputRateMarks()
        var batch = MessageBatch()
        // Hits first, then the event's messages, as the daemon publishes a touch-down; twice, the
        // first round's messages kept alive throughout.
        let hits = MessageEncoder.hitMessages(report.hits, interest: interest, batch: &batch)
        #expect(hits.map(\.body) == [fresh[0]])
        let rest = MessageEncoder.messages(for: report, interest: interest, hitsSent: true, marks: &marks, batch: &batch)
        #expect(rest.map(\.body) == Array(fresh.dropFirst()))
        for _ in 0..<3 {
            let again = MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks, batch: &batch)
            #expect(again.map(\.body) == fresh)
        }
        #expect(hits.map(\.body) == [fresh[0]], "held across three more events: not written over")
        #expect(rest.map(\.body) == Array(fresh.dropFirst()))
        // Nothing held any more: the same text again, from the batch's kept storage.
        for _ in 0..<3 {
            #expect(MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks, batch: &batch).map(\.body) == fresh)
        }
    }

    /// A batch's list given (``MessageBatch/take()``), the next message starts a new list, whether
    /// or not the batch was emptied first; lists held while later ones are written (in buffers
    /// grown past their first room) keep their text, and a list taken twice, or taken and then
    /// finished, is the same list.
    @Test func eachListTakenKeepsItsTextAndTheNextStartsAnew() {
        var batch = MessageBatch(messages: 1)
        var held: [([OutboundMessage], [String])] = []
        var last: [String] = []
        for round in 0..<12 {
            if round % 3 == 0 { batch.removeAll() }
            let texts = (0..<(1 + round % 4)).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0 + round))), count: 1 + 300 * (round % 5)) }
            for text in texts {
                batch.add(topic: nil, view: nil, droppable: false) { w in
                    w.member("text")
                    w.string(text)
                }
            }
            let expected = texts.map { #""text":"\#($0)""# }
            let messages = batch.take()
            #expect(messages.map(\.body) == expected, "round \(round)")
            #expect(batch.take().map(\.body) == expected, "round \(round), taken again")
            // Every other list is held to the end; the rest are let go at once.
            if round % 2 == 0 { held.append((messages, expected)) }
            last = expected
        }
        for (messages, expected) in held { #expect(messages.map(\.body) == expected) }
        #expect(batch.finish().map(\.body) == last, "finished after the last list was taken: that list")
    }

    @Test func aWarmBatchWritesAHitsPlaceAsTheTreeIsNow() {
        // The batch keeps each hit view's device, window, view and path members: a view whose path
        // or window changed (the tree changed between touches), or hit from another device, is
        // written anew, as a fresh batch does.
        let interest = MessageInterest([Subscription(id: 1, topics: [.hits])])
        func hit(_ touch: TouchID, device: String = "dev", window: ResponderID?, view: ResponderID?, path: [ResponderID]) -> HitRecord {
            HitRecord(
                touch: touch, device: device, timestamp: InputTime(seconds: Double(touch)), window: window, view: view, viewPath: path,
                pointInWindow: Point(x: 1, y: 2), pointInView: view == nil ? nil : Point(x: 0.5, y: 1), delivery: view == nil ? .noView : .delivered,
                tapCount: 1)
        }
        let hits = [
            hit(1, window: "w", view: "v", path: ["w", "a", "v"]),
            hit(2, window: "w", view: "v", path: ["w", "a", "v"]),
            hit(3, window: "w", view: "v", path: ["w", "b", "v"]),
            hit(4, window: "w2", view: "v", path: ["w2", "b", "v"]),
            hit(5, window: "w", view: nil, path: []),
            hit(6, window: "w", view: "v", path: ["w", "a", "v"]),
            hit(7, device: "dev2", window: "w", view: "v", path: ["w", "a", "v"]),
            hit(8, window: "w", view: "v", path: ["w", "a", "v"]),
        ]
        var batch = MessageBatch()
        for h in hits {
            let warm = MessageEncoder.hitMessages([h], interest: interest, batch: &batch).map(\.body)
            #expect(warm == [MessageEncoder.message(for: h).body], "touch \(h.touch)")
        }
        let third = MessageEncoder.message(for: hits[2]).body
        #expect(third.contains(#""touch":3,"device":"dev","window":"w","view":"v","path":["w","b","v"],"point":"#))
        #expect(MessageEncoder.message(for: hits[6]).body.contains(#""device":"dev2","window":"w""#))
        #expect(MessageEncoder.message(for: hits[4]).body.contains(#""window":"w","view":null,"path":[],"point":"#))
    }
}
