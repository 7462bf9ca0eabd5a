/// What a connection may do. touchd gives each client a role when it connects, from the client's
/// credentials (`docs/operations.md`), tells it in `hello`, and checks every request against it:
/// a request the role does not allow is refused with `forbidden`.
public enum ClientRole: String, Hashable, Sendable, CaseIterable {
    /// Watch the daemon: `ping`, `subscribe`, `unsubscribe`, `hit_test`, `views`, `devices`,
    /// `stats` and `snapshot`.
    case readOnly = "read_only"
    /// Also change it: `set`, `set_control`, `add_view`, `remove_view`, `reload`,
    /// `become_first_responder`, `resign_first_responder`, `begin_receiving_remote_control`,
    /// `end_receiving_remote_control`; and take its devices: `record` and `stop_recording` (raw
    /// input, which may be what a person types), `calibrate`, `calibration_point`,
    /// `finish_calibration` and `cancel_calibration` (a device held out of dispatch, then a new
    /// calibration applied and kept).
    case control

    /// Whether a client with this role may make a request that needs `required`.
    public func allows(_ required: ClientRole) -> Bool {
        switch (self, required) {
        case (.control, _), (.readOnly, .readOnly): true
        case (.readOnly, .control): false
        }
    }
}

extension Request {
    /// The role a client needs for this request: `control` for what changes the running tree or
    /// layout, `read_only` for the rest.
    public var requiredRole: ClientRole {
        switch self {
        case .ping, .subscribe, .unsubscribe, .hitTest, .views, .devices, .stats, .snapshot: .readOnly
        case .set, .setControl, .addView, .removeView, .reload, .becomeFirstResponder, .resignFirstResponder,
            .beginReceivingRemoteControl, .endReceivingRemoteControl, .record, .stopRecording, .calibrate, .calibrationPoint,
            .finishCalibration, .cancelCalibration:
            .control
        }
    }

    /// The request's `cmd`, as a client writes it.
    public var command: String {
        switch self {
        case .ping: "ping"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .hitTest: "hit_test"
        case .set: "set"
        case .setControl: "set_control"
        case .addView: "add_view"
        case .removeView: "remove_view"
        case .reload: "reload"
        case .devices: "devices"
        case .views: "views"
        case .stats: "stats"
        case .snapshot: "snapshot"
        case .becomeFirstResponder: "become_first_responder"
        case .resignFirstResponder: "resign_first_responder"
        case .beginReceivingRemoteControl: "begin_receiving_remote_control"
        case .endReceivingRemoteControl: "end_receiving_remote_control"
        case .record: "record"
        case .stopRecording: "stop_recording"
        case .calibrate: "calibrate"
        case .calibrationPoint: "calibration_point"
        case .finishCalibration: "finish_calibration"
        case .cancelCalibration: "cancel_calibration"
        }
    }
}
