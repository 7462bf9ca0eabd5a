import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol
import TouchSystem

/// Plays a recording into the daemon in real time, as if its device were plugged in: its events go
/// through the same ``DevicePipeline`` as a live device's (touches, keys or motion, by what the
/// device is), stepped by the same ``RecordingPlayback`` as `touchd replay`, paced by the
/// recording's own timestamps (optionally faster) with a timer on the event loop. A reload
/// re-matches and re-maps the device from the next event on, as for a live one.
public final class RecordingSource: InputSource {
    private let replay: RecordingReplay
    /// The events still to play, and the pipeline they go through (none once a reloaded layout no
    /// longer takes the device).
    private var playback: RecordingPlayback
    /// When the recording's first event that completes anything happened: its clock starts there.
    private let firstTime: EventTime?
    private let deviceID: String
    private let name: String
    private let speed: Double
    private let clock: any TimeSource
    /// Whether playing waits for the first client to subscribe.
    private let waitsForSubscriber: Bool
    private var loop: EventLoop?
    private var timer: TimerHandle?
    private var sink: ((InputSourceEvent) -> Void)?
    /// When playing started, in microseconds on `clock`.
    private var startedAt: Int64 = 0
    private var started = false
    /// What was odd in the recording (its stream, and what the pipeline worked around), found while
    /// decoding it once up front: reported as the source starts.
    public let anomalies: [String]

    /// Decodes the whole recording once up front (decoding is deterministic) for its anomalies and
    /// the time of its first event; playing feeds the events again, in time, paced on `clock` (the
    /// loop's).
    ///
    /// - Parameters:
    ///   - speed: how many times faster than recorded it plays; anything but a positive finite
    ///     number plays in real time (``RunCommand`` refuses such a speed before).
    ///   - waitsForSubscriber: start playing when the first client subscribes, not at ``start(on:sink:)``.
    public init(replay: RecordingReplay, speed: Double = 1, clock: any TimeSource, waitsForSubscriber: Bool = false) {
        var probe = replay.playback
        var first: EventTime?
        var found = RecordingReplay.streamAnomalies(replay.recording.events)
        while let due = probe.nextDue {
            if !probe.play(through: due).isEmpty && first == nil { first = due }
            found += probe.takeAnomalies().map { "\($0)" }
        }
        if !probe.finish().isEmpty && first == nil { first = replay.recording.events.last?.time }
        found += probe.takeAnomalies().map { "\($0)" }
        self.replay = replay
        playback = replay.playback
        firstTime = first
        anomalies = found
        deviceID = replay.pipeline.deviceID
        name = replay.recording.description.name
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.clock = clock
        self.waitsForSubscriber = waitsForSubscriber
    }

    /// The recording's timeline: its first event's time plus the (scaled) time played so far; the
    /// first event's time before playing starts.
    public var now: Double {
        guard let first = firstTime else { return 0 }
        guard started else { return first.seconds }
        return first.seconds + elapsedSeconds
    }

    /// The recording's time played so far, in seconds (scaled by the speed).
    private var elapsedSeconds: Double { Double(TimeSpan.until(clock.microseconds, from: startedAt)) / 1_000_000 * speed }

    /// The replay's speed: recording seconds per second of the loop's clock.
    public var timeScale: Double { speed }

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
        if firstTime == nil {
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
        guard let current = playback.pipeline else { return }
        do {
            playback.pipeline = try replay.pipeline(afterReloadOf: current, layout: layout, tree: tree)
        } catch {
            playback.pipeline = nil
            sink?(.problem("the replayed device \(deviceID) cannot be used with the reloaded layout; its input is ignored: \(error)"))
            sink?(.deviceRemoved(id: deviceID))
        }
    }

    private func playDue() {
        guard let first = firstTime else { return }
        let now = clock.microseconds
        let elapsed = Double(TimeSpan.until(now, from: startedAt)) / 1_000_000 * speed
        let played = TimeSpan.microseconds(elapsed) ?? TimeSpan.longest
        let (through, overflow) = first.microseconds.addingReportingOverflow(played)
        for event in playback.play(through: EventTime(microseconds: overflow ? Int64.max : through)) { sink?(.event(event)) }
        _ = playback.takeAnomalies()  // reported once, up front
        guard let due = playback.nextDue else {
            let used = playback.pipeline != nil
            for event in playback.finish() { sink?(.event(event)) }
            if used { sink?(.deviceRemoved(id: deviceID)) }
            playback.pipeline = nil
            sink?(.finished)
            return
        }
        // The next thing due on the clock (one reading per batch played).
        guard let at = TimeSpan.adding((due.seconds - first.seconds - elapsed) / speed, to: now) else { return }
        timer?.schedule(atMicroseconds: at)
    }
}
