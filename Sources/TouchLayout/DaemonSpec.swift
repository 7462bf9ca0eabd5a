/// The `[daemon]` table: where the socket is and who may use it. Command-line options win.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `socket` | string | `"/run/touchd/touchd.sock"` | the socket's path (absolute) |
/// | `socket_group` | string | the daemon's group | the socket file's group (name or number) |
/// | `socket_mode` | string | `"0660"` | the socket file's mode, in octal |
/// | `allow_users` | array of integers | `[]` (anyone the mode lets in) | user ids allowed to connect (SO_PEERCRED); root always is |
/// | `allow_groups` | array of integers | `[]` | group ids allowed to connect |
public struct DaemonSpec: Hashable, Sendable {
    public static let defaultSocket = "/run/touchd/touchd.sock"
    public var socket: String = DaemonSpec.defaultSocket
    public var socketGroup: String?
    public var socketMode: UInt32 = 0o660
    public var allowUsers: [UInt32] = []
    public var allowGroups: [UInt32] = []

    public init() {}

    static let keys = ["socket", "socket_group", "socket_mode", "allow_users", "allow_groups"]
}

/// A `[[control]]` entry: a view that is a button, a toggle or a slider, and the actions it sends.
///
/// | Key | Type | Default | Meaning |
/// |---|---|---|---|
/// | `view` | string | required | the view that is the control |
/// | `kind` | string | required | `button`, `toggle` or `slider` |
/// | `enabled` | boolean | true | a disabled control forwards touches like any view |
/// | `on` | boolean | false | toggle: its initial state |
/// | `min`, `max`, `value` | numbers | 0, 1, 0 | slider: range and initial value |
/// | `[[control.target]]` | array of tables | none | `event` (`touch_down`, `touch_down_repeat`, `touch_drag_inside`, `touch_drag_outside`, `touch_drag_enter`, `touch_drag_exit`, `touch_up_inside`, `touch_up_outside`, `touch_cancel`, `value_changed`, `primary_action_triggered`), `action` (the name sent), `target` (a responder; without it the action walks the responder chain from the control to the first responder with a `[[handler]]` whose `on = "action"` and `selector` is that name) |
public struct ControlLayoutSpec: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case button, toggle, slider
    }

    public struct Target: Hashable, Sendable {
        public var event: String
        public var action: String
        public var target: String?
    }

    public var view: String
    public var kind: Kind
    public var isEnabled = true
    public var isOn = false
    public var minimum = 0.0
    public var maximum = 1.0
    public var value = 0.0
    public var targets: [Target] = []

    public init(view: String, kind: Kind) {
        self.view = view
        self.kind = kind
    }

    static let events = [
        "touch_down", "touch_down_repeat", "touch_drag_inside", "touch_drag_outside", "touch_drag_enter", "touch_drag_exit",
        "touch_up_inside", "touch_up_outside", "touch_cancel", "value_changed", "primary_action_triggered",
    ]

    /// The keys that configure one kind only; a key of another kind is an error.
    static func kindKeys(_ kind: Kind) -> [String] {
        switch kind {
        case .button: []
        case .toggle: ["on"]
        case .slider: ["min", "max", "value"]
        }
    }
}
