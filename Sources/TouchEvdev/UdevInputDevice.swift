/// An input device's event node as udev knows it: where it is, and udev's properties for it.
///
/// udev's properties come from udevd's rules and hwdb (`60-input-id.rules` sets `ID_INPUT_*`,
/// `60-persistent-input.rules` `ID_PATH`, `60-evdev.rules` the `LIBINPUT_*` and `EVDEV_ABS_*`
/// fix-ups). Without udevd they are (nearly) empty and ``isInitialized`` is false: then only the
/// device's own capabilities say what it is.
public struct UdevInputDevice: Hashable, Sendable {
    /// The sysfs path of the event node, e.g. `/sys/devices/virtual/input/input7/event3`. It
    /// changes on every replug (the `inputN` counter grows).
    public var syspath: String
    /// The event node, `/dev/input/eventN`; N may change on replug.
    public var devnode: String
    /// udev's properties (`ID_INPUT_TOUCHSCREEN`, `ID_PATH`, `LIBINPUT_CALIBRATION_MATRIX`, ...).
    public var properties: [String: String]
    /// Whether udevd has processed the device (false without udevd).
    public var isInitialized: Bool

    /// A device from its parts.
    public init(syspath: String, devnode: String, properties: [String: String] = [:], isInitialized: Bool = false) {
        self.syspath = syspath
        self.devnode = devnode
        self.properties = properties
        self.isInitialized = isInitialized
    }

    /// What udev's `input_id` builtin says the device is, from the first of
    /// `ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`, `ID_INPUT_TABLET` set to `1`
    /// (``DeviceClassification/udevTouchProperties``); nil when none is.
    public var udevKind: (kind: DeviceKind, property: String)? {
        for (kind, property) in DeviceClassification.udevTouchProperties where properties[property] == "1" { return (kind, property) }
        return nil
    }

    /// Whether the device may be a touch device: udev says it is one, or udev has not processed it
    /// (without udevd nothing says what it is until it is opened). Failures to open other devices
    /// (keyboards, mice) are not worth a warning.
    public var mayBeTouchDevice: Bool { udevKind != nil || !isInitialized }

    /// The event number N of `/dev/input/eventN`, nil for another node name.
    public var eventNumber: Int? {
        let prefix = "/dev/input/event"
        guard devnode.hasPrefix(prefix) else { return nil }
        return Int(devnode.dropFirst(prefix.count))
    }

    /// Whether `devnode` is an evdev event node (`/dev/input/eventN`), the only nodes touchd reads
    /// (not `mouseN`, `jsN` or the legacy `mice`).
    public static func isEventNode(_ devnode: String) -> Bool {
        let prefix = "/dev/input/event"
        return devnode.hasPrefix(prefix) && devnode.count > prefix.count
            && devnode.dropFirst(prefix.count).allSatisfy { $0.isASCII && $0.isNumber }
    }
}
