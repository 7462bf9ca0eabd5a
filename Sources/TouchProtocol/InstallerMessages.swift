import TouchCore

/// One raw kernel event as a `raw` message carries it: `[seconds, microseconds, type, code, value]`.
public struct RawEventFields: Hashable, Sendable {
    public var seconds: Int64
    public var microseconds: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The messages of the installer's sessions (recording a device, calibrating one): each goes to
/// the one client whose session it belongs to, never to subscribers, and none may be dropped (a
/// recording with a gap, or a calibration with a lost touch, would be wrong without saying so).
/// See `docs/protocol.md`.
extension MessageEncoder {
    /// `raw`: the events of one read of a recorded device, in order, as the kernel stamped them.
    public static func raw(device: String, events: [RawEventFields]) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false) { w in
            w.member("type"); w.literal(#""raw""#)
            w.member("device"); w.string(device)
            w.member("events")
            w.array { w in
                for event in events {
                    w.element()
                    w.array { w in
                        for number in [event.seconds, event.microseconds, Int64(event.type), Int64(event.code), Int64(event.value)] {
                            w.element(); w.int(number)
                        }
                    }
                }
            }
        }
    }

    /// `recording_ended`: a recorded device stopped sending (it went away), or the recording was
    /// stopped for a reason the client did not ask for.
    public static func recordingEnded(device: String, reason: String) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [("type", "recording_ended"), ("device", .string(device)), ("reason", .string(reason))])
    }

    /// `calibration_touch`: a finger landed on the device being calibrated (raw device units).
    public static func calibrationTouch(device: String, contact: UInt64, x: Int32, y: Int32, time: Double) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [
                ("type", "calibration_touch"), ("time", .double(time)), ("device", .string(device)),
                ("contact", .int(Int64(clamping: contact))), ("x", .int(Int64(x))), ("y", .int(Int64(y))),
            ])
    }

    /// `calibration_sample`: a finger lifted; the sample's number is what `calibration_point` names.
    public static func calibrationSample(device: String, sample: Int, x: Int32, y: Int32, time: Double) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [
                ("type", "calibration_sample"), ("time", .double(time)), ("device", .string(device)),
                ("sample", .int(Int64(sample))), ("x", .int(Int64(x))), ("y", .int(Int64(y))),
            ])
    }

    /// `calibration_ended`: the session ended without the client finishing or cancelling it (the
    /// device went away, or a reload no longer takes it); nothing was changed.
    public static func calibrationEnded(device: String, reason: String) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [("type", "calibration_ended"), ("device", .string(device)), ("reason", .string(reason))])
    }
}
