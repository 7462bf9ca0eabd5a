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
