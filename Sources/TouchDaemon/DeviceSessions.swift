import TouchInput

/// The installer's sessions on devices: which clients record which devices, and the calibration
/// each client runs (at most one a client, and one a device).
struct DeviceSessions {
    /// A client's calibration of one device.
    struct Calibration {
        let client: SocketServer.ClientHandle
        var session: CalibrationSession
        /// The `calibration_file` of the device's layout entry, where the result is kept.
        let file: String?
    }

    /// The devices each client records, by the client's handle.
    private(set) var recordings: [SocketServer.ClientHandle: Set<String>] = [:]
    /// The calibrations, by device.
    var calibrations: [String: Calibration] = [:]
    /// Why a client's calibration ended without its asking (its device went away, a reload), until
    /// it starts another or leaves: so that its next request says so.
    var endedCalibrations: [SocketServer.ClientHandle: (device: String, reason: String)] = [:]

    /// The clients recording `device`.
    func recorders(of device: String) -> [SocketServer.ClientHandle] {
        recordings.filter { $0.value.contains(device) }.map(\.key).sorted { $0.serial < $1.serial }
    }

    /// Whether anyone records `device`.
    func isRecorded(_ device: String) -> Bool { recordings.values.contains { $0.contains(device) } }

    /// `client` records `device` too.
    mutating func record(_ device: String, by client: SocketServer.ClientHandle) {
        recordings[client, default: []].insert(device)
    }

    /// `client` stops recording `device` (every device: nil); returns the devices it stopped.
    mutating func stopRecording(_ device: String?, by client: SocketServer.ClientHandle) -> [String] {
        guard let devices = recordings[client] else { return [] }
        let stopped = device.map { devices.contains($0) ? [$0] : [] } ?? devices.sorted()
        let rest = devices.subtracting(stopped)
        recordings[client] = rest.isEmpty ? nil : rest
        return stopped
    }

    /// Nobody records `device` any more (it went away); returns who did.
    mutating func endRecordings(of device: String) -> [SocketServer.ClientHandle] {
        let clients = recorders(of: device)
        for client in clients { _ = stopRecording(device, by: client) }
        return clients
    }

    /// The device `client` calibrates, if any.
    func calibratedDevice(of client: SocketServer.ClientHandle) -> String? {
        calibrations.first { $0.value.client == client }?.key
    }
}
