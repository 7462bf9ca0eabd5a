import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol
import TouchSystem

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
    private let clock: any TimeSource
    /// Whether playing waits for the first client to subscribe.
    private let waitsForSubscriber: Bool
    private var loop: EventLoop?
    private var timer: TimerHandle?
    private var sink: ((InputSourceEvent) -> Void)?
    private var next = 0
    /// When playing started, in microseconds on `clock`.
    private var startedAt: Int64 = 0
    private var started = false
    /// What was odd in the recording (its stream, and what the pipeline worked around), found while
    /// decoding it once up front: reported as the source starts.
    public let anomalies: [String]

    /// Decodes the whole recording once up front (decoding is deterministic) for its anomalies and
    /// first frame; playing feeds the events again, in time, paced on `clock` (the loop's).
    ///
    /// - Parameters:
    ///   - speed: how many times faster than recorded it plays; anything but a positive finite
    ///     number plays in real time (``RunCommand`` refuses such a speed before).
    ///   - waitsForSubscriber: start playing when the first client subscribes, not at ``start(on:sink:)``.
    public init(replay: RecordingReplay, speed: Double = 1, clock: any TimeSource, waitsForSubscriber: Bool = false) {
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
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.clock = clock
        self.waitsForSubscriber = waitsForSubscriber
    }

    /// The recording's timeline: its first frame's time plus the (scaled) time played so far; the
    /// first frame's time before playing starts.
    public var now: Double {
        guard let first = firstFrameTime else { return 0 }
        guard started else { return first }
        return first + Double(TimeSpan.until(clock.microseconds, from: startedAt)) / 1_000_000 * speed
    }

    public var deviceDescriptions: [JSONValue] {
        [.object([("device", .string(deviceID)), ("name", .string(name)), ("source", "recording")])]
    }

    /// Reports the recording's anomalies and its device, then starts playing unless it waits for
    /// a subscriber.
    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        self.sink = sink
        self.loop = loop
        timer = loop.timer { [unowned self] in self.playDue() }
        for anomaly in anomalies { sink(.anomaly(anomaly)) }
        sink(.deviceAdded(id: deviceID, description: .object([("name", .string(name)), ("source", "recording")])))
        if !waitsForSubscriber { begin() }
    }

    public func subscriberArrived() { begin() }

    /// Starts playing (at start, or once a client has subscribed); only the first call does anything.
    public func begin() {
        guard !started, let timer else { return }
        started = true
        startedAt = clock.microseconds
        if firstFrameTime == nil {
            sink?(.finished)
            return
        }
        timer.schedule(after: 0)
    }

    public func stop() {
        timer?.cancel()
        timer = nil
        loop = nil
    }

    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        guard let current = pipeline else { return }
        do {
            pipeline = try replay.pipeline(afterReloadOf: current, layout: layout, tree: tree)
        } catch {
            pipeline = nil
            sink?(.problem("the replayed device \(deviceID) cannot be used with the reloaded layout; its input is ignored: \(error)"))
            sink?(.deviceRemoved(id: deviceID))
        }
    }

    private func playDue() {
        guard let first = firstFrameTime else { return }
        let now = clock.microseconds
        let elapsed = Double(TimeSpan.until(now, from: startedAt)) / 1_000_000 * speed
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
        for frame in frames { sink?(.event(.touches(frame))) }
        if next == events.count {
            if let end = events.last?.time, let frame = pipeline?.finish(at: end) { sink?(.event(.touches(frame))) }
            if pipeline != nil { sink?(.deviceRemoved(id: deviceID)) }
            pipeline = nil
            sink?(.finished)
            return
        }
        // The next event's time on the clock (one reading per batch played).
        guard let due = TimeSpan.adding((events[next].time.seconds - first - elapsed) / speed, to: now) else { return }
        timer?.schedule(atMicroseconds: due)
    }
}
