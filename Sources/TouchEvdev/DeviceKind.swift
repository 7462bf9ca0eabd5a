/// What an input device is, as far as touchd cares: the one vocabulary for live devices,
/// recordings, `touchd devices`, the logs and the `devices` request. ``DeviceClassification``
/// decides it.
public enum DeviceKind: String, Hashable, Sendable, CaseIterable {
    /// Touches land where they are shown (`INPUT_PROP_DIRECT`, or an absolute single-touch panel).
    case touchscreen
    /// An indirect surface that moves a pointer (`INPUT_PROP_POINTER`, `BUTTONPAD`, `SEMI_MT`).
    case touchpad
    /// A pen tablet or pen display without finger touch; read like a touchscreen (its pen is the
    /// one contact).
    case tablet
    /// Keyboards, media keys, remote-control receivers: keys become presses or remote-control
    /// commands.
    case keys
    /// An accelerometer (`INPUT_PROP_ACCELEROMETER`): its samples are watched for shakes.
    case accelerometer
    /// Anything else (mice, joysticks, switches): touchd has no use for it.
    case other

    /// Whether touchd reads the device's positions as touches: touchscreens, touchpads and
    /// tablets.
    public var isTouch: Bool {
        switch self {
        case .touchscreen, .touchpad, .tablet: true
        case .keys, .accelerometer, .other: false
        }
    }
}

/// Which kinds of device a layout's `[[device]]` entry takes (`match.kind`): a filter over
/// ``DeviceKind``, with `any` for every touch surface.
public enum DeviceKindFilter: String, Hashable, Sendable, CaseIterable {
    /// Direct-touch screens (and pen tablets and displays, whose pen is read as one contact):
    /// positions map onto the window. An entry that should not take pens comes after a `tablet`
    /// entry that takes them (to ignore them, or map them elsewhere).
    case touchscreen
    /// Indirect touchpads: the surface maps onto the window (or the region).
    case touchpad
    /// Pen tablets and pen displays only (``DeviceKind/tablet``).
    case tablet
    /// Every touch surface (``DeviceKind/isTouch``). The default.
    case any
    /// Key devices: presses and remote-control commands.
    case keys
    /// Accelerometers: shakes.
    case accelerometer

    /// Whether the entry takes touch surfaces (it then needs a window to map them onto).
    public var isTouch: Bool {
        switch self {
        case .touchscreen, .touchpad, .tablet, .any: true
        case .keys, .accelerometer: false
        }
    }

    /// Whether a device of `kind` passes the filter.
    public func accepts(_ kind: DeviceKind) -> Bool {
        switch self {
        case .any: kind.isTouch
        case .touchscreen: kind == .touchscreen || kind == .tablet
        case .touchpad: kind == .touchpad
        case .tablet: kind == .tablet
        case .keys: kind == .keys
        case .accelerometer: kind == .accelerometer
        }
    }

    /// Why a device of `kind` does not pass, or nil when it does: `kind is keys, not accelerometer`.
    public func rejection(of kind: DeviceKind) -> String? {
        guard !accepts(kind) else { return nil }
        switch self {
        case .any: return "not a touchscreen or touchpad"
        case .touchscreen, .touchpad, .tablet, .keys, .accelerometer: return "kind is \(kind.rawValue), not \(rawValue)"
        }
    }
}
