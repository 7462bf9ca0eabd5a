import TouchCore

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

/// How a device reports touches: its multi-touch protocol, the axes contacts are read from and
/// the flags that change their meaning, derived from its ``DeviceDescription``. What the device
/// is (a touchscreen, a touchpad, ...) is ``DeviceClassification``'s to say.
public struct DeviceCapabilities: Hashable, Sendable {
    /// How it reports several fingers.
    public var multitouch: MultitouchProtocol
    /// Slots for protocol B (at most ``TouchCore/Limits/maximumSlots``), 0 otherwise.
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

    /// Derives the capabilities from a description.
    ///
    /// A code the description lists without an axis counts as an axis from 0 to 0. Protocol B's
    /// slot count is the one ``declaredSlots(_:)`` gives, at least 1 and at most
    /// ``TouchCore/Limits/maximumSlots``, for a live device and a recording alike.
    ///
    /// A device that declares `ABS_RESERVED` beside `ABS_MT_SLOT` has no multi-touch axes: gaming
    /// keyboards and mice declare every axis from `ABS_MISC` on, and the codes they share with
    /// `ABS_MT_*` mean nothing of the kind (udev gives them no multi-touch coordinates, libevdev no
    /// slots, libinput calls them fake multi-touch). Only their `ABS_X`/`ABS_Y`, if any, count.
    public init(description: DeviceDescription) {
        let axes = AxisLookup(description: description)
        let isFakeMultitouch = axes[AbsCode.mtSlot] != nil && axes[AbsCode.reserved] != nil
        let hasMTPosition = !isFakeMultitouch && axes[AbsCode.mtPositionX] != nil && axes[AbsCode.mtPositionY] != nil
        if hasMTPosition {
            (positionXCode, positionYCode) = (AbsCode.mtPositionX, AbsCode.mtPositionY)
        } else if axes[AbsCode.x] != nil && axes[AbsCode.y] != nil {
            (positionXCode, positionYCode) = (AbsCode.x, AbsCode.y)
        } else {
            (positionXCode, positionYCode) = (nil, nil)
        }
        xAxis = positionXCode.flatMap { axes[$0] }
        yAxis = positionYCode.flatMap { axes[$0] }
        (multitouch, slotCount) = Self.multitouch(hasMTPosition: hasMTPosition, slots: axes[AbsCode.mtSlot])
        (pressureCode, pressureAxis) = axes.first(of: hasMTPosition ? [AbsCode.mtPressure, AbsCode.pressure] : [AbsCode.pressure])
        hasPressure = pressureCode != nil
        hasTouchMajor = axes[AbsCode.mtTouchMajor] != nil
        hasWidthMajor = axes[AbsCode.mtWidthMajor] != nil
        (touchMajorCode, touchMajorAxis) = hasMTPosition ? axes.first(of: [AbsCode.mtTouchMajor, AbsCode.mtWidthMajor]) : (nil, nil)
        isDirect = description.properties.contains(InputProperty.direct)
        isSemiMT = description.properties.contains(InputProperty.semiMT)
        isButtonpad = description.properties.contains(InputProperty.buttonpad)
        hasToolType = hasMTPosition && axes[AbsCode.mtToolType] != nil
        hasToolFinger = description.has(type: EventType.key, code: KeyCode.btnToolFinger)
        if description.has(type: EventType.key, code: KeyCode.btnTouch) {
            touchSignal = .touchKey
        } else if description.has(type: EventType.key, code: KeyCode.btnLeft) {
            touchSignal = .leftButton
        } else {
            touchSignal = axes[AbsCode.pressure] != nil ? .pressure : .none
        }
    }

    /// The slots `ABS_MT_SLOT` declares, before any limit: its maximum + 1 (in 64-bit arithmetic).
    ///
    /// The kernel numbers slots from 0 whatever the axis's minimum says: `uinput` makes
    /// `maximum + 1` slots, the input core passes on `ABS_MT_SLOT` values from 0 to the maximum,
    /// and libevdev counts `maximum + 1` slots. A nonzero minimum (some devices declare one) is
    /// therefore ignored: slots 0 to the maximum exist and are read.
    public static func declaredSlots(_ slots: AbsInfo) -> Int {
        Int(slots.maximum) + 1
    }

    private static func multitouch(hasMTPosition: Bool, slots: AbsInfo?) -> (MultitouchProtocol, Int) {
        guard hasMTPosition else { return (.singleTouch, 0) }
        guard let slots else { return (.anonymous, 0) }
        let count = min(max(declaredSlots(slots), 1), Limits.maximumSlots)
        return (.slotted(slotCount: count), count)
    }
}

/// A description's absolute axes by code; a code listed without an axis is an axis from 0 to 0.
private struct AxisLookup {
    let description: DeviceDescription
    let codes: Set<UInt16>

    init(description: DeviceDescription) {
        self.description = description
        codes = description.codes[EventType.abs] ?? []
    }

    subscript(_ code: UInt16) -> AbsInfo? {
        description.absInfo[code] ?? (codes.contains(code) ? AbsInfo(minimum: 0, maximum: 0) : nil)
    }

    /// The first of `candidates` the device has, with its axis.
    func first(of candidates: [UInt16]) -> (UInt16?, AbsInfo?) {
        for code in candidates {
            if let info = self[code] { return (code, info) }
        }
        return (nil, nil)
    }
}
