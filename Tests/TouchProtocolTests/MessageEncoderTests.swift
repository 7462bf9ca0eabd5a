import Testing
import TouchCore
import TouchProtocol

@Suite struct MessageEncoderTests {
    func tapReport() -> (DispatchReport, ViewTree) {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        try! tree.addView("home", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try! tree.addView("home.ok", parent: "home", ViewProperties(frame: Rect(x: 10, y: 10, width: 20, height: 20)))
        var app = Application(
            tree: tree,
            handlers: HandlerTable([Handler(responder: "home.ok", trigger: .touchesBegan, action: "ok", payload: .object([("n", 1)]))]))
        let report = app.send(
            InputFrame(device: "d", window: "w", timestamp: 1.5, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 15, y: 15.25))]))[0]
        return (report, app.tree)
    }

    @Test func hitTouchAndActionMessagesInOrder() {
        let (report, tree) = tapReport()
        let messages = MessageEncoder.messages(for: report, tree: tree)
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
        let touch = MessageEncoder.messages(for: report, tree: app.tree).first { $0.topic == .touches }
        #expect(touch?.body.contains(#""location":{"x":18,"y":29},"previous_location":{"x":15,"y":25}"#) == true, "\(touch?.body ?? "")")
        #expect(
            touch?.body.contains(#""location_in_view":{"x":8,"y":9},"previous_location_in_view":{"x":5,"y":5}"#) == true, "\(touch?.body ?? "")")
    }

    @Test func subscriptionsFilterByTopicViewPrefixAndActionName() {
        let (report, tree) = tapReport()
        let messages = MessageEncoder.messages(for: report, tree: tree)
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
        #expect(hello.line(seq: 1).hasPrefix(#"{"seq":1,"type":"hello","protocol":1,"daemon":"touchd test""#))
    }

    @Test func appendedLinesAreTheLinesByteForByte() {
        let (report, tree) = tapReport()
        var messages = MessageEncoder.messages(for: report, tree: tree)
        messages.append(OutboundMessage(topic: nil, droppable: false, body: ""))
        messages.append(OutboundMessage(topic: nil, droppable: false, members: [("s", "é\n")]))
        var buffer: [UInt8] = Array("before".utf8)
        var expected = "before"
        for (message, seq) in zip(messages, [0, 9, 10, 1234567, UInt64.max, 42] as [UInt64]) {
            message.appendLine(seq: seq, to: &buffer)
            expected += message.line(seq: seq)
        }
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }

    @Test func jsonStringsAreEscaped() {
        let m = OutboundMessage(topic: nil, droppable: false, members: [("s", .string("a\"b\\c\n\u{01}é"))])
        #expect(m.line(seq: 1) == "{\"seq\":1,\"s\":\"a\\\"b\\\\c\\n\\u0001é\"}\n")
        #expect(JSONValue.double(.nan).jsonText == "null")
        #expect(JSONValue.double(0.1 + 0.2).jsonText == "0.3")
    }
}
