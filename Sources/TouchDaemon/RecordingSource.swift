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
    private let speed: Double
    private let clock: any TimeSource
    /// Whether playing waits for the first client to subscribe.
    private let waitsForSubscriber: Bool
    /// What the source has while started: the timer that plays the events due, and where they go.
    private struct Running {
        let timer: TimerHandle
        let sink: (InputSourceEvent) -> Void
    }

    /// Nil before ``start(on:sink:)`` and after ``stop()``.
    private var running: Running?
    /// When playing started, in microseconds on `clock`.
    private var startedAt = LoopInstant.origin
    private var started = false
    /// Whether the recording's device is present: from ``start(on:sink:)`` until the recording
    /// ends or a reloaded layout no longer takes it.
    private var isPresent = false
    /// What was odd in the recording (its stream, and what the pipeline worked around), found while
    /// decoding it once up front: reported as the source starts.
    public let anomalies: [String]
    /// Whether the events played are reported raw too (a recording session).
    var isRecorded = false
    /// Whether the device is held out of dispatch (a calibration session).
    var isHeld = false
    /// The `calibration_file` of the layout entry that takes the recording's device.
    var calibrationFile: String?

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
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.clock = clock
        self.waitsForSubscriber = waitsForSubscriber
        if case .matched(_, let spec)? = replay.match { calibrationFile = spec.calibrationFile }
    }

    /// The recording's timeline: its first event's time plus the (scaled) time played so far; the
    /// first event's time before playing starts.
    public var now: InputTime {
        guard let first = firstTime else { return 0 }
        guard started else { return first.inputTime }
        return first.inputTime + played(by: clock.now)
    }

    /// The recording's time played by `now` on the loop's clock (scaled by the speed).
    private func played(by now: LoopInstant) -> TimeSpan { now.span(since: startedAt) * speed }

    /// The replay's speed: recording seconds per second of the loop's clock.
    public var timeScale: Double { speed }

    /// The recording's device while it is present; nothing once it has ended.
    public var deviceDescriptions: [DeviceListing] { isPresent ? [replay.listing] : [] }

    public var presentDevices: [(id: String, description: DeviceListing)] { isPresent ? [(deviceID, replay.listing)] : [] }

    /// Reports the recording's anomalies and its device, then starts playing unless it waits for
    /// a subscriber.
    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        running = Running(timer: loop.timer { [unowned self] in self.playDue() }, sink: sink)
        for anomaly in anomalies { sink(.anomaly(anomaly)) }
        isPresent = true
        sink(.deviceAdded(id: deviceID, description: replay.listing))
        if !waitsForSubscriber { begin() }
    }

    public func subscriberArrived() { begin() }

    /// Starts playing (at start, or once a client has subscribed); only the first call does anything.
    public func begin() {
        guard !started, let timer = running?.timer else { return }
        started = true
        startedAt = clock.now
        if firstTime == nil {
            emit(.finished)
            return
        }
        timer.schedule(after: 0)
    }

    public func stop() {
        running?.timer.cancel()
        running = nil
    }

    /// Hands `event` to the daemon (while started).
    private func emit(_ event: InputSourceEvent) { running?.sink(event) }

    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        guard let current = playback.pipeline else { return }
        do {
            playback.pipeline = try replay.pipeline(afterReloadOf: current, layout: layout, tree: tree)
            calibrationFile = (try? RecordingReplay.spec(for: replay.facts, in: layout, window: replay.window, tree: tree))?.0.calibrationFile
        } catch {
            playback.pipeline = nil
            isPresent = false
            emit(.problem("the replayed device \(deviceID) cannot be used with the reloaded layout; its input is ignored: \(error)"))
            emit(.deviceRemoved(id: deviceID))
        }
    }

    /// The most events played in one turn of the loop: a replay the daemon cannot keep up with
    /// (a slow machine, a fast speed) plays the rest in the next turns, after what else is ready
    /// (a signal, a client), as a live device's reads are bounded.
    static let maximumEventsPerTurn = 512

    private func playDue() {
        guard let first = firstTime else { return }
        let now = clock.now
        let elapsed = played(by: now)
        let start = playback.next
        let completed = playback.play(through: first.advanced(by: elapsed), maximumEvents: Self.maximumEventsPerTurn)
        if isRecorded && playback.next > start { emit(.raw(device: deviceID, events: Array(playback.events[start..<playback.next]))) }
        for event in completed { emit(.event(event)) }
        if isHeld { reportHeldFrames() }
        _ = playback.takeAnomalies()  // reported once, up front
        guard let due = playback.nextDue else {
            let used = playback.pipeline != nil
            for event in playback.finish() { emit(.event(event)) }
            playback.pipeline = nil
            isPresent = false
            if used { emit(.deviceRemoved(id: deviceID)) }
            emit(.finished)
            return
        }
        // The next thing due on the clock (one reading per batch played); what is overdue, at the
        // next turn, after the descriptors ready meanwhile (not again in this run of the timers).
        guard let at = now.advanced(by: (due.span(since: first) - elapsed) / speed) else { return }
        running?.timer.schedule(at: max(at, LoopInstant(microseconds: now.microseconds &+ 1)))
    }
}

/// The replayed device for the installer's sessions: its events raw for a recording, held out of
/// dispatch for a calibration, and a calibration applied at once.
extension RecordingSource: SessionDeviceSource {
    public var sessionDevices: [SessionDevice] {
        guard isPresent, let pipeline = playback.pipeline else { return [] }
        return [SessionDevice(id: deviceID, facts: replay.facts, touch: pipeline.touch, calibrationFile: calibrationFile)]
    }

    public func setRecording(_ device: String, _ recording: Bool) {
        if device == deviceID { isRecorded = recording }
    }

    public func setHeld(_ device: String, _ held: Bool) {
        guard device == deviceID else { return }
        isHeld = held
        playback.pipeline?.hold(held)
        reportHeldFrames()
    }

    public func applyCalibration(_ matrix: CalibrationMatrix, toEntryOf device: String) -> [String] {
        guard device == deviceID, let pipeline = playback.pipeline else { return [] }
        playback.pipeline = pipeline.recalibrated(matrix)
        return [deviceID]
    }

    /// Passes on what the held device decoded, raw.
    private func reportHeldFrames() {
        guard let frames = playback.pipeline?.takeHeldFrames(), !frames.isEmpty else { return }
        emit(.heldFrames(device: deviceID, frames: frames))
    }
}
