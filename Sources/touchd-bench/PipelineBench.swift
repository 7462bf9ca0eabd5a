import TouchCore
import TouchDaemon
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// The in-process pipeline as the daemon runs it, on a recording mapped onto a layout's window:
/// decode (frame assembly and mapping), the application (touches, queue, display ticks, hit-test,
/// responder chain, handlers, recognizers, controls), messages encoded once (what the subscribers
/// want), and each message's line written into the send buffers of the subscribers that want it.
struct PipelineBench {
    let name: String
    let events: [InputEvent]
    let pipeline: TouchDevicePipeline
    let app: Application
    let subscriptions: [Subscription]
    /// What the subscribers want together, as the daemon works it out.
    let interest: MessageInterest
    /// The windows' refresh rate the bench runs at (0: every input frame).
    let refreshRate: Double

    init(recording path: String, layout: String, window: String, subscribers: Int, refreshRate: Double) throws {
        var document = try LayoutLoader.load(path: layout)
        for i in document.windows.indices { document.windows[i].properties.refreshRate = refreshRate }
        self.refreshRate = refreshRate
        var app = try document.makeApplication(file: layout)
        app.recordsResponderCalls = false  // as the daemon runs it
        let replay = try RecordingReplay(path: path, descriptionPath: nil, layout: document, tree: app.tree, window: window)
        name = String(path.split(separator: "/").last ?? "")
        events = replay.recording.events
        guard case .touch(let touch) = replay.pipeline else {
            throw BenchError("\(path): the pipeline benchmark needs a touch device's recording")
        }
        pipeline = touch
        let everything = Topic.defaultTopics
        subscriptions = (0..<subscribers).map { Subscription(id: $0 + 1, topics: everything) }
        interest = MessageInterest(subscriptions)
        app.recordsSampleLocationsInView = interest.touchForms.contains(.input)  // as the daemon runs it
        self.app = app
    }

    /// The rate in words, for the rows' sections.
    var rateName: String { refreshRate > 0 ? "\(Int(exactly: refreshRate).map(String.init) ?? "\(refreshRate)") Hz" : "every input frame" }

    /// Decodes every event into frames, nothing more: the baseline. Returns the number of frames.
    /// (Never inlined: callgrind counts its instructions by name.)
    @inline(never) func decode() -> Int {
        var pipeline = self.pipeline
        var frames = 0
        var contacts = 0
        for event in events {
            if let frame = pipeline.feed(event) {
                frames += 1
                contacts &+= frame.contacts.count
            }
        }
        keep(contacts)
        return frames
    }

    /// The subscribers' state: each numbers its own lines and has a send buffer.
    struct Subscribers {
        var seq: [UInt64]
        /// Each subscriber's subscriptions, as the daemon checks them.
        let interests: [SubscriptionSet]
        /// Each subscriber's send queue, as the daemon keeps one per client.
        let buffers: [ByteQueue]
        var bytes = 0

        init(_ subscriptions: [Subscription]) {
            let count = subscriptions.count
            interests = subscriptions.map { SubscriptionSet([$0]) }
            seq = Array(repeating: 1, count: count)
            buffers = (0..<count).map { _ in ByteQueue() }
        }
    }

    /// What a frame does, as the allocation figures tell frames apart.
    enum FrameKind {
        /// It only moves touches already down.
        case moves
        /// A touch lands in it.
        case touchDown
        /// It lifts or cancels touches, none landing.
        case lift

        init(_ frame: InputFrame) {
            if frame.isMoveOnly {
                self = .moves
            } else {
                self = frame.contacts.contains { $0.phase == .began } ? .touchDown : .lift
            }
        }
    }

    /// Runs the whole pipeline once over the recording; `offset` shifts its timestamps (for runs that
    /// continue one application). `each` is given each frame's work to run (decoding the events up
    /// to the frame, dispatching and encoding it), which says what the frame did (nil for the
    /// events after the last frame). (Never inlined: callgrind counts its instructions by name.)
    @inline(never) func whole(
        app: inout Application, subscribers: inout Subscribers, offset: Double = 0,
        each: ((_ work: () -> FrameKind?) -> Void)? = nil
    ) -> Int {
        var pipeline = self.pipeline
        var frames = 0
        // As the daemon publishes: each report's messages as the dispatch hands it on, then one
        // flush for everything a frame produced.
        var batch = MessageBatch()
        var marks = InputRateMarks()
        func publish(_ report: DispatchReport) {
            for message in MessageEncoder.messages(for: report, interest: interest, hitsSent: false, marks: &marks, batch: &batch) {
                for i in subscribers.interests.indices where subscribers.interests[i].wants(message) {
                    subscribers.buffers[i].appendLine(message, seq: subscribers.seq[i])
                    subscribers.seq[i] += 1
                }
            }
        }
        // The socket takes everything: the buffers are emptied as a flush does.
        func flush() {
            for i in subscribers.buffers.indices {
                subscribers.bytes &+= subscribers.buffers[i].count
                subscribers.buffers[i].removeAll(keepingCapacity: true)
            }
        }
        func send(_ frame: InputFrame) {
            app.send(.touches(frame), hitsReady: { _ in }, dispatched: publish)
            flush()
        }
        var next = 0
        // Feeds events up to the next frame and sends it.
        func step() -> FrameKind? {
            while next < events.count {
                var event = events[next]
                next += 1
                if offset != 0 { event.time = EventTime(microseconds: event.time.microseconds + Int64(offset * 1e6)) }
                guard let frame = pipeline.feed(event) else { continue }
                frames += 1
                send(frame)
                return FrameKind(frame)
            }
            return nil
        }
        while next < events.count {
            if let each { each(step) } else { _ = step() }
        }
        let end = EventTime(microseconds: (events.last?.time.microseconds ?? 0) + Int64(offset * 1e6))
        if let frame = pipeline.finish(at: end) { send(frame) }
        app.dispatchDue(by: .distantFuture, hitsReady: { _ in }, dispatched: publish)
        if let report = app.flushTimers() { publish(report) }
        flush()
        return frames
    }

    /// The recording's length in seconds.
    var duration: Double {
        guard let first = events.first, let last = events.last else { return 0 }
        return Double(last.time.microseconds - first.time.microseconds) / 1e6
    }
}

/// Why a benchmark cannot run on what it was given.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
