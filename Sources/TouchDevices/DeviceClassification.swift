import TouchEvdev

/// What a device is, and why touchd thinks so.
///
/// The kind is ``TouchEvdev/DeviceCapabilities``'s (one classifier for live devices and
/// recordings alike): udev's `ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD`, `ID_INPUT_TABLET` win
/// (so a hwdb entry can fix a device), else the device's own capabilities decide. This type adds
/// the evidence, for `touchd devices` and the logs.
public struct DeviceClassification: Hashable, Sendable, CustomStringConvertible {
    /// Where the verdict came from.
    public enum Evidence: Hashable, Sendable {
        /// A udev property set to 1, e.g. `ID_INPUT_TOUCHSCREEN`.
        case udevProperty(String)
        /// The device's capabilities: the deciding property, key or axis (`INPUT_PROP_DIRECT`,
        /// `BTN_TOOL_FINGER`, `no absolute position axes`, ...).
        case capabilities(String)
    }

    /// The kind.
    public var kind: DeviceKind
    /// Why.
    public var evidence: Evidence
    /// The capabilities the verdict was drawn from.
    public var capabilities: DeviceCapabilities

    /// Classifies a device.
    ///
    /// - Parameters:
    ///   - description: The device, as libevdev (or a recording) describes it.
    ///   - udevProperties: udev's properties; empty without udevd.
    public init(description: DeviceDescription, udevProperties: [String: String] = [:]) {
        let capabilities = DeviceCapabilities(description: description, udevProperties: udevProperties)
        self.capabilities = capabilities
        self.kind = capabilities.kind
        let udev = UdevInputDevice(syspath: "", devnode: "", properties: udevProperties)
        if let (_, property) = udev.udevKind {
            evidence = .udevProperty(property)
        } else {
            evidence = .capabilities(Self.deciding(description, capabilities))
        }
    }

    /// Whether touchd reads such a device: a touchscreen or a touchpad.
    public var isTouch: Bool {
        switch kind {
        case .touchscreen, .touchpad: true
        case .tablet, .other: false
        }
    }

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

    /// The fact that decided a capability-based verdict, following the order of
    /// ``TouchEvdev/DeviceCapabilities``'s heuristics.
    private static func deciding(_ description: DeviceDescription, _ capabilities: DeviceCapabilities) -> String {
        func key(_ code: UInt16) -> Bool { description.has(type: EventType.key, code: code) }
        func prop(_ property: UInt16) -> Bool { description.properties.contains(property) }
        let mt = capabilities.positionXCode == AbsCode.mtPositionX
        switch capabilities.kind {
        case .other:
            return capabilities.positionXCode == nil ? "no absolute position axes" : "no touch key, button or multi-touch axes"
        case .touchscreen:
            if prop(InputProperty.direct) { return "INPUT_PROP_DIRECT" }
            if key(KeyCode.btnTouch) { return "BTN_TOUCH with absolute axes" }
            if key(KeyCode.btnLeft) { return "BTN_LEFT with absolute axes" }
            return mt ? "ABS_MT_POSITION_X/Y" : "absolute axes"
        case .touchpad:
            let props: [(UInt16, String)] = [
                (InputProperty.pointer, "INPUT_PROP_POINTER"), (InputProperty.buttonpad, "INPUT_PROP_BUTTONPAD"),
                (InputProperty.semiMT, "INPUT_PROP_SEMI_MT"), (InputProperty.topButtonpad, "INPUT_PROP_TOPBUTTONPAD"),
            ]
            if let (_, name) = props.first(where: { prop($0.0) }) { return name }
            return "BTN_TOOL_FINGER without INPUT_PROP_DIRECT"
        case .tablet:
            if prop(InputProperty.direct) { return "INPUT_PROP_DIRECT with a pen tool" }
            return key(KeyCode.btnStylus) ? "BTN_STYLUS" : "BTN_TOOL_PEN with pressure"
        }
    }
}
