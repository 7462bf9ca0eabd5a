import Testing
import TouchCore
import TouchProtocol

@Suite(.timeLimit(.minutes(10))) struct RequestTests {
    @Test func wellFormedRequestsParse() throws {
        #expect(try Request.parse(#"{"id":1,"cmd":"ping"}"#).result.get() == .session(.ping))
        #expect(Request.parse(#"{"id":"abc","cmd":"ping"}"#).id == .string("abc"))
        #expect(
            try Request.parse(#"{"id":2,"cmd":"subscribe","topics":["hits","actions"],"views":["home.*"],"actions":["open"]}"#).result.get()
                == .session(.subscribe(topics: [.hits, .actions], views: ["home.*"], actions: ["open"])))
        #expect(
            try Request.parse(#"{"cmd":"subscribe"}"#).result.get() == .session(.subscribe(topics: Topic.defaultTopics, views: nil, actions: nil)))
        #expect(try Request.parse(#"{"cmd":"hit_test","x":10,"y":20.5}"#).result.get() == .tree(.hitTest(point: Point(x: 10, y: 20.5), window: nil)))
        var changes = ViewChanges()
        changes.isHidden = true
        changes.alpha = 0.5
        changes.frame = Rect(x: 1, y: 2, width: 3, height: 4)
        #expect(
            try Request.parse(#"{"cmd":"set","view":"ok","properties":{"hidden":true,"alpha":0.5,"frame":[1,2,3,4]}}"#).result.get()
                == .tree(.set(view: "ok", changes: changes)))
        #expect(try Request.parse(#"{"cmd":"remove_view","view":"x"}"#).result.get() == .tree(.removeView(view: "x")))
        #expect(try Request.parse(#"{"cmd":"set_control","view":"volume","value":3}"#).result.get() == .tree(.setControl(view: "volume", value: .double(3), enabled: nil)))
        #expect(
            try Request.parse(#"{"cmd":"set_control","view":"lights","value":true,"enabled":false}"#).result.get()
                == .tree(.setControl(view: "lights", value: .bool(true), enabled: false)))
        #expect(Request.tree(.setControl(view: "v", value: nil, enabled: true)).requiredRole == .control)
    }

    @Test func theInstallersRequestsParse() throws {
        #expect(try Request.parse(#"{"cmd":"record"}"#).result.get() == .deviceSession(.record(device: nil)))
        #expect(try Request.parse(#"{"cmd":"record","device":"1234:0001/vm touchscreen"}"#).result.get() == .deviceSession(.record(device: "1234:0001/vm touchscreen")))
        #expect(try Request.parse(#"{"cmd":"stop_recording"}"#).result.get() == .deviceSession(.stopRecording(device: nil)))
        #expect(try Request.parse(#"{"cmd":"calibrate"}"#).result.get() == .deviceSession(.calibrate(device: nil, targets: nil)))
        #expect(
            try Request.parse(#"{"cmd":"calibrate","device":"d","targets":[[10,20],[30,40.5],[50,60]]}"#).result.get()
                == .deviceSession(.calibrate(device: "d", targets: [Point(x: 10, y: 20), Point(x: 30, y: 40.5), Point(x: 50, y: 60)])))
        #expect(try Request.parse(#"{"cmd":"calibration_point","sample":3,"target":0}"#).result.get() == .deviceSession(.calibrationPoint(sample: 3, target: 0)))
        #expect(try Request.parse(#"{"cmd":"finish_calibration"}"#).result.get() == .deviceSession(.finishCalibration))
        #expect(try Request.parse(#"{"cmd":"cancel_calibration"}"#).result.get() == .deviceSession(.cancelCalibration))
        #expect(Request.deviceSession(.finishCalibration).command == "finish_calibration" && Request.deviceSession(.record(device: nil)).requiredRole == .control)
    }

    @Test(arguments: [
        (#"{"cmd":"calibrate","targets":[[1,2],[3,4]]}"#, #""targets": expected an array of 3 to 64 points [x, y] (window points)"#),
        (#"{"cmd":"calibrate","targets":[[1,2],[3,4],[5]]}"#, #""targets[2]": expected an array of 2 numbers (x, y)"#),
        (#"{"cmd":"calibrate","targets":[[1,2],[3,4],[5,2e6]]}"#, #""targets[2][1]": expected a finite number from -1000000 to 1000000 (points)"#),
        (#"{"cmd":"calibration_point","sample":0,"target":0}"#, #""sample": expected a whole number from 1 to 1024"#),
        (#"{"cmd":"calibration_point","sample":1,"target":64}"#, #""target": expected a whole number from 0 to 63"#),
        (#"{"cmd":"calibration_point","target":1}"#, #""sample" is required: expected a whole number from 1 to 1024"#),
        (#"{"cmd":"record","device":""}"#, #""device": expected a string of 1 to 2048 bytes"#),
        (#"{"cmd":"record","devices":"x"}"#, #"unknown argument "devices" for record: expected "device""#),
    ])
    func theInstallersRequestsAreCheckedAgainstTheirDomains(line: String, message: String) {
        guard case .failure(let error) = Request.parse(line).result else { Issue.record("\(line) parsed"); return }
        #expect(error.code.rawValue == "bad_argument")
        #expect(error.message == message)
    }

    @Test func aMisspeltViewPropertyGetsADidYouMean() {
        guard case .failure(let error) = Request.parse(#"{"cmd":"set","view":"x","properties":{"hiden":true}}"#).result else {
            Issue.record("parsed")
            return
        }
        #expect(error.code.rawValue == "bad_argument")
        #expect(error.message.hasPrefix(#"unknown view property "properties.hiden": did you mean "hidden"? expected frame, "#), "\(error.message)")
        guard case .failure(let far) = Request.parse(#"{"cmd":"set","view":"x","properties":{"colour":"red"}}"#).result else { return }
        #expect(!far.message.contains("did you mean"), "\(far.message)")
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
        #expect(error.code.rawValue == code)
        #expect(!error.message.isEmpty)
    }

    /// An unknown command is answered with every command the protocol has, in its documented order;
    /// each one listed is known (it fails, if at all, on its arguments, never as unknown).
    @Test func anUnknownCommandListsEveryCommand() throws {
        guard case .failure(let error) = Request.parse(#"{"id":1,"cmd":"pong"}"#).result else { return #expect(Bool(false)) }
        #expect(error.code == .unknownCommand)
        let listed = "ping, subscribe, unsubscribe, hit_test, set, set_control, add_view, remove_view, views, snapshot, become_first_responder, resign_first_responder, begin_receiving_remote_control, end_receiving_remote_control, reload, devices, stats, record, stop_recording, calibrate, calibration_point, finish_calibration or cancel_calibration"
        #expect(error.message == "unknown command \"pong\": did you mean \"ping\"? expected \(listed)")
        for name in listed.replacingOccurrences(of: " or ", with: ", ").split(separator: ", ") {
            if case .failure(let error) = Request.parse(#"{"id":1,"cmd":"\#(name)"}"#).result { #expect(error.code != .unknownCommand, "\(name)") }
        }
    }

    @Test func anUnknownCommandSuggestsTheNearestWhenItLooksLikeATypo() throws {
        for (typed, meant) in [("subscirbe", "subscribe"), ("add_veiw", "add_view"), ("addView", "add_view"), ("Ping", "ping")] {
            guard case .failure(let error) = Request.parse(#"{"id":1,"cmd":"\#(typed)"}"#).result else { return #expect(Bool(false)) }
            #expect(error.message.hasPrefix("unknown command \"\(typed)\": did you mean \"\(meant)\"? expected ping, "), "\(error.message)")
        }
        guard case .failure(let far) = Request.parse(#"{"id":1,"cmd":"launch_missiles"}"#).result else { return #expect(Bool(false)) }
        #expect(far.message.hasPrefix("unknown command \"launch_missiles\": expected ping, "))
    }

    @Test func unknownArgumentsAreRefusedByName() throws {
        let (id, result) = Request.parse(#"{"id":7,"cmd":"hit_test","x":1,"y":2,"windw":"main"}"#)
        #expect(id == .int(7))
        guard case .failure(let error) = result else {
            Issue.record("parsed")
            return
        }
        #expect(error.code.rawValue == "bad_argument")
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
        #expect(try Request.parse(#"{"id":1,"cmd":"snapshot","window":"w","heatmap":true}"#).result.get() == .tree(.snapshot(window: "w", heatmap: true)))
        #expect(try Request.parse(#"{"cmd":"snapshot","touches":false}"#).result.get() == .tree(.snapshot(window: nil, heatmap: false, touches: false)))
    }

    @Test func repliesCarryTheRequestID() {
        #expect(Reply.ok(.int(4), .object([("pong", true)])).line(seq: 9) == #"{"seq":9,"type":"reply","id":4,"ok":true,"result":{"pong":true}}"# + "\n")
        #expect(
            Reply.error(.string("a"), RequestError(.unknownCommand, "no")).line(seq: 1)
                == #"{"seq":1,"type":"reply","id":"a","ok":false,"error":{"code":"unknown_command","message":"no"}}"# + "\n")
    }
}

/// The error codes are one list: ``RequestErrorCode``'s raw values are exactly the codes of
/// `docs/protocol.md`'s table, and each first-responder refusal of the application has its code.
@Suite struct RequestErrorCodeTests {
    static let documented: Set<String> = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TouchProtocolTests/RequestTests.swift
        let text = (try? String(contentsOfFile: parts.joined(separator: "/") + "/docs/protocol.md", encoding: .utf8)) ?? ""
        // The table after "Every refusal carries one of these codes": its first column, in backticks.
        guard let start = text.range(of: "Every refusal carries one of these codes") else { return [] }
        var codes: Set<String> = []
        for line in text[start.upperBound...].split(separator: "\n").dropFirst().prefix(while: { $0.hasPrefix("|") }) {
            let first = line.split(separator: "|").first ?? ""
            for (index, piece) in first.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                codes.insert(String(piece))
            }
        }
        return codes
    }()

    @Test func theEnumIsTheDocumentedList() {
        #expect(!Self.documented.isEmpty)
        #expect(Set(RequestErrorCode.allCases.map(\.rawValue)) == Self.documented)
    }

    @Test func firstResponderRefusalsHaveTheirCodes() {
        #expect(RequestError(FirstResponderError.hidden("v")).code == .hidden)
        #expect(RequestError(FirstResponderError.cannotBecome("v")).code == .cannotBecomeFirstResponder)
        #expect(RequestError(FirstResponderError.currentRefusesToResign(current: "v")).code == .refusedToResign)
        #expect(RequestError(FirstResponderError.notFirstResponder("v")).code.rawValue == "not_first_responder")
    }
}
