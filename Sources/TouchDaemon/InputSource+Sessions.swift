import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

/// A device in use as the installer's sessions (recording, calibration) see it: its description,
/// and what its source made of it.
public struct SessionDevice: Sendable {
    /// Its identity in use (what messages and requests name it by): its description's, numbered
    /// when an identical device was present first.
    public let id: String
    /// The device (its description's evemu text for a recording, its kind).
    public let facts: DeviceFacts
    /// Its touch pipeline as it is now (nil for key devices and accelerometers).
    public let touch: TouchDevicePipeline?
    /// The `calibration_file` of the layout entry that took it, if it names one.
    public let calibrationFile: String?

    public init(id: String, facts: DeviceFacts, touch: TouchDevicePipeline?, calibrationFile: String?) {
        self.id = id
        self.facts = facts
        self.touch = touch
        self.calibrationFile = calibrationFile
    }
}

/// What an input source lets the installer's sessions do with its devices. A source that has none
/// (the default) lists none and ignores the rest.
public protocol SessionDeviceSource {
    /// The devices present that a session may take, in a stable order.
    var sessionDevices: [SessionDevice] { get }
    /// Whether the device's reads are reported raw (``InputSourceEvent/raw(device:events:)``) as
    /// well as decoded.
    func setRecording(_ device: String, _ recording: Bool)
    /// Holds a touch device out of dispatch (its frames are reported raw, as
    /// ``InputSourceEvent/heldFrames(device:frames:)``), or lets it go; contacts down when it is let
    /// go stay out until they lift.
    func setHeld(_ device: String, _ held: Bool)
    /// Applies `matrix` as the calibration of the layout entry that took `device` (until the next
    /// reload, which reads the entry's `calibration_file` again): every open device that entry takes
    /// is mapped with it from its next event on. Returns those devices.
    func applyCalibration(_ matrix: CalibrationMatrix, toEntryOf device: String) -> [String]
}

extension InputSources {
    /// Every source's session devices.
    public var sessionDevices: [SessionDevice] {
        sources.flatMap { ($0 as? SessionDeviceSource)?.sessionDevices ?? [] }
    }

    /// The source that has `device`.
    private func source(of device: String) -> SessionDeviceSource? {
        sources.lazy.compactMap { $0 as? SessionDeviceSource }.first { $0.sessionDevices.contains { $0.id == device } }
    }

    /// ``SessionDeviceSource/setRecording(_:_:)`` on the source that has `device`.
    public func setRecording(_ device: String, _ recording: Bool) { source(of: device)?.setRecording(device, recording) }

    /// ``SessionDeviceSource/setHeld(_:_:)`` on the source that has `device`.
    public func setHeld(_ device: String, _ held: Bool) { source(of: device)?.setHeld(device, held) }

    /// ``SessionDeviceSource/applyCalibration(_:toEntryOf:)`` on the source that has `device`.
    public func applyCalibration(_ matrix: CalibrationMatrix, toEntryOf device: String) -> [String] {
        source(of: device)?.applyCalibration(matrix, toEntryOf: device) ?? []
    }
}
