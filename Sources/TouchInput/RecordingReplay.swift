import TouchCore
import TouchEvdev
import TouchLayout

/// A recording set up for replay against a layout: the recording, and its device's pipeline,
/// chosen by what the device is (touches, keys or motion) as for a live device.
public struct RecordingReplay: Sendable {
    /// The recording, as parsed.
    public let recording: Recording
    /// The recording's device, described (and classified) as a live one would be.
    public let facts: DeviceFacts
    /// Its device's pipeline, which ``run(into:anomaly:each:)`` plays the recording through.
    public let pipeline: DevicePipeline
    /// The layout entry that took the device, or `nil` when a window was given instead.
    public let match: DeviceMatch?
    /// The window the device is mapped onto regardless of the layout's entries, when one was given.
    public let window: String?

    /// Maps a loaded recording's device the way the layout maps a live one: through the first
    /// matching `[[device]]` entry, or onto `window` when one is given. A keyboard's or an
    /// accelerometer's entry may name no window (their events go to the key window).
    ///
    /// - Throws: ``DevicePipelineError`` when no entry takes the device or it cannot be set up.
    public init(recording: Recording, layout: LayoutDocument, tree: ViewTree, window: String?) throws(DevicePipelineError) {
        self.recording = recording
        self.window = window
        let facts = DeviceFacts(recording: recording)
        self.facts = facts
        let (spec, match) = try Self.spec(for: facts, in: layout, window: window, tree: tree)
        self.match = match
        pipeline = try DevicePipeline(
            kind: facts.kind, deviceID: facts.identity, description: facts.description, udevProperties: facts.udevProperties, spec: spec,
            tree: tree)
    }

    /// The `[[device]]` entry that takes the recording's device, described by `facts` (or one for
    /// `window`, which must be a window of `tree`: a window given on the command line is blamed as
    /// such, not on the layout).
    public static func spec(
        for facts: DeviceFacts, in layout: LayoutDocument, window: String?, tree: ViewTree
    ) throws(DevicePipelineError)
        -> (DeviceSpec, DeviceMatch?)
    {
        if let window {
            guard tree.kind(of: ResponderID(window)) == .window else {
                throw DevicePipelineError(
                    device: facts.name,
                    problem: "the window to map it onto (--window \(window)) is not a window of the layout; its windows: "
                        + tree.windowIDs.map(\.rawValue).joined(separator: ", "))
            }
            return (DeviceSpec(window: window), nil)
        }
        let result = DeviceMatcher.match(facts, in: layout.devices)
        guard case .matched(_, let matched) = result else {
            throw DevicePipelineError(
                device: facts.name,
                problem: "\(result.explanation) (give --window to map it onto a window anyway)")
        }
        return (matched, result)
    }

    /// `current` (this recording's pipeline, mid-play) set up for a reloaded layout: matched
    /// again (or onto the given window) and mapped into `tree`; see
    /// ``DevicePipeline/remapped(kind:description:udevProperties:spec:tree:)``.
    public func pipeline(afterReloadOf current: DevicePipeline, layout: LayoutDocument, tree: ViewTree) throws(DevicePipelineError) -> DevicePipeline {
        let (spec, _) = try Self.spec(for: facts, in: layout, window: window, tree: tree)
        return try current.remapped(kind: facts.kind, description: facts.description, udevProperties: facts.udevProperties, spec: spec, tree: tree)
    }

    /// A playback of the recording from its start, through a fresh copy of its pipeline.
    public var playback: RecordingPlayback { RecordingPlayback(events: recording.events, pipeline: pipeline) }

    /// Runs the whole recording through `app`, with the recording's timestamps as the clock, and
    /// hands every dispatch report, in order, to `each` (the last reports cancel the touches and
    /// keys still down at the end). Input time advances event by event (``Application/send(_:)``):
    /// moves reach the application at their windows' display ticks, as in the daemon.
    ///
    /// Everything odd on the way goes to `anomaly`, one line each, in order: the stream's own
    /// faults (see ``streamAnomalies(_:)``), the device anomalies the pipeline worked around, and
    /// those the application met while dispatching.
    public func run(into app: inout Application, anomaly: (String) -> Void = { _ in }, each: (DispatchReport) -> Void) {
        for line in Self.streamAnomalies(recording.events) { anomaly(line) }
        var playback = self.playback
        func dispatch(_ events: [QueuedEvent], _ app: inout Application) {
            for found in playback.takeAnomalies() { anomaly("\(found)") }
            for event in events {
                for report in app.send(event) {
                    for line in report.anomalies { anomaly(line) }
                    each(report)
                }
            }
        }
        while let due = playback.nextDue { dispatch(playback.play(through: due), &app) }
        dispatch(playback.finish(), &app)
        // Moves still waiting for a display tick, then recognizer timers still pending, each at
        // its own time (a last tap's multi-tap window).
        for report in app.dispatchDue(by: .distantFuture) {
            for line in report.anomalies { anomaly(line) }
            each(report)
        }
        if let report = app.flushTimers() {
            for line in report.anomalies { anomaly(line) }
            each(report)
        }
    }

    /// Faults of the event stream itself, which the pipeline copes with but a user should hear of:
    /// time going backwards (the first place, and how often), and a stream that ends inside a frame
    /// (the events after the last `SYN_REPORT` are never reported).
    public static func streamAnomalies(_ events: [InputEvent]) -> [String] {
        var lines: [String] = []
        var backwards = 0
        var firstBackwards: (index: Int, from: EventTime, to: EventTime)?
        for i in events.indices.dropFirst() where events[i].time < events[i - 1].time {
            backwards += 1
            if firstBackwards == nil { firstBackwards = (i, events[i - 1].time, events[i].time) }
        }
        if let first = firstBackwards {
            lines.append(
                "\(first.to) [recording] time goes backwards at event \(first.index + 1) (from \(first.from) to \(first.to))"
                    + (backwards > 1 ? ", and \(backwards - 1) more time\(backwards > 2 ? "s" : "")" : "")
                    + "; frames are dispatched in file order")
        }
        if let lastReport = events.lastIndex(where: { $0.type == EventType.syn && $0.code == SynCode.report }) {
            let trailing = events.count - 1 - lastReport
            if trailing > 0 {
                lines.append("\(events[events.count - 1].time) [recording] the recording ends mid-frame: \(trailing) event\(trailing == 1 ? "" : "s") after the last SYN_REPORT were never reported")
            }
        } else if !events.isEmpty {
            lines.append("\(events[events.count - 1].time) [recording] the recording has no SYN_REPORT at all: none of its \(events.count) events form a frame")
        }
        return lines
    }
}
