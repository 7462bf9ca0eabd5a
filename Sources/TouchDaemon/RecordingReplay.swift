import TouchCore
import TouchEvdev
import TouchLayout
import TouchProtocol

/// A recording set up for replay against a layout: the recording, and its device's pipeline.
public struct RecordingReplay: Sendable {
    public let recording: Recording
    public private(set) var pipeline: DeviceInputPipeline
    /// The layout entry that took the device, or `nil` when a window was given instead.
    public let match: DeviceMatch?

    /// Loads `path` (and its description) and maps its device the way the layout maps a live one:
    /// through the first matching `[[device]]` entry, or onto `window` when one is given.
    ///
    /// - Throws: ``RecordingError`` (with the file and line) for a bad recording, or
    ///   ``DevicePipelineError`` when no entry takes the device or it cannot be mapped.
    public init(path: String, descriptionPath: String?, layout: LayoutDocument, tree: ViewTree, window: String?) throws {
        recording = try Recording.load(path: path, descriptionPath: descriptionPath)
        let id = "replay:" + recording.description.name
        let spec: DeviceSpec
        if let window {
            spec = DeviceSpec(window: window)
            match = nil
        } else {
            let facts = DeviceFacts(description: recording.description, udevProperties: recording.udevProperties, devnode: nil)
            let result = DeviceMatcher.match(facts, in: layout.devices)
            guard case .matched(_, let matched) = result else {
                throw DevicePipelineError(
                    device: recording.description.name,
                    problem: "\(result.explanation) (give --window to map it onto a window anyway)")
            }
            spec = matched
            match = result
        }
        pipeline = try DeviceInputPipeline(
            deviceID: id, description: recording.description, udevProperties: recording.udevProperties, spec: spec, tree: tree)
    }

    /// Runs the whole recording through `app`, with the recording's timestamps as the clock, and
    /// hands every dispatch report, in order, to `each` with the tree as it was then (the last
    /// report cancels the touches still down at the end).
    public mutating func run(into app: inout Application, each: (DispatchReport, ViewTree) -> Void) {
        for event in recording.events {
            if let frame = pipeline.feed(event) {
                for report in app.send(frame) { each(report, app.tree) }
            }
        }
        let end = recording.events.last?.time ?? EventTime(microseconds: 0)
        if let frame = pipeline.finish(at: end) {
            for report in app.send(frame) { each(report, app.tree) }
        }
        // Recognizer timers still pending fire at their own times (a last tap's multi-tap window).
        if let report = app.flushTimers() { each(report, app.tree) }
    }
}

/// Numbers messages as one subscriber would receive them.
public struct SubscriberView: Sendable {
    public var subscription: Subscription
    public private(set) var nextSeq: UInt64 = 1

    public init(topics: Set<Topic>, views: [String]? = nil, actions: Set<String>? = nil) {
        subscription = Subscription(id: 1, topics: topics, views: views, actions: actions)
    }

    /// The lines this subscriber gets for `report`.
    public mutating func lines(for report: DispatchReport, tree: ViewTree) -> [String] {
        var out: [String] = []
        for message in MessageEncoder.messages(for: report, tree: tree) where subscription.matches(message) {
            out.append(message.line(seq: nextSeq))
            nextSeq += 1
        }
        return out
    }
}
