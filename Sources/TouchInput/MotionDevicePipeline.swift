import TouchCore
import TouchEvdev
import TouchLayout

/// An accelerometer's path from kernel events to motion events: ``TouchEvdev/AccelerometerDecoder``
/// and its ``TouchEvdev/ShakeDetector``. Pure.
public struct MotionDevicePipeline: Sendable {
    /// The device's stable identity.
    public let deviceID: String
    /// The window whose first responder gets the events; `nil`: the key window.
    public let window: ResponderID?
    /// The decoder, with its shake detector.
    public private(set) var decoder: AccelerometerDecoder

    /// A pipeline for a device its layout entry `spec` took.
    /// - Throws: ``DevicePipelineError`` when the device has no `ABS_X` and `ABS_Y`.
    public init(deviceID: String, description: DeviceDescription, spec: DeviceSpec) throws(DevicePipelineError) {
        guard let decoder = AccelerometerDecoder(description: description, settings: spec.shake) else {
            throw DevicePipelineError(device: deviceID, problem: "it has no ABS_X and ABS_Y axes to read acceleration from")
        }
        self.deviceID = deviceID
        self.window = spec.window.isEmpty ? nil : ResponderID(spec.window)
        self.decoder = decoder
    }

    /// Feeds one kernel event; at a `SYN_REPORT` returns the motion events it decides.
    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] { decoder.feed(event).map(events(for:)) ?? [] }

    /// When the shake in progress ends if the device stays quiet (on the kernel's clock).
    public var deadline: EventTime? { decoder.deadline }

    /// Ends the shake in progress once `time` (the kernel's clock) reaches its deadline.
    public mutating func advance(to time: EventTime) -> [QueuedEvent] { decoder.advance(to: time).map { [motion($0)] } ?? [] }

    /// Takes the kernel's current values after lost events (libevdev's sync delta) as a sample.
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> [QueuedEvent] {
        decoder.resync(with: delta, at: time).map(events(for:)) ?? []
    }

    /// Cancels the shake in progress (the device went away).
    public mutating func finish(at time: EventTime) -> [QueuedEvent] { decoder.finish(at: time).map(events(for:)) ?? [] }

    /// Anomalies the device produced since the last call (for the logs).
    public mutating func takeAnomalies() -> [DeviceAnomaly] { decoder.takeAnomalies() }

    func events(for frame: ShakeFrame) -> [QueuedEvent] { frame.transitions.map(motion) }

    func motion(_ transition: ShakeTransition) -> QueuedEvent {
        let (time, phase): (EventTime, MotionPhase) =
            switch transition {
            case .began(let t): (t, .began)
            case .ended(let t): (t, .ended)
            case .cancelled(let t): (t, .cancelled)
            }
        return .motion(MotionInput(device: deviceID, window: window, timestamp: time.inputTime, subtype: .shake, phase: phase))
    }
}
