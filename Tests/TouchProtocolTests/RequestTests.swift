import Testing
import TouchCore
import TouchProtocol

@Suite(.timeLimit(.minutes(10))) struct RequestTests {
    @Test func wellFormedRequestsParse() throws {
        #expect(try Request.parse(#"{"id":1,"cmd":"ping"}"#).result.get() == .ping)
        #expect(Request.parse(#"{"id":"abc","cmd":"ping"}"#).id == .string("abc"))
        #expect(
            try Request.parse(#"{"id":2,"cmd":"subscribe","topics":["hits","actions"],"views":["home.*"],"actions":["open"]}"#).result.get()
                == .subscribe(topics: [.hits, .actions], views: ["home.*"], actions: ["open"]))
        #expect(
            try Request.parse(#"{"cmd":"subscribe"}"#).result.get() == .subscribe(topics: Topic.defaultTopics, views: nil, actions: nil))
        #expect(try Request.parse(#"{"cmd":"hit_test","x":10,"y":20.5}"#).result.get() == .hitTest(point: Point(x: 10, y: 20.5), window: nil))
        var changes = ViewChanges()
        changes.isHidden = true
        changes.alpha = 0.5
        changes.frame = Rect(x: 1, y: 2, width: 3, height: 4)
        #expect(
            try Request.parse(#"{"cmd":"set","view":"ok","properties":{"hidden":true,"alpha":0.5,"frame":[1,2,3,4]}}"#).result.get()
                == .set(view: "ok", changes: changes))
        #expect(try Request.parse(#"{"cmd":"remove_view","view":"x"}"#).result.get() == .removeView(view: "x"))
        #expect(try Request.parse(#"{"cmd":"set_control","view":"volume","value":3}"#).result.get() == .setControl(view: "volume", value: .double(3), enabled: nil))
        #expect(
            try Request.parse(#"{"cmd":"set_control","view":"lights","value":true,"enabled":false}"#).result.get()
                == .setControl(view: "lights", value: .bool(true), enabled: false))
        #expect(Request.setControl(view: "v", value: nil, enabled: true).requiredRole == .control)
    }

    @Test(arguments: [
        ("{not json", "malformed_json"),
        ("[1,2]", "malformed_request"),
        (#"{"id":1}"#, "malformed_request"),
        (#"{"id":1,"cmd":"explode"}"#, "unknown_command"),
        (#"{"id":1,"cmd":"hit_test","x":"10","y":1}"#, "bad_argument"),
        (#"{"id":1,"cmd":"hit_test","x":true,"y":1}"#, "bad_argument"),
        (#"{"id":1,"cmd":"subscribe","topics":["nope"]}"#, "bad_argument"),
        (#"{"id":1,"cmd":"subscribe","topics":"hits"}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set","view":"v","properties":{"alpha":2}}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set","view":"v","properties":{"hiden":true}}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set","view":"v","properties":{"hidden":1}}"#, "bad_argument"),
        (#"{"id":1,"cmd":"add_view","view":"v","parent":"p","properties":{}}"#, "bad_argument"),
        (#"{"id":1,"cmd":"unsubscribe","subscription":1.5}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set_control","view":"v"}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set_control","view":"v","value":"high"}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set_control","view":"v","value":1e13}"#, "bad_argument"),
        (#"{"id":1,"cmd":"set_control","view":"v","enabled":1}"#, "bad_argument"),
    ])
    func badRequestsGetACodeAndASentence(line: String, code: String) {
        let (_, result) = Request.parse(line)
        guard case .failure(let error) = result else { Issue.record("\(line) parsed"); return }
        #expect(error.code == code)
        #expect(!error.message.isEmpty)
    }

    @Test func unknownArgumentsAreRefusedByName() throws {
        let (id, result) = Request.parse(#"{"id":7,"cmd":"hit_test","x":1,"y":2,"windw":"main"}"#)
        #expect(id == .int(7))
        guard case .failure(let error) = result else {
            Issue.record("parsed")
            return
        }
        #expect(error.code == "bad_argument")
        #expect(error.message == #"unknown argument "windw" for hit_test: expected "window", "x", "y""#)
        guard case .failure(let noArguments) = Request.parse(#"{"cmd":"ping","verbose":true}"#).result else {
            Issue.record("parsed")
            return
        }
        #expect(noArguments.message == #"unknown argument "verbose" for ping: expected no arguments"#)
        // Every command the parser knows has its list of arguments.
        for command in ["ping", "subscribe", "unsubscribe", "hit_test", "set", "set_control", "add_view", "remove_view", "reload", "devices", "views", "stats",
            "snapshot", "become_first_responder", "resign_first_responder"]
        {
            guard case .failure(let error) = Request.parse(#"{"cmd":"\#(command)","zz":1}"#).result else {
                Issue.record("\(command) took an unknown argument")
                continue
            }
            #expect(error.message.hasPrefix("unknown argument \"zz\" for \(command)"), "\(error.message)")
        }
        // Every command's documented arguments are accepted.
        #expect(try Request.parse(#"{"id":1,"cmd":"snapshot","window":"w","heatmap":true}"#).result.get() == .snapshot(window: "w", heatmap: true))
    }

    @Test func repliesCarryTheRequestID() {
        #expect(Reply.ok(.int(4), .object([("pong", true)])).line(seq: 9) == #"{"seq":9,"type":"reply","id":4,"ok":true,"result":{"pong":true}}"# + "\n")
        #expect(
            Reply.error(.string("a"), RequestError("unknown_command", "no")).line(seq: 1)
                == #"{"seq":1,"type":"reply","id":"a","ok":false,"error":{"code":"unknown_command","message":"no"}}"# + "\n")
    }
}
