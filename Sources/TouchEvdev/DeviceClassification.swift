/// What a device is, and why touchd thinks so: the one place that classifies input devices, for
/// live devices and recordings alike.
///
/// The order, first match wins:
/// 1. `INPUT_PROP_ACCELEROMETER` or udev's `ID_INPUT_ACCELEROMETER=1` → accelerometer (its axes
///    look like positions, so this comes first).
/// 2. udev's `ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`, `ID_INPUT_TABLET` set to 1, in that
///    order: a hwdb entry can fix a device the heuristics get wrong.
/// 3. The capabilities: no position axes → not a touch surface; `INPUT_PROP_DIRECT` →
///    touchscreen (tablet when it has pen tools and no multi-touch); `POINTER`, `BUTTONPAD`,
///    `SEMI_MT` or `TOPBUTTONPAD` → touchpad; `BTN_TOOL_FINGER` without `BTN_TOOL_PEN` →
///    touchpad; a stylus button, or a pen tool with pressure and no multi-touch → tablet (a pen
///    tool alone, as eGalax controllers declare, is not enough); `BTN_TOUCH`, `BTN_LEFT` or
///    multi-touch → touchscreen.
/// 4. udev's `ID_INPUT_KEY=1`, or (without udev) a key below `BTN_MISC` or from `KEY_OK` on
///    (udev's own test: mice and touch panels, whose keys are all buttons, are not key devices)
///    → keys. A touchscreen with buttons stays a touchscreen.
/// 5. Anything else → other.
public struct DeviceClassification: Hashable, Sendable, CustomStringConvertible {
    /// Where the verdict came from.
    public enum Evidence: Hashable, Sendable {
        /// A udev property set to 1, e.g. `ID_INPUT_TOUCHSCREEN`.
        case udevProperty(String)
        /// The device's capabilities: the deciding property, key or axis (`INPUT_PROP_DIRECT`,
        /// `BTN_TOOL_FINGER`, `no absolute position axes`, ...).
        case capabilities(String)
    }

    /// The udev properties that name a touch surface's kind, in the order they are trusted.
    public static let udevTouchProperties: [(kind: DeviceKind, property: String)] = [
        (.touchscreen, "ID_INPUT_TOUCHSCREEN"), (.touchpad, "ID_INPUT_TOUCHPAD"), (.tablet, "ID_INPUT_TABLET"),
    ]

    /// The kind.
    public var kind: DeviceKind
    /// Why.
    public var evidence: Evidence
    /// The touch capabilities the verdict was drawn from.
    public var capabilities: DeviceCapabilities

    /// Classifies a device.
    ///
    /// - Parameters:
    ///   - description: The device, as libevdev (or a recording) describes it.
    ///   - udevProperties: udev's properties; empty without udevd.
    public init(description: DeviceDescription, udevProperties: [String: String] = [:]) {
        let capabilities = DeviceCapabilities(description: description)
        self.capabilities = capabilities
        (kind, evidence) = Self.classify(description, capabilities, udevProperties)
    }

    /// Whether touchd reads the device's positions as touches (``DeviceKind/isTouch``).
    public var isTouch: Bool { kind.isTouch }

    /// `udev property` or `capabilities`, for machine output.
    public var source: String {
        switch evidence {
        case .udevProperty: "udev property"
        case .capabilities: "capabilities"
        }
    }

    /// The deciding fact alone: `ID_INPUT_TOUCHSCREEN=1`, `INPUT_PROP_DIRECT`, ...
    public var reason: String {
        switch evidence {
        case .udevProperty(let name): "\(name)=1"
        case .capabilities(let fact): fact
        }
    }

    /// `touchscreen (udev property ID_INPUT_TOUCHSCREEN=1)`.
    public var description: String { "\(kind.rawValue) (\(source) \(reason))" }

    private static func classify(
        _ description: DeviceDescription, _ capabilities: DeviceCapabilities, _ udev: [String: String]
    ) -> (DeviceKind, Evidence) {
        if description.properties.contains(InputProperty.accelerometer) {
            return (.accelerometer, .capabilities("INPUT_PROP_ACCELEROMETER"))
        }
        if udev["ID_INPUT_ACCELEROMETER"] == "1" { return (.accelerometer, .udevProperty("ID_INPUT_ACCELEROMETER")) }
        for (kind, property) in udevTouchProperties where udev[property] == "1" { return (kind, .udevProperty(property)) }
        if let (kind, fact) = touchSurface(description, capabilities) { return (kind, .capabilities(fact)) }
        if udev["ID_INPUT_KEY"] == "1" { return (.keys, .udevProperty("ID_INPUT_KEY")) }
        let keys = description.codes[EventType.key] ?? []
        if keys.contains(where: { ($0 >= 1 && $0 < KeyCode.btnMisc) || $0 >= KeyCode.keyOK }) {
            return (.keys, .capabilities("keys below BTN_MISC or from KEY_OK on"))
        }
        let fact = capabilities.positionXCode == nil ? "no absolute position axes" : "no touch key, button or multi-touch axes"
        return (.other, .capabilities(fact))
    }

    /// The touch surface the capabilities show, with the deciding fact; nil for none.
    private static func touchSurface(_ description: DeviceDescription, _ capabilities: DeviceCapabilities) -> (DeviceKind, String)? {
        func key(_ code: UInt16) -> Bool { description.has(type: EventType.key, code: code) }
        func prop(_ property: UInt16) -> Bool { description.properties.contains(property) }
        guard capabilities.positionXCode != nil else { return nil }
        let hasMT = capabilities.positionXCode == AbsCode.mtPositionX
        if prop(InputProperty.direct) {
            let hasPen = key(KeyCode.btnToolPen) || key(KeyCode.btnStylus)
            return hasPen && !hasMT ? (.tablet, "INPUT_PROP_DIRECT with a pen tool") : (.touchscreen, "INPUT_PROP_DIRECT")
        }
        let touchpadProperties: [(UInt16, String)] = [
            (InputProperty.pointer, "INPUT_PROP_POINTER"), (InputProperty.buttonpad, "INPUT_PROP_BUTTONPAD"),
            (InputProperty.semiMT, "INPUT_PROP_SEMI_MT"), (InputProperty.topButtonpad, "INPUT_PROP_TOPBUTTONPAD"),
        ]
        if let (_, name) = touchpadProperties.first(where: { prop($0.0) }) { return (.touchpad, name) }
        if key(KeyCode.btnToolFinger) && !key(KeyCode.btnToolPen) { return (.touchpad, "BTN_TOOL_FINGER without INPUT_PROP_DIRECT") }
        if key(KeyCode.btnStylus) { return (.tablet, "BTN_STYLUS") }
        if key(KeyCode.btnToolPen) && capabilities.hasPressure && !hasMT { return (.tablet, "BTN_TOOL_PEN with pressure") }
        if key(KeyCode.btnTouch) { return (.touchscreen, "BTN_TOUCH with absolute axes") }
        if key(KeyCode.btnLeft) { return (.touchscreen, "BTN_LEFT with absolute axes") }
        if hasMT { return (.touchscreen, "ABS_MT_POSITION_X/Y") }
        return nil
    }
}
