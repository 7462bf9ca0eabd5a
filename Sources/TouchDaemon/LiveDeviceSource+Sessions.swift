import TouchCore
import TouchEvdev
import TouchInput

/// The live devices for the installer's sessions: raw reads for a recording, a touch device held
/// out of dispatch for a calibration, and a calibration applied at once.
extension LiveDeviceSource: SessionDeviceSource {
    public var sessionDevices: [SessionDevice] {
        openInOrder.map { entry in
            let file: String? = if case .matched(_, let spec) = entry.match { spec.calibrationFile } else { nil }
            return SessionDevice(id: entry.pipeline.deviceID, facts: entry.facts, touch: entry.pipeline.touch, calibrationFile: file)
        }
    }

    public func setRecording(_ device: String, _ recording: Bool) {
        if recording { recorded.insert(device) } else { recorded.remove(device) }
    }

    public func setHeld(_ device: String, _ held: Bool) {
        guard let entry = entry(of: device) else { return }
        if held { self.held.insert(device) } else { self.held.remove(device) }
        entry.pipeline.hold(held)
        reportHeldFrames(of: entry)
    }

    public func applyCalibration(_ matrix: CalibrationMatrix, toEntryOf device: String) -> [String] {
        guard let entry = entry(of: device), case .matched(let index, _) = entry.match, devices.indices.contains(index) else { return [] }
        // Kept in the layout the source matches devices with: a device of this entry plugged in
        // later is mapped with it too.
        devices[index].calibrationFileMatrix = matrix
        let spec = devices[index]
        var changed: [String] = []
        for other in openInOrder {
            guard case .matched(index, _) = other.match else { continue }
            other.pipeline = other.pipeline.recalibrated(matrix)
            other.match = .matched(index: index, spec: spec)
            changed.append(other.pipeline.deviceID)
        }
        return changed
    }

    /// The open device with this identity.
    private func entry(of device: String) -> OpenDevice? {
        open.values.first { $0.pipeline.deviceID == device }
    }

    /// Passes on what a held device decoded, raw.
    func reportHeldFrames(of entry: OpenDevice) {
        let frames = entry.pipeline.takeHeldFrames()
        if !frames.isEmpty { emit(.heldFrames(device: entry.pipeline.deviceID, frames: frames)) }
    }
}
