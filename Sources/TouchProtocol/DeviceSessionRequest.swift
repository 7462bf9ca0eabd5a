import TouchCore

/// The installer's sessions on a device: recording its raw events, calibrating it.
public enum DeviceSessionRequest: Hashable, Sendable, RequestFamily {
    /// Send this client a device's raw events (`raw` messages) until stopped: one device by its
    /// identity, or every touch device present (nil).
    case record(device: String?)
    /// Stop sending raw events of one device (or of every device this client records: nil).
    case stopRecording(device: String?)
    /// Start calibrating a touch device (nil: the only touch device present): its touches are held
    /// out of dispatch and sent to this client raw, for `targets` (window points; nil: five).
    case calibrate(device: String?, targets: [Point]?)
    /// Say which target a calibration sample was for.
    case calibrationPoint(sample: Int, target: Int)
    /// Fit, apply and keep the calibration, ending the session.
    case finishCalibration
    /// End the calibration session without changing anything.
    case cancelCalibration

    static let commands: [(name: String, arguments: Set<String>)] = [
        ("record", ["device"]), ("stop_recording", ["device"]), ("calibrate", ["device", "targets"]),
        ("calibration_point", ["sample", "target"]), ("finish_calibration", []), ("cancel_calibration", []),
    ]

    init(command: String, fields d: [String: JSONValue]) throws(RequestError) {
        let device = try d["device"].map { v throws(RequestError) in try RequestField.string(v, "device", maximumBytes: Limits.maximumDeviceIdentityBytes) }
        switch command {
        case "record": self = .record(device: device)
        case "stop_recording": self = .stopRecording(device: device)
        case "calibrate": self = .calibrate(device: device, targets: try d["targets"].map { v throws(RequestError) in try Self.targets(v) })
        case "calibration_point":
            self = .calibrationPoint(
                sample: try RequestField.integer(d["sample"], "sample", in: Limits.calibrationSampleNumber),
                target: try RequestField.integer(d["target"], "target", in: Limits.calibrationTargetNumber))
        case "finish_calibration": self = .finishCalibration
        default: self = .cancelCalibration
        }
    }

    public var command: String {
        switch self {
        case .record: "record"
        case .stopRecording: "stop_recording"
        case .calibrate: "calibrate"
        case .calibrationPoint: "calibration_point"
        case .finishCalibration: "finish_calibration"
        case .cancelCalibration: "cancel_calibration"
        }
    }

    /// Each takes a device from the application or changes its calibration.
    public var requiredRole: ClientRole { .control }

    /// `calibrate`'s `targets`: 3 to ``Limits/maximumCalibrationPoints`` points `[x, y]` in window
    /// coordinates.
    private static func targets(_ value: JSONValue) throws(RequestError) -> [Point] {
        let expected = "an array of 3 to \(Limits.maximumCalibrationPoints) points [x, y] (window points)"
        guard case .array(let items) = value, (3...Limits.maximumCalibrationPoints).contains(items.count) else {
            throw .badArgument("targets", expected: expected)
        }
        var points: [Point] = []
        for (i, item) in items.enumerated() {
            let n = try RequestField.numbers(item, "targets[\(i)]", in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
            points.append(Point(x: n[0], y: n[1]))
        }
        return points
    }
}
