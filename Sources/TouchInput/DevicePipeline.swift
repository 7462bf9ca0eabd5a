import TouchCore
import TouchEvdev
import TouchLayout

/// Why a device cannot be set up for input.
public struct DevicePipelineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device (its identity, or its name for a recording).
    public var device: String
    /// What is wrong, as a clause: `its axis ABS_X has minimum 5 and maximum 5: …`.
    public var problem: String

    /// An error about `device`.
    public init(device: String, problem: String) {
        self.device = device
        self.problem = problem
    }

    /// `device <device>: <problem>`.
    public var description: String { "device \(device): \(problem)" }
}

/// Any device's path from kernel events to the application's events, chosen by what the device
/// is: touches, keys or motion.
///
/// Feeding changes the pipeline in place: each mutating method takes the payload out of the
/// enum (`switch consume self`), changes it and puts it back, so the decoders' buffers are never
/// shared with a second copy, and never copied, on any event.
public enum DevicePipeline: Sendable {
    /// A touchscreen, touchpad or tablet.
    case touch(TouchDevicePipeline)
    /// A key device.
    case keys(KeyDevicePipeline)
    /// An accelerometer.
    case motion(MotionDevicePipeline)

    /// Sets a device up for the kind it was classified as (``TouchEvdev/DeviceClassification``):
    /// touch surfaces (and anything else) as touches, key devices as keys, accelerometers as
    /// motion.
    ///
    /// - Throws: ``DevicePipelineError`` when the layout entry names a window the layout does not
    ///   have, or the device cannot be mapped (see ``TouchDevicePipeline``).
    public init(
        kind: DeviceKind, deviceID: String, description: DeviceDescription, udevProperties: [String: String], spec: DeviceSpec,
        tree: ViewTree
    ) throws(DevicePipelineError) {
        if !spec.window.isEmpty && tree.windowProperties(of: ResponderID(spec.window)) == nil {
            throw DevicePipelineError(device: deviceID, problem: "its layout entry names window \"\(spec.window)\", which the layout does not have")
        }
        switch kind {
        case .keys: self = .keys(KeyDevicePipeline(deviceID: deviceID, spec: spec))
        case .accelerometer: self = .motion(try MotionDevicePipeline(deviceID: deviceID, description: description, spec: spec))
        case .touchscreen, .touchpad, .tablet, .other:
            self = .touch(try TouchDevicePipeline(deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree))
        }
    }

    /// The device's stable identity.
    public var deviceID: String {
        switch self {
        case .touch(let pipeline): pipeline.deviceID
        case .keys(let pipeline): pipeline.deviceID
        case .motion(let pipeline): pipeline.deviceID
        }
    }

    /// The same device under a reloaded layout: a touch device keeps its frame assembler (fingers
    /// down stay out until they lift, see ``TouchDevicePipeline/remapped(description:udevProperties:spec:tree:)``);
    /// key and motion devices start afresh (the old layout's presses and shakes were cancelled with it).
    /// - Throws: ``DevicePipelineError`` as ``init(kind:deviceID:description:udevProperties:spec:tree:)``.
    public func remapped(
        kind: DeviceKind, description: DeviceDescription, udevProperties: [String: String], spec: DeviceSpec, tree: ViewTree
    ) throws(DevicePipelineError) -> DevicePipeline {
        let fresh = try DevicePipeline(
            kind: kind, deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        guard case .touch(let current) = self, case .touch = fresh else { return fresh }
        return .touch(try current.remapped(description: description, udevProperties: udevProperties, spec: spec, tree: tree))
    }

    /// Feeds one kernel event; returns the events it completes.
    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] {
        switch consume self {
        case .touch(var pipeline):
            let frame = pipeline.feed(event)
            self = .touch(pipeline)
            return frame.map { [.touches($0)] } ?? []
        case .keys(var pipeline):
            let out = pipeline.feed(event)
            self = .keys(pipeline)
            return out
        case .motion(var pipeline):
            let out = pipeline.feed(event)
            self = .motion(pipeline)
            return out
        }
    }

    /// Whether the device's state can change without input (an accelerometer's shake ends when it
    /// goes quiet): then ``deadline`` says when, and events must be fed one at a time around it.
    public var hasDeadlines: Bool {
        mutating get { askMotion { _ in true } ?? false }
    }

    /// What `question` answers of a motion device's decoder; nil for a touch or key device. Looked
    /// at as the feeding methods do, the payload taken out and put back: a `switch` on a copy of
    /// the pipeline would retain and release each of its parts, on every read.
    private mutating func askMotion<Answer>(_ question: (MotionDevicePipeline) -> Answer) -> Answer? {
        switch consume self {
        case .touch(let pipeline):
            self = .touch(pipeline)
            return nil
        case .keys(let pipeline):
            self = .keys(pipeline)
            return nil
        case .motion(let pipeline):
            self = .motion(pipeline)
            return question(pipeline)
        }
    }

    /// Feeds kernel events in order; appends the events they complete to `completed`.
    public mutating func feed(_ events: [InputEvent], into completed: inout [QueuedEvent]) {
        feed(events[...], into: &completed)
    }

    /// Feeds kernel events in order; appends the events they complete to `completed`. The decoder
    /// is taken out of the enum once for them all, not once per event.
    public mutating func feed(_ events: ArraySlice<InputEvent>, into completed: inout [QueuedEvent]) {
        switch consume self {
        case .touch(var pipeline):
            for event in events {
                if let frame = pipeline.feed(event) { completed.append(.touches(frame)) }
            }
            self = .touch(pipeline)
        case .keys(var pipeline):
            for event in events { completed += pipeline.feed(event) }
            self = .keys(pipeline)
        case .motion(var pipeline):
            for event in events { completed += pipeline.feed(event) }
            self = .motion(pipeline)
        }
    }

    /// Runs one read of the device through it, in order: events, and each `SYN_DROPPED` with its
    /// sync delta (libevdev's rules, ``TouchEvdev/EventSync``); appends what they complete to
    /// `completed`. A removal's events are fed too; ``finish(at:)`` ends what is still held.
    public mutating func decode(_ read: DeviceRead, into completed: inout [QueuedEvent]) {
        for segment in read.segments {
            switch segment {
            case .events(let events):
                feed(events, into: &completed)
            case .resync(let dropped, let delta):
                completed += feed(dropped)
                completed += resync(with: delta, at: DeviceRead.resyncTime(dropped: dropped, delta: delta))
            }
        }
    }

    /// After a `SYN_DROPPED` (already fed), brings the device's state up to date from the kernel's.
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> [QueuedEvent] {
        switch consume self {
        case .touch(var pipeline):
            let frame = pipeline.resync(with: delta, at: time)
            self = .touch(pipeline)
            return frame.map { [.touches($0)] } ?? []
        case .keys(var pipeline):
            let out = pipeline.resync(with: delta, at: time)
            self = .keys(pipeline)
            return out
        case .motion(var pipeline):
            let out = pipeline.resync(with: delta, at: time)
            self = .motion(pipeline)
            return out
        }
    }

    /// Ends what the device still holds (touches, keys, a shake) as cancelled.
    public mutating func finish(at time: EventTime) -> [QueuedEvent] {
        switch consume self {
        case .touch(var pipeline):
            let frame = pipeline.finish(at: time)
            self = .touch(pipeline)
            return frame.map { [.touches($0)] } ?? []
        case .keys(var pipeline):
            let out = pipeline.finish(at: time)
            self = .keys(pipeline)
            return out
        case .motion(var pipeline):
            let out = pipeline.finish(at: time)
            self = .motion(pipeline)
            return out
        }
    }

    /// When the device's state changes without input (a shake's end), on the kernel's clock.
    public var deadline: EventTime? {
        mutating get { askMotion(\.deadline) ?? nil }
    }

    /// Ends what is due by `time` (a shake whose device went quiet).
    public mutating func advance(to time: EventTime) -> [QueuedEvent] {
        switch consume self {
        case .touch(let pipeline):
            self = .touch(pipeline)
            return []
        case .keys(let pipeline):
            self = .keys(pipeline)
            return []
        case .motion(var pipeline):
            let out = pipeline.advance(to: time)
            self = .motion(pipeline)
            return out
        }
    }

    /// The touch pipeline, for a touch device (what a calibration session fits against).
    public var touch: TouchDevicePipeline? {
        guard case .touch(let pipeline) = self else { return nil }
        return pipeline
    }

    /// A touch device mapped with another calibration matrix
    /// (``TouchDevicePipeline/recalibrated(_:)``); keys and motion as they are.
    public func recalibrated(_ matrix: CalibrationMatrix) -> DevicePipeline {
        guard case .touch(let pipeline) = self else { return self }
        return .touch(pipeline.recalibrated(matrix))
    }

    /// Holds a touch device out of dispatch, or lets it go (``TouchDevicePipeline/hold(_:)``); keys
    /// and motion are never held.
    public mutating func hold(_ held: Bool) {
        switch consume self {
        case .touch(var pipeline):
            pipeline.hold(held)
            self = .touch(pipeline)
        case let other: self = other
        }
    }

    /// The raw frames a held touch device decoded since the last call.
    public mutating func takeHeldFrames() -> [ContactFrame] {
        switch consume self {
        case .touch(var pipeline):
            let frames = pipeline.takeHeldFrames()
            self = .touch(pipeline)
            return frames
        case let other:
            self = other
            return []
        }
    }

    /// What the device's stream had that was odd, since the last call (for the logs).
    public mutating func takeAnomalies() -> [DeviceAnomaly] {
        switch consume self {
        case .touch(var pipeline):
            let anomalies = pipeline.takeAnomalies()
            self = .touch(pipeline)
            return anomalies
        case .keys(var pipeline):
            let anomalies = pipeline.takeAnomalies()
            self = .keys(pipeline)
            return anomalies
        case .motion(var pipeline):
            let anomalies = pipeline.takeAnomalies()
            self = .motion(pipeline)
            return anomalies
        }
    }
}
