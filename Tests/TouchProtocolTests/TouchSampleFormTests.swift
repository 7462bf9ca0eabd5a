import Foundation
import Testing
import TouchCore
import TouchProtocol

/// The forms of `touch` message a subscription chooses (`touch_samples`): the newest sample only,
/// with the coalesced samples, or one message per input frame as before display-rate delivery.
@Suite(.timeLimit(.minutes(10))) struct TouchSampleFormTests {
    func app(refreshRate: Double) -> Application {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000), refreshRate: refreshRate))
        try! tree.addView("pad", parent: "window", ViewProperties(frame: Rect(x: 100.25, y: 50, width: 800, height: 800)))
        var app = Application(tree: tree)
        app.recordsResponderCalls = false
        return app
    }

    /// Three fingers at 1 kHz: down together, moving for 60 ms (one stands still now and then, one
    /// changes only its pressure), one lifts early and comes back, then all lift.
    func stream() -> [InputFrame] {
        var frames: [InputFrame] = []
        func f(_ t: Double, _ contacts: [InputContact]) { frames.append(InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)) }
        func c(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, force: Double = 0.5) -> InputContact {
            InputContact(id: id, phase: phase, location: Point(x: x, y: y), majorRadius: 3 + Double(id), force: force, maximumPossibleForce: 1)
        }
        f(20, [c(1, .began, 200, 200), c(2, .began, 300, 300), c(3, .began, 400, 400)])
        for i in 1...60 {
            let t = 20 + Double(i) / 1000
            let still = i % 7 == 0
            var contacts = [
                c(1, still ? .stationary : .moved, still ? 200 + Double(i - 1) : 200 + Double(i), 200.5),
                c(2, .moved, 300, 300, force: 0.5 + Double(i) / 1000),
            ]
            if i < 20 || i > 30 { contacts.append(c(3, i == 31 ? .began : .moved, 400 - Double(i) / 3, 400)) }
            if i == 20 { contacts.append(c(3, .ended, 400 - 20.0 / 3, 400)) }
            f(t, contacts)
        }
        f(20.061, [c(1, .ended, 260, 200.5), c(2, .ended, 300, 300), c(3, .ended, 380, 400)])
        return frames
    }

    /// The lines one subscriber gets for the stream, numbered as the daemon numbers them.
    func lines(refreshRate: Double, _ subscription: Subscription) -> [String] {
        var app = app(refreshRate: refreshRate)
        var reports: [DispatchReport] = []
        for frame in stream() { reports += app.send(frame) }
        reports += app.dispatchAll()
        var seq: UInt64 = 1
        var out: [String] = []
        for report in reports {
            for message in MessageEncoder.messages(for: report, interest: MessageInterest([subscription])) where subscription.matches(message) {
                out.append(message.line(seq: seq))
                seq += 1
            }
        }
        return out
    }

    /// The lines one subscriber gets for the stream as the daemon sends them: after each frame is
    /// read, what it made due, then the samples of the moves waiting for their tick (the `input`
    /// and `frames` forms, at the input's rate); the rest at the end.
    func linesAtArrival(refreshRate: Double, _ subscription: Subscription) -> [String] {
        var app = app(refreshRate: refreshRate)
        let interest = MessageInterest([subscription])
        var marks = InputRateMarks()
        var seq: UInt64 = 1
        var out: [String] = []
        // One batch kept warm for every event's and every arrival's messages, as the daemon keeps it.
        var batch = MessageBatch()
        func take(_ messages: [OutboundMessage]) {
            for message in messages where subscription.matches(message) {
                out.append(message.line(seq: seq))
                seq += 1
            }
        }
        for frame in stream() {
            for report in app.send(frame) {
                take(MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks, batch: &batch))
            }
            let sent = marks
            if interest.touchForms.isDisjoint(with: .atArrival) {
                continue  // nothing goes out at the input's rate
            } else {
                // As the daemon makes them: from the samples without whole touches (with the places
                // in the view for the `input` form), the same messages as from the touches.
                var marksByTouches = marks
                let byTouches = MessageEncoder.arrivalMessages(
                    of: app.waitingMoveTouches(sentThrough: sent.sent), forms: interest.touchForms, marks: &marksByTouches)
                let samples = app.waitingMoveSamples(sentThrough: sent.sent, inView: interest.touchForms.contains(.input))
                let bySamples = MessageEncoder.arrivalMessages(of: samples, forms: interest.touchForms, marks: &marks, batch: &batch)
                #expect(bySamples.map { $0.line(seq: 1) } == byTouches.map { $0.line(seq: 1) })
                #expect(marks == marksByTouches)
                take(bySamples)
            }
        }
        for report in app.dispatchAll() { take(MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks)) }
        #expect(marks.isEmpty, "every touch's marks forgotten once dispatched")
        return out
    }

    @Test func theInputFormSentAsFramesArriveIsEveryFrameOnceInOrder() {
        let everyFrame = lines(refreshRate: 0, Subscription(id: 1, topics: [.hits, .touches]))
        let atArrival = linesAtArrival(refreshRate: 60, Subscription(id: 1, topics: [.hits, .touches], touchSamples: .input))
        #expect(everyFrame.count > 100)
        #expect(atArrival == everyFrame)
        let coalesced = linesAtArrival(refreshRate: 60, Subscription(id: 1, topics: [.touches]))
        #expect(coalesced == lines(refreshRate: 60, Subscription(id: 1, topics: [.touches])), "the display-rate forms do not change")
    }

    /// `[touch, phase, x, y, force, major_radius]` of each `touch` message, grouped by time.
    func framesOf(_ lines: [String]) throws -> [[[String]]] {
        var frames: [[[String]]] = []
        var lastTime: Double?
        for line in lines {
            let message = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard message["type"] as? String == "touch", let time = message["time"] as? Double else { continue }
            let location = try #require(message["location"] as? [String: Any])
            let entry = [message["touch"], message["phase"], location["x"], location["y"], message["force"], message["major_radius"]].map { "\($0 ?? "nil")" }
            if time == lastTime { frames[frames.count - 1].append(entry) } else { frames.append([entry]) }
            lastTime = time
        }
        return frames
    }

    @Test func theFramesFormGivesOneCompactMessagePerInputFrame() throws {
        let everyFrame = try framesOf(lines(refreshRate: 0, Subscription(id: 1, topics: [.touches])))
        for arrival in [false, true] {
            let subscription = Subscription(id: 1, topics: [.touches], touchSamples: .frames)
            let compact = arrival ? linesAtArrival(refreshRate: 60, subscription) : lines(refreshRate: 60, subscription)
            var frames: [[[String]]] = []
            for line in compact {
                let message = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(message["type"] as? String == "touch_frame", "only touch_frame messages: \(line)")
                #expect(message["device"] as? String == "dev" && message["window"] as? String == "window")
                let touches = try #require(message["touches"] as? [[Any]])
                frames.append(touches.map { $0.map { "\($0)" } })
            }
            // 62 frames, two of which (20.021 and 20.028) change nothing: finger 1 stands still, 2 only presses harder.
            #expect(frames.count == 60, "one per input frame that changed a touch: \(frames.count)")
            #expect(frames == everyFrame, arrival ? "sent as frames arrive" : "sent at the ticks")
        }
    }

    @Test func theInputFormGivesEveryFrameAsWithoutADisplayRate() {
        let everyFrame = lines(refreshRate: 0, Subscription(id: 1, topics: [.hits, .touches]))
        let input = lines(refreshRate: 60, Subscription(id: 1, topics: [.hits, .touches], touchSamples: .input))
        #expect(everyFrame.count > 100)
        #expect(input == everyFrame)
    }

    @Test func theCoalescedFormCarriesEverySampleAndTheLatestFormNone() throws {
        let coalesced = lines(refreshRate: 60, Subscription(id: 1, topics: [.touches]))
        let latest = lines(refreshRate: 60, Subscription(id: 1, topics: [.touches], touchSamples: .latest))
        #expect(coalesced.count == latest.count)
        #expect(coalesced.count < 40, "moves at 60 Hz, not 1 kHz: \(coalesced.count) messages")
        #expect(latest.allSatisfy { !$0.contains("coalesced") })
        let moves = try coalesced.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            .filter { $0["phase"] as? String == "moved" && $0["touch"] as? Int == 1 }
        // Finger 1: every position from 201 to 260 (those where it stood still are the one before),
        // as samples [time, x, y, force, major_radius] or as the message's own location.
        var xs: [Double] = []
        for move in moves {
            let samples = move["coalesced"] as? [[Double]] ?? []
            #expect(samples.allSatisfy { $0.count == 5 && $0[2] == 200.5 && $0[3] == 0.5 && $0[4] == 4 })
            xs += samples.map { $0[1] } + [((move["location"] as? [String: Any])?["x"] as? Double) ?? -1]
        }
        let expected: Set<Double> = Set((1...60).filter { $0 % 7 != 0 }.map { 200 + Double($0) })
        #expect(Set(xs) == expected)
    }

    @Test func aSubscriptionGetsOnlyItsForm() {
        var app = app(refreshRate: 60)
        for frame in stream().prefix(10) { _ = app.send(frame) }
        let reports = app.dispatchAll()
        let forms: [TouchSampleForm: Subscription] = [
            .latest: Subscription(id: 1, topics: [.touches], touchSamples: .latest), .coalesced: Subscription(id: 2, topics: [.touches]),
            .input: Subscription(id: 3, topics: [.touches], touchSamples: .input),
            .frames: Subscription(id: 4, topics: [.touches], touchSamples: .frames),
        ]
        let messages = reports.flatMap { MessageEncoder.messages(for: $0, interest: MessageInterest(forms.values)) }
        let counts = forms.mapValues { s in messages.filter(s.matches).count }
        #expect(counts[.latest] == 3 && counts[.coalesced] == 3, "one message per touch: \(counts)")
        // Finger 2 only presses harder (no input frame moved it); finger 1 stood still at 20.007.
        #expect(counts[.input] == 9 + 8, "one per input frame and finger that moved: \(counts)")
        #expect(counts[.frames] == 9, "one per input frame: \(counts)")
        #expect(!SubscriptionSet([forms[.frames]!]).wants(messages[0]), "a touch message is no frames-form message")
        #expect(SubscriptionSet([forms[.latest]!, forms[.input]!]).wants(messages[0]))
        #expect(!SubscriptionSet([forms[.input]!]).wants(messages[1]), "the coalesced form's message")
        #expect(MessageEncoder.messages(for: reports[0], interest: MessageInterest([forms[.latest]!])).count == 3, "only what is wanted is written")
        #expect(MessageEncoder.messages(for: reports[0], interest: MessageInterest([Subscription(id: 1, topics: [.hits])])).isEmpty)
    }

    @Test func subscribeTakesTheForm() throws {
        #expect(
            try Request.parse(#"{"cmd":"subscribe","topics":["touches"],"touch_samples":"input"}"#).result.get()
                == .session(.subscribe(topics: [.touches], views: nil, actions: nil, touchSamples: .input)))
        #expect(
            try Request.parse(#"{"cmd":"subscribe","topics":["touches"]}"#).result.get()
                == .session(.subscribe(topics: [.touches], views: nil, actions: nil, touchSamples: .coalesced)))
        #expect(
            try Request.parse(#"{"cmd":"subscribe","topics":["touches"],"touch_samples":"frames"}"#).result.get()
                == .session(.subscribe(topics: [.touches], views: nil, actions: nil, touchSamples: .frames)))
        for bad in [#""every""#, #""frame""#, "1", "null"] {
            let result = Request.parse(#"{"cmd":"subscribe","touch_samples":\#(bad)}"#).result
            #expect(throws: RequestError.self) { try result.get() }
            if case .failure(let error) = result { #expect(error.code.rawValue == "bad_argument" && error.message.contains("touch_samples")) }
        }
    }
}

extension TouchSampleFormTests {
    /// A warm batch keeps what each touch's `input` messages repeat (its device, window and view,
    /// the numbers it wrote last): the text is the one written anew, also when a batch writes for
    /// another application whose touches have the same numbers but another device and view.
    @Test func keptTouchTextIsTheTextWrittenAnew() {
        let forms: TouchForms = .input
        let interest = MessageInterest([Subscription(id: 1, topics: [.touches], touchSamples: .input)])
        var batch = MessageBatch()
        for (device, view) in [("dev", Rect(x: 100.25, y: 50, width: 800, height: 800)), ("other", Rect(x: 0, y: 0, width: 900, height: 900))] {
            var tree = ViewTree()
            try! tree.addWindow("window", WindowProperties(size: Size(width: 1000, height: 1000), refreshRate: 60))
            try! tree.addView(device == "dev" ? "pad" : "board", parent: "window", ViewProperties(frame: view))
            var app = Application(tree: tree)
            app.recordsResponderCalls = false
            var marks = InputRateMarks()
            var warm: [String] = []
            var fresh: [String] = []
            // The first application's touches are left down: their texts stay kept.
            for var frame in device == "dev" ? Array(stream().dropLast()) : stream() {
                frame = InputFrame(device: device, window: frame.window, timestamp: frame.timestamp, contacts: frame.contacts)
                for report in app.send(frame) {
                    var freshMarks = marks
                    fresh += MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &freshMarks).map(\.body)
                    warm += MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks, batch: &batch).map(\.body)
                }
                let sent = marks
                var freshMarks = marks
                fresh += MessageEncoder.arrivalMessages(of: app.waitingMoveTouches(sentThrough: sent.sent), forms: forms, marks: &freshMarks).map(\.body)
                let samples = app.waitingMoveSamples(sentThrough: sent.sent, inView: true)
                warm += MessageEncoder.arrivalMessages(of: samples, forms: forms, marks: &marks, batch: &batch).map(\.body)
            }
            #expect(warm.count > 100)
            #expect(warm == fresh)
            #expect(warm.allSatisfy { !$0.contains(#""type":"touch""#) || $0.contains(#""device":"\#(device)""#) })
        }
    }
}
