/// What kind of device an input node is, as far as touchd cares.
public enum DeviceKind: String, Hashable, Sendable, CaseIterable {
    /// Touches land where they are shown (`INPUT_PROP_DIRECT`, or an absolute single-touch panel).
    case touchscreen
    /// An indirect surface that moves a pointer (`INPUT_PROP_POINTER`, `BUTTONPAD`, `SEMI_MT`).
    case touchpad
    /// A pen tablet or pen display without finger touch.
    case tablet
    /// Anything else: keyboards, mice, devices without absolute position axes.
    case other
}

/// How a device reports several fingers.
public enum MultitouchProtocol: Hashable, Sendable {
    /// Protocol B: `ABS_MT_SLOT` selects a slot; `ABS_MT_TRACKING_ID` starts (≥ 0) and ends (-1)
    /// a contact in it.
    case slotted(slotCount: Int)
    /// Protocol A: anonymous contacts, each closed by `SYN_MT_REPORT`; identity is inferred.
    case anonymous
    /// No `ABS_MT_*` positions: one contact from `ABS_X`/`ABS_Y` (or none at all).
    case singleTouch
}

/// What says a single-touch device is being touched.
public enum TouchSignal: Hashable, Sendable {
    /// `BTN_TOUCH` (the usual case).
    case touchKey
    /// `BTN_LEFT`, for absolute panels without `BTN_TOUCH` (Posiflex, virtual tablets).
    case leftButton
    /// `ABS_PRESSURE` above its minimum, for panels with neither key (tslib-style resistive screens).
    case pressure
    /// Nothing: the device cannot report a touch.
    case none
}

/// A device's touch-relevant capabilities, derived from its ``DeviceDescription`` and, when known,
/// its udev properties.
public struct DeviceCapabilities: Hashable, Sendable {
    /// What the device is.
    public var kind: DeviceKind
    /// How it reports several fingers.
    public var multitouch: MultitouchProtocol
    /// Slots for protocol B (at most ``FrameAssembler/maximumSlots``), 0 otherwise.
    public var slotCount: Int
    /// The code x positions are read from: `ABS_MT_POSITION_X` when the device has multi-touch
    /// positions, else `ABS_X`; nil when it has neither.
    public var positionXCode: UInt16?
    /// The code y positions are read from: `ABS_MT_POSITION_Y`, else `ABS_Y`, else nil.
    public var positionYCode: UInt16?
    /// The horizontal position axis (range and resolution), if any.
    public var xAxis: AbsInfo?
    /// The vertical position axis, if any.
    public var yAxis: AbsInfo?
    /// The pressure code: `ABS_MT_PRESSURE` when present, else `ABS_PRESSURE`, else nil.
    public var pressureCode: UInt16?
    /// The pressure axis, if any.
    public var pressureAxis: AbsInfo?
    /// The contact-size code: `ABS_MT_TOUCH_MAJOR`, else `ABS_MT_WIDTH_MAJOR`, else nil.
    public var touchMajorCode: UInt16?
    /// The contact-size axis, if any.
    public var touchMajorAxis: AbsInfo?
    /// `ABS_MT_PRESSURE` or `ABS_PRESSURE`.
    public var hasPressure: Bool
    /// `ABS_MT_TOUCH_MAJOR`.
    public var hasTouchMajor: Bool
    /// `ABS_MT_WIDTH_MAJOR`.
    public var hasWidthMajor: Bool
    /// `INPUT_PROP_DIRECT`.
    public var isDirect: Bool
    /// `INPUT_PROP_SEMI_MT`: the slots hold the corners of the fingers' bounding box, not fingers.
    public var isSemiMT: Bool
    /// `INPUT_PROP_BUTTONPAD`.
    public var isButtonpad: Bool
    /// `ABS_MT_TOOL_TYPE`: contacts say whether they are a finger, a pen or a palm.
    public var hasToolType: Bool
    /// `BTN_TOOL_FINGER`.
    public var hasToolFinger: Bool
    /// What says a single-touch device is touched (protocol A also uses `BTN_TOUCH` for lift).
    public var touchSignal: TouchSignal

    /// Derives the capabilities.
    ///
    /// - Parameters:
    ///   - description: The device.
    ///   - udevProperties: udev's properties for the node. `ID_INPUT_TOUCHSCREEN=1`,
    ///     `ID_INPUT_TOUCHPAD=1` and `ID_INPUT_TABLET=1` win over the heuristics (in that order), so
    ///     a hwdb entry can fix a device the heuristics get wrong.
    ///
    /// The heuristics, in order: no position axes → other; `INPUT_PROP_DIRECT` → touchscreen
    /// (tablet when it has pen tools and no multi-touch); `POINTER`, `BUTTONPAD`, `SEMI_MT` or
    /// `TOPBUTTONPAD` → touchpad; `BTN_TOOL_FINGER` without `BTN_TOOL_PEN` → touchpad; a stylus
    /// button, or a pen tool with pressure and no multi-touch → tablet (a pen tool alone, as eGalax
    /// controllers declare, is not enough); `BTN_TOUCH`, `BTN_LEFT` or multi-touch → touchscreen.
    public init(description: DeviceDescription, udevProperties: [String: String] = [:]) {
        let abs = description.codes[EventType.abs] ?? []
        func axis(_ code: UInt16) -> AbsInfo? {
            description.absInfo[code] ?? (abs.contains(code) ? AbsInfo(minimum: 0, maximum: 0) : nil)
        }
        func key(_ code: UInt16) -> Bool { description.has(type: EventType.key, code: code) }
        let prop = { (property: UInt16) in description.properties.contains(property) }

        let hasMTPosition = axis(AbsCode.mtPositionX) != nil && axis(AbsCode.mtPositionY) != nil
        let hasPosition = axis(AbsCode.x) != nil && axis(AbsCode.y) != nil
        if hasMTPosition {
            positionXCode = AbsCode.mtPositionX
            positionYCode = AbsCode.mtPositionY
        } else if hasPosition {
            positionXCode = AbsCode.x
            positionYCode = AbsCode.y
        } else {
            positionXCode = nil
            positionYCode = nil
        }
        xAxis = positionXCode.flatMap(axis)
        yAxis = positionYCode.flatMap(axis)

        if hasMTPosition, let slots = axis(AbsCode.mtSlot) {
            let declared = Int(slots.maximum) - Int(slots.minimum) + 1
            slotCount = min(max(declared, 1), FrameAssembler.maximumSlots)
            multitouch = .slotted(slotCount: slotCount)
        } else if hasMTPosition {
            slotCount = 0
            multitouch = .anonymous
        } else {
            slotCount = 0
            multitouch = .singleTouch
        }

        let usesMT = hasMTPosition
        if usesMT, let info = axis(AbsCode.mtPressure) {
            pressureCode = AbsCode.mtPressure
            pressureAxis = info
        } else if let info = axis(AbsCode.pressure) {
            pressureCode = AbsCode.pressure
            pressureAxis = info
        } else {
            pressureCode = nil
            pressureAxis = nil
        }
        hasPressure = pressureCode != nil
        hasTouchMajor = axis(AbsCode.mtTouchMajor) != nil
        hasWidthMajor = axis(AbsCode.mtWidthMajor) != nil
        if usesMT && hasTouchMajor {
            touchMajorCode = AbsCode.mtTouchMajor
        } else if usesMT && hasWidthMajor {
            touchMajorCode = AbsCode.mtWidthMajor
        } else {
            touchMajorCode = nil
        }
        touchMajorAxis = touchMajorCode.flatMap(axis)
        isDirect = prop(InputProperty.direct)
        isSemiMT = prop(InputProperty.semiMT)
        isButtonpad = prop(InputProperty.buttonpad)
        hasToolType = usesMT && axis(AbsCode.mtToolType) != nil
        hasToolFinger = key(KeyCode.btnToolFinger)

        if key(KeyCode.btnTouch) {
            touchSignal = .touchKey
        } else if key(KeyCode.btnLeft) {
            touchSignal = .leftButton
        } else if axis(AbsCode.pressure) != nil {
            touchSignal = .pressure
        } else {
            touchSignal = .none
        }

        kind = Self.classify(
            udevProperties: udevProperties, hasPosition: hasPosition || hasMTPosition, hasMT: hasMTPosition,
            hasPressure: hasPressure, key: key, prop: prop)
    }

    private static func classify(
        udevProperties: [String: String], hasPosition: Bool, hasMT: Bool, hasPressure: Bool,
        key: (UInt16) -> Bool, prop: (UInt16) -> Bool
    ) -> DeviceKind {
        func udev(_ name: String) -> Bool { udevProperties[name] == "1" }
        if udev("ID_INPUT_TOUCHSCREEN") { return .touchscreen }
        if udev("ID_INPUT_TOUCHPAD") { return .touchpad }
        if udev("ID_INPUT_TABLET") { return .tablet }

        guard hasPosition else { return .other }
        let hasPen = key(KeyCode.btnToolPen) || key(KeyCode.btnStylus)
        if prop(InputProperty.direct) {
            return hasPen && !hasMT ? .tablet : .touchscreen
        }
        if prop(InputProperty.pointer) || prop(InputProperty.buttonpad) || prop(InputProperty.semiMT)
            || prop(InputProperty.topButtonpad)
        {
            return .touchpad
        }
        if key(KeyCode.btnToolFinger) && !key(KeyCode.btnToolPen) { return .touchpad }
        if key(KeyCode.btnStylus) || (key(KeyCode.btnToolPen) && hasPressure && !hasMT) { return .tablet }
        if key(KeyCode.btnTouch) || key(KeyCode.btnLeft) || hasMT { return .touchscreen }
        return .other
    }
}
