import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// Plays a recording into the daemon in real time, as if its device were plugged in: its events go
/// through the same ``TouchDevicePipeline`` as a live device's, paced by the recording's own
/// timestamps (optionally faster) with a timer on the event loop. A reload re-matches and re-maps
/// the device from the next event on, as for a live one.
public final class RecordingSource: InputSource {
    private let replay: RecordingReplay
    private let events: [InputEvent]
    /// The pipeline events go through now; nil once a reloaded layout no longer takes the device.
    private var pipeline: TouchDevicePipeline?
    /// The first frame's time: the recording's clock starts there.
    private let firstFrameTime: Double?
    private let deviceID: String
    private let name: String
    private let speed: Double
    private var timer: LoopTimer?
    private weak var loop: EventLoop?
    private var sink: ((InputSourceEvent) -> Void)?
    private var next = 0
    private var startedAt = 0.0
    private var started = false
    /// What was odd in the recording (its stream, and what the pipeline worked around), found while
    /// decoding it once up front, for the daemon to log.
    public private(set) var anomalies: [String] = []
    /// Told of problems met while playing (a reloaded layout that no longer takes the device).
    public var onProblem: ((String) -> Void)?

    /// Decodes the whole recording once up front (decoding is deterministic) for its anomalies and
    /// first frame; playing feeds the events again, in time.
    ///
    /// - Precondition: `speed` is positive and finite (``RunCommand`` rejects anything else).
    public init(replay: RecordingReplay, speed: Double = 1) {
        precondition(speed > 0 && speed.isFinite, "replay speed must be positive and finite")
        var probe = replay.pipeline
        var first: Double?
        var found = RecordingReplay.streamAnomalies(replay.recording.events)
        for event in replay.recording.events {
            if let frame = probe.feed(event), first == nil { first = frame.timestamp }
            found += probe.takeAnomalies().map { "\($0)" }
        }
        if let end = replay.recording.events.last?.time, let frame = probe.finish(at: end), first == nil { first = frame.timestamp }
        found += probe.takeAnomalies().map { "\($0)" }
        self.replay = replay
        events = replay.recording.events
        pipeline = replay.pipeline
        firstFrameTime = first
        anomalies = found
        deviceID = replay.pipeline.deviceID
        name = replay.recording.description.name
        self.speed = speed
    }

    /// The recording's timeline: its first frame's time plus the (scaled) time played so far; the
    /// first frame's time before playing starts.
    public var clock: Double {
        guard let first = firstFrameTime else { return 0 }
        guard started else { return first }
        return first + (Daemon.monotonicNow() - startedAt) * speed
    }

    public var deviceDescriptions: JSONValue {
        .array([.object([("device", .string(deviceID)), ("name", .string(name)), ("source", "recording")])])
    }

    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        self.loop = loop
        self.sink = sink
        let timer = try LoopTimer()
        self.timer = timer
        try loop.register(timer.fd, for: .readable) { [unowned self] _ in
            timer.acknowledge()
            self.playDue()
        }
        sink(.deviceAdded(id: deviceID, description: .object([("name", .string(name)), ("source", "recording")])))
    }

    /// Starts playing (now, or when the daemon calls it: e.g. once a client has subscribed).
    public func begin() {
        guard !started, let timer else { return }
        started = true
        startedAt = Daemon.monotonicNow()
        if firstFrameTime == nil {
            sink?(.finished)
            return
        }
        timer.arm(after: 0.000_001)
    }

    public func stop() {
        if let timer { loop?.unregister(timer.fd) }
        timer = nil
    }

    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        guard let current = pipeline else { return }
        do {
            pipeline = try replay.pipeline(afterReloadOf: current, layout: layout, tree: tree)
        } catch {
            pipeline = nil
            onProblem?("the replayed device \(deviceID) cannot be used with the reloaded layout; its input is ignored: \(error)")
            sink?(.deviceRemoved(id: deviceID))
        }
    }

    private func playDue() {
        guard let first = firstFrameTime else { return }
        let elapsed = (Daemon.monotonicNow() - startedAt) * speed
        // The due events are fed to the decoder taken out of `pipeline` (one access to the
        // object's state for the lot, not two per event), and the frames passed on after.
        var frames: [InputFrame] = []
        var decoder = pipeline.take()
        var i = next
        while i < events.count, events[i].time.seconds - first <= elapsed {
            if let frame = decoder?.feed(events[i]) { frames.append(frame) }
            i += 1
        }
        _ = decoder?.takeAnomalies()  // reported once, up front
        next = i
        pipeline = decoder.take()
        for frame in frames { sink?(.frame(frame)) }
        if next == events.count {
            if let end = events.last?.time, let frame = pipeline?.finish(at: end) { sink?(.frame(frame)) }
            if pipeline != nil { sink?(.deviceRemoved(id: deviceID)) }
            pipeline = nil
            sink?(.finished)
            return
        }
        timer?.arm(after: max((events[next].time.seconds - first - elapsed) / speed, 0.000_001))
    }
}
