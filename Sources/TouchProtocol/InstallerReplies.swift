import TouchCore
import TouchEvdev

/// The replies to the recording requests (`record`, `stop_recording`). See `docs/protocol.md`.
public enum RecordingReply {
    /// A device a `record` request began recording.
    public struct Device: Hashable, Sendable {
        /// Its identity, as `devices` lists it.
        public var id: String
        /// The device: its name, and its description as evemu text (what a recording file begins
        /// with), are replied.
        public var facts: DeviceFacts

        /// A device now recorded under identity `id`.
        public init(id: String, facts: DeviceFacts) {
            self.id = id
            self.facts = facts
        }
    }

    /// `record`'s: each device now recorded, with its description as evemu text.
    public static func started(_ devices: [Device]) -> JSONValue {
        let items: [JSONValue] = devices.map { device in
            .object([
                ("device", .string(device.id)), ("name", .string(device.facts.name)),
                ("evemu", .string(EvemuWriter.description(device.facts.description))),
            ])
        }
        return .object([("devices", .array(items))])
    }

    /// `stop_recording`'s: the devices this connection stopped recording.
    public static func stopped(_ devices: [String]) -> JSONValue { .object([("stopped", .array(devices.map { .string($0) }))]) }
}

/// The replies of a calibration session (`calibrate`, `calibration_point`, `finish_calibration`),
/// as `touchd calibrate` prints them too. See `docs/protocol.md`.
public enum CalibrationReply {
    /// One target's result: where it is, the sample made for it, where that sample lands with the
    /// new matrix (window points) and how far that is from the target (millimetres).
    public struct Target: Hashable, Sendable {
        public var index: Int
        public var point: Point
        public var sample: Int
        public var landed: Point
        public var residualMillimetres: Millimetres

        public init(index: Int, point: Point, sample: Int, landed: Point, residualMillimetres: Millimetres) {
            self.index = index
            self.point = point
            self.sample = sample
            self.landed = landed
            self.residualMillimetres = residualMillimetres
        }
    }

    /// `calibrate`'s: the device, its window (id and size) and region (the window's points its
    /// touches map onto), the display's density, the targets (window points) and the file the
    /// calibration will be kept in.
    public static func started(
        device: String, window: ResponderID, windowSize: Size, region: Rect, pointsPerMillimetre: Double, targets: [Point], file: String?
    ) -> JSONValue {
        let items: [JSONValue] = targets.enumerated().map { index, point in
            .object([("target", .int(Int64(index))), ("x", .double(point.x)), ("y", .double(point.y))])
        }
        return .object([
            ("device", .string(device)), ("window", .string(window.rawValue)),
            ("window_size", .array([windowSize.width, windowSize.height].map { .double($0) })),
            ("region", .array([region.minX, region.minY, region.width, region.height].map { .double($0) })),
            ("points_per_mm", .double(pointsPerMillimetre)), ("targets", .array(items)),
            ("calibration_file", file.map { .string($0) } ?? .null),
        ])
    }

    /// `calibration_point`'s: the target and the sample now assigned to it.
    public static func assigned(target: Int, sample: Int) -> JSONValue {
        .object([("target", .int(Int64(target))), ("sample", .int(Int64(sample)))])
    }

    /// `finish_calibration`'s: the fitted matrix (its six coefficients, in udev's order), each
    /// target's result (in target order) with the largest and the mean residual (millimetres), and
    /// where it was kept (`kept` false with `not_kept_because` when it was not).
    public static func finished(
        matrix: [Double], targets: [Target], worstResidualMillimetres: Millimetres, meanResidualMillimetres: Millimetres,
        device: String, file: String?, notKeptBecause: String?
    ) -> JSONValue {
        let points: [JSONValue] = targets.map { target in
            .object([
                ("target", .int(Int64(target.index))), ("x", .double(target.point.x)), ("y", .double(target.point.y)),
                ("sample", .int(Int64(target.sample))), ("landed", .object([("x", .double(target.landed.x)), ("y", .double(target.landed.y))])),
                ("residual_mm", .double(target.residualMillimetres.value)),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("device", .string(device)), ("matrix", .array(matrix.map { .double($0) })), ("points", .array(points)),
            ("worst_residual_mm", .double(worstResidualMillimetres.value)), ("mean_residual_mm", .double(meanResidualMillimetres.value)),
            ("calibration_file", file.map { .string($0) } ?? .null), ("kept", .bool(notKeptBecause == nil)),
        ]
        if let notKeptBecause { members.append(("not_kept_because", .string(notKeptBecause))) }
        return .object(members)
    }
}
