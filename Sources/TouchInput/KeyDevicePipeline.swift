import TouchCore
import TouchEvdev
import TouchLayout

/// A key device's path from kernel events to the application's events: ``KeyDecoder`` → presses,
/// or remote-control commands for the media keys (``remoteControlKeys``). Pure.
public struct KeyInputPipeline: Sendable {
    public let deviceID: String
    /// The window whose first responder gets the events; `nil`: the key window.
    public let window: ResponderID?
    public private(set) var decoder = KeyDecoder()

    /// The media keys and what they command, by kernel key name. A key with two commands sends the
    /// first when it goes down and the second when it goes up (seeking); the others only on down.
    /// These keys give remote-control events and no presses.
    public static let remoteControlKeys: [String: (down: RemoteControlSubtype, up: RemoteControlSubtype?)] = [
        "KEY_PLAYPAUSE": (.togglePlayPause, nil), "KEY_PLAYCD": (.play, nil), "KEY_PLAY": (.play, nil),
        "KEY_PAUSECD": (.pause, nil), "KEY_STOPCD": (.stop, nil), "KEY_NEXTSONG": (.nextTrack, nil),
        "KEY_PREVIOUSSONG": (.previousTrack, nil), "KEY_FASTFORWARD": (.beginSeekingForward, .endSeekingForward),
        "KEY_REWIND": (.beginSeekingBackward, .endSeekingBackward), "KEY_VOLUMEUP": (.volumeUp, nil),
        "KEY_VOLUMEDOWN": (.volumeDown, nil), "KEY_MUTE": (.mute, nil),
    ]

    public init(deviceID: String, spec: DeviceSpec) {
        self.deviceID = deviceID
        self.window = spec.window.isEmpty ? nil : ResponderID(spec.window)
    }

    /// Feeds one kernel event; at a `SYN_REPORT` returns its presses and commands, in key order.
    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] {
        decoder.feed(event).map { events(for: $0, ending: .ended) } ?? []
    }

    /// Brings the keys up to date after lost events (libevdev's sync delta).
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> [QueuedEvent] {
        decoder.resync(with: delta, at: time).map { events(for: $0, ending: .ended) } ?? []
    }

    /// Cancels the keys still down (the device went away).
    public mutating func finish(at time: EventTime) -> [QueuedEvent] {
        decoder.finish(at: time).map { events(for: $0, ending: .cancelled) } ?? []
    }

    func events(for frame: KeyFrame, ending: PressPhase) -> [QueuedEvent] {
        var out: [QueuedEvent] = []
        var changes: [KeyChange] = []
        let time = frame.time.seconds
        func flush() {
            guard !changes.isEmpty else { return }
            out.append(.presses(PressInput(device: deviceID, window: window, timestamp: time, changes: changes)))
            changes = []
        }
        for transition in frame.transitions {
            if let command = Self.remoteControlKeys[transition.name] {
                guard let subtype = transition.isDown ? command.down : command.up else { continue }
                flush()
                out.append(.remoteControl(RemoteControlInput(device: deviceID, window: window, timestamp: time, subtype: subtype, keyName: transition.name)))
            } else {
                changes.append(KeyChange(keyCode: transition.code, keyName: transition.name, phase: transition.isDown ? .began : ending))
            }
        }
        flush()
        return out
    }
}

/// An accelerometer's path from kernel events to motion events: ``AccelerometerDecoder`` and its
/// ``ShakeDetector``. Pure.
public struct MotionInputPipeline: Sendable {
    public let deviceID: String
    public let window: ResponderID?
    public private(set) var decoder: AccelerometerDecoder

    /// - Throws: ``DevicePipelineError`` when the device has no `ABS_X` and `ABS_Y`.
    public init(deviceID: String, description: DeviceDescription, spec: DeviceSpec) throws(DevicePipelineError) {
        guard let decoder = AccelerometerDecoder(description: description, settings: spec.shake) else {
            throw DevicePipelineError(device: deviceID, problem: "it has no ABS_X and ABS_Y axes to read acceleration from")
        }
        self.deviceID = deviceID
        self.window = spec.window.isEmpty ? nil : ResponderID(spec.window)
        self.decoder = decoder
    }

    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] { decoder.feed(event).map(motion) }

    /// When the shake in progress ends if the device stays quiet (on the kernel's clock).
    public var deadline: EventTime? { decoder.deadline }

    /// Ends the shake in progress once `time` (the kernel's clock) reaches its deadline.
    public mutating func advance(to time: EventTime) -> [QueuedEvent] { decoder.advance(to: time).map { [motion($0)] } ?? [] }

    public mutating func resync(with delta: [InputEvent]) { decoder.resync(with: delta) }

    public mutating func finish(at time: EventTime) -> [QueuedEvent] { decoder.finish(at: time).map { [motion($0)] } ?? [] }

    func motion(_ transition: ShakeTransition) -> QueuedEvent {
        let (time, phase): (EventTime, MotionPhase) =
            switch transition {
            case .began(let t): (t, .began)
            case .ended(let t): (t, .ended)
            case .cancelled(let t): (t, .cancelled)
            }
        return .motion(MotionInput(device: deviceID, window: window, timestamp: time.seconds, subtype: .shake, phase: phase))
    }
}

/// Any device's decoding, chosen by what the device is: touches, keys or motion.
///
/// Exactly one of the three pipelines is set. They are stored side by side (not as an enum's
/// payloads) so that feeding mutates the pipeline in place instead of copying its state per event.
public struct DeviceInputDecoder: Sendable {
    public private(set) var touch: DeviceInputPipeline?
    public private(set) var keys: KeyInputPipeline?
    public private(set) var motion: MotionInputPipeline?
    public let deviceID: String

    /// Sets a device up for the kind it was matched as.
    public init(
        kind: DeviceFacts.Kind, deviceID: String, description: DeviceDescription, udevProperties: [String: String], spec: DeviceSpec,
        tree: ViewTree
    ) throws(DevicePipelineError) {
        if !spec.window.isEmpty && tree.windowProperties(of: ResponderID(spec.window)) == nil {
            throw DevicePipelineError(device: deviceID, problem: "its layout entry names window \"\(spec.window)\", which the layout does not have")
        }
        self.deviceID = deviceID
        switch kind {
        case .keys: keys = KeyInputPipeline(deviceID: deviceID, spec: spec)
        case .accelerometer: motion = try MotionInputPipeline(deviceID: deviceID, description: description, spec: spec)
        case .touchscreen, .touchpad, .other:
            touch = try DeviceInputPipeline(deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        }
    }

    /// The same device under a reloaded layout: a touch device keeps its frame assembler (fingers
    /// down stay out until they lift, see ``DeviceInputPipeline/remapped(description:udevProperties:spec:tree:)``);
    /// key and motion devices start afresh (the old layout's presses and shakes were cancelled with it).
    /// - Throws: ``DevicePipelineError`` as ``init(kind:deviceID:description:udevProperties:spec:tree:)``.
    public func remapped(
        kind: DeviceFacts.Kind, description: DeviceDescription, udevProperties: [String: String], spec: DeviceSpec, tree: ViewTree
    ) throws(DevicePipelineError) -> DeviceInputDecoder {
        var fresh = try DeviceInputDecoder(
            kind: kind, deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        if let touch, fresh.touch != nil {
            fresh.touch = try touch.remapped(description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        }
        return fresh
    }

    /// Feeds one kernel event; returns the events it completes.
    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] {
        if touch != nil { return touch!.feed(event).map { [.touches($0)] } ?? [] }
        if keys != nil { return keys!.feed(event) }
        return motion?.feed(event) ?? []
    }

    /// Feeds kernel events in order; appends the events they complete to `completed`.
    public mutating func feed(_ events: [InputEvent], into completed: inout [QueuedEvent]) {
        if touch != nil {
            for event in events {
                if let frame = touch!.feed(event) { completed.append(.touches(frame)) }
            }
            return
        }
        for event in events { completed += feed(event) }
    }

    /// After a `SYN_DROPPED` (already fed), brings the device's state up to date from the kernel's.
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> [QueuedEvent] {
        if touch != nil { return touch!.resync(with: delta, at: time).map { [.touches($0)] } ?? [] }
        if keys != nil { return keys!.resync(with: delta, at: time) }
        motion?.resync(with: delta)
        return []
    }

    /// Ends what the device still holds (touches, keys, a shake) as cancelled.
    public mutating func finish(at time: EventTime) -> [QueuedEvent] {
        if touch != nil { return touch!.finish(at: time).map { [.touches($0)] } ?? [] }
        if keys != nil { return keys!.finish(at: time) }
        return motion?.finish(at: time) ?? []
    }

    /// When the device's state changes without input (a shake's end), on the kernel's clock.
    public var deadline: EventTime? { motion?.deadline }

    /// Ends what is due by `time` (a shake whose device went quiet).
    public mutating func advance(to time: EventTime) -> [QueuedEvent] { motion?.advance(to: time) ?? [] }

    /// Touch anomalies since the last call (keys and motion have none to report).
    public mutating func takeAnomalies() -> [DeviceAnomaly] { touch?.takeAnomalies() ?? [] }
}
