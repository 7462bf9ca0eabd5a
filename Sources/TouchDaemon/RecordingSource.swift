import TouchCore
import TouchEvdev
import TouchProtocol

/// Plays a recording into the daemon in real time, as if its device were plugged in: the frames
/// come out of the same ``DeviceInputPipeline`` as a live device's, paced by the recording's own
/// timestamps (optionally faster) with a timer on the event loop.
public final class RecordingSource: InputSource {
    private var frames: [InputFrame] = []
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
    /// decoding it up front, for the daemon to log.
    public private(set) var anomalies: [String] = []

    /// Runs the whole recording through `replay`'s pipeline up front (decoding is deterministic), and
    /// keeps the frames to play.
    ///
    /// - Precondition: `speed` is positive and finite (``RunCommand`` rejects anything else).
    public init(replay: RecordingReplay, speed: Double = 1) {
        var pipeline = replay.pipeline
        anomalies = RecordingReplay.streamAnomalies(replay.recording.events)
        for event in replay.recording.events {
            if let frame = pipeline.feed(event) { frames.append(frame) }
            anomalies += pipeline.takeAnomalies().map { "\($0)" }
        }
        if let end = replay.recording.events.last?.time, let frame = pipeline.finish(at: end) { frames.append(frame) }
        anomalies += pipeline.takeAnomalies().map { "\($0)" }
        deviceID = replay.pipeline.deviceID
        name = replay.recording.description.name
        precondition(speed > 0 && speed.isFinite, "replay speed must be positive and finite")
        self.speed = speed
    }

    /// The recording's timeline: its first frame's time plus the (scaled) time played so far; the
    /// first frame's time before playing starts.
    public var clock: Double {
        guard let first = frames.first?.timestamp else { return 0 }
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
        if frames.isEmpty {
            sink?(.finished)
            return
        }
        timer.arm(after: 0.000_001)
    }

    public func stop() {
        if let timer { loop?.unregister(timer.fd) }
        timer = nil
    }

    private func playDue() {
        guard let first = frames.first?.timestamp else { return }
        let elapsed = (Daemon.monotonicNow() - startedAt) * speed
        while next < frames.count, frames[next].timestamp - first <= elapsed {
            sink?(.frame(frames[next]))
            next += 1
        }
        if next == frames.count {
            sink?(.deviceRemoved(id: deviceID))
            sink?(.finished)
            return
        }
        timer?.arm(after: (frames[next].timestamp - first - elapsed) / speed)
    }
}
