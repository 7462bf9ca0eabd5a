import TouchCore

/// The requests about the connection itself.
public enum SessionRequest: Hashable, Sendable {
    case ping
    case subscribe(topics: Set<Topic>, views: [String]?, actions: Set<String>?, touchSamples: TouchSampleForm = .default)
    case unsubscribe(subscription: Int)

    public var command: String {
        switch self {
        case .ping: "ping"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        }
    }

    /// Every connection may manage itself.
    public var requiredRole: ClientRole { .readOnly }
}

/// The requests that read or change the running tree: hit-tests, views' properties, controls,
/// views added and removed, the tree's description and its picture.
public enum TreeRequest: Hashable, Sendable {
    case hitTest(point: Point, window: ResponderID?)
    case set(view: ResponderID, changes: ViewChanges)
    /// A control's value (a toggle's `true`/`false`, a slider's number) and whether it is enabled;
    /// nil leaves either as it is.
    case setControl(view: ResponderID, value: JSONValue?, enabled: Bool?)
    /// A view added on top of `parent`'s subviews. It belongs to the connection (and leaves with
    /// it) unless `keep`: then it stays until removed or reloaded, like a layout's view.
    case addView(view: ResponderID, parent: ResponderID, changes: ViewChanges, keep: Bool = false)
    case removeView(view: ResponderID)
    case views
    /// A picture of a window with the last touches' paths (none with `touches` false).
    case snapshot(window: ResponderID?, heatmap: Bool, touches: Bool = true)

    public var command: String {
        switch self {
        case .hitTest: "hit_test"
        case .set: "set"
        case .setControl: "set_control"
        case .addView: "add_view"
        case .removeView: "remove_view"
        case .views: "views"
        case .snapshot: "snapshot"
        }
    }

    /// Reading the tree is for everyone; changing it needs the control role.
    public var requiredRole: ClientRole {
        switch self {
        case .hitTest, .views, .snapshot: .readOnly
        case .set, .setControl, .addView, .removeView: .control
        }
    }
}

/// The requests about who receives events without touches: a window's first responder, and
/// whether the application receives remote-control events.
public enum ResponderRequest: Hashable, Sendable {
    /// `becomeFirstResponder()` on a window, view or controller.
    case becomeFirstResponder(responder: ResponderID)
    /// `resignFirstResponder()` on a window, view or controller.
    case resignFirstResponder(responder: ResponderID)
    /// `UIApplication.beginReceivingRemoteControlEvents()`.
    case beginReceivingRemoteControl
    /// `UIApplication.endReceivingRemoteControlEvents()`.
    case endReceivingRemoteControl

    public var command: String {
        switch self {
        case .becomeFirstResponder: "become_first_responder"
        case .resignFirstResponder: "resign_first_responder"
        case .beginReceivingRemoteControl: "begin_receiving_remote_control"
        case .endReceivingRemoteControl: "end_receiving_remote_control"
        }
    }

    /// Each changes the application.
    public var requiredRole: ClientRole { .control }
}

/// The requests about the daemon: its layout, devices and counters.
public enum DaemonRequest: Hashable, Sendable {
    case reload
    case devices
    case stats

    public var command: String {
        switch self {
        case .reload: "reload"
        case .devices: "devices"
        case .stats: "stats"
        }
    }

    public var requiredRole: ClientRole {
        switch self {
        case .devices, .stats: .readOnly
        case .reload: .control
        }
    }
}

/// The installer's sessions on a device: recording its raw events, calibrating it.
public enum DeviceSessionRequest: Hashable, Sendable {
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
}
