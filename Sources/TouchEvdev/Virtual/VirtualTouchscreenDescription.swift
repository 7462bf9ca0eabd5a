import TouchCore

/// One absolute axis of a device touchd creates: `struct uinput_abs_setup`'s fields.
public struct VirtualAxis: Hashable, Sendable {
    /// The `ABS_*` code.
    public var code: UInt16
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre (0: the axis has no physical size).
    public var resolution: Int32

    public init(code: UInt16, minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.code = code
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }
}

/// The virtual touchscreen touchd creates (through uinput) for a window whose touches go on to the
/// compositor: what compositors and libinput take as an ordinary direct-touch screen.
///
/// Its axes are the window's points, in ``unitsPerPoint`` steps, with a resolution in units per
/// millimetre (from the window's `points_per_mm`), so libinput knows its size. Touches reach it
/// already calibrated, rotated, mapped into the window and palm-filtered: the compositor needs no
/// calibration matrix, only to bind the device to the window's output (`docs/operations.md`).
///
/// Multitouch protocol B: ``slotCount`` slots, `ABS_MT_TRACKING_ID`, `ABS_MT_POSITION_X/Y`,
/// `ABS_MT_TOUCH_MAJOR` and `ABS_MT_PRESSURE` (sent when the source device reports them), and
/// `ABS_MT_TOOL_TYPE` up to `MT_TOOL_PALM` (how a touch touchd takes back is cancelled); `ABS_X/Y`
/// follow the touch in the lowest slot; `BTN_TOUCH` is down while any touch is; the property
/// `INPUT_PROP_DIRECT`.
public struct VirtualTouchscreenDescription: Hashable, Sendable {
    /// Every virtual touchscreen's name begins with this: how touchd knows its own devices and never
    /// reads them (a loop).
    public static let namePrefix = "touchd virtual touchscreen"
    /// Every virtual touchscreen's physical path begins with this, then the window's id.
    public static let physPrefix = "touchd/"
    /// Axis units per window point: positions keep an eighth of a point.
    public static let unitsPerPoint = 8.0
    /// Slots, hence touches at once.
    public static let slotCount: Int32 = 10
    /// `ABS_MT_PRESSURE`'s maximum.
    public static let pressureMaximum: Int32 = 255
    /// `BUS_VIRTUAL`.
    public static let busVirtual: UInt16 = 0x06
    /// The kernel's limit on a uinput device's name, with its terminating zero (`UINPUT_MAX_NAME_SIZE`).
    static let nameLimit = 79
    static let physLimit = 63

    /// The window it stands for.
    public var window: String
    /// `touchd virtual touchscreen WINDOW` (at most 79 bytes).
    public var name: String
    /// `touchd/WINDOW` (at most 63 bytes).
    public var phys: String
    public var bus: UInt16 = busVirtual
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var version: UInt16 = 1
    /// The window's size in points.
    public var size: Size
    public var axes: [VirtualAxis]
    /// `EV_KEY` codes.
    public var keys: [UInt16] = [KeyCode.btnTouch]
    /// `INPUT_PROP_*` bits.
    public var properties: [UInt16] = [InputProperty.direct]

    /// The device for a window of `size` points at `pointsPerMillimetre`.
    public init(window: String, size: Size, pointsPerMillimetre: Double) {
        self.window = window
        name = Self.truncated("\(Self.namePrefix) \(window)", toBytes: Self.nameLimit)
        phys = Self.truncated(Self.physPrefix + window, toBytes: Self.physLimit)
        self.size = size
        let maxX = Self.units(size.width) - 1
        let maxY = Self.units(size.height) - 1
        let resolution = Self.units(pointsPerMillimetre)
        let major = max(maxX, maxY)
        axes = [
            VirtualAxis(code: AbsCode.x, minimum: 0, maximum: maxX, resolution: resolution),
            VirtualAxis(code: AbsCode.y, minimum: 0, maximum: maxY, resolution: resolution),
            VirtualAxis(code: AbsCode.mtSlot, minimum: 0, maximum: Self.slotCount - 1),
            VirtualAxis(code: AbsCode.mtTouchMajor, minimum: 0, maximum: major, resolution: resolution),
            VirtualAxis(code: AbsCode.mtPositionX, minimum: 0, maximum: maxX, resolution: resolution),
            VirtualAxis(code: AbsCode.mtPositionY, minimum: 0, maximum: maxY, resolution: resolution),
            VirtualAxis(code: AbsCode.mtToolType, minimum: 0, maximum: MTToolType.palm),
            VirtualAxis(code: AbsCode.mtTrackingID, minimum: 0, maximum: 65_535),
            VirtualAxis(code: AbsCode.mtPressure, minimum: 0, maximum: Self.pressureMaximum),
        ]
    }

    /// Whether a device of this name is one of touchd's virtual touchscreens.
    public static func isVirtualTouchscreen(name: String) -> Bool { name.hasPrefix(namePrefix) }

    /// The axis of `code`.
    public func axis(_ code: UInt16) -> VirtualAxis? { axes.first { $0.code == code } }

    /// `points` in axis units (rounded; at least 1 for a positive length), within `0...Int32.max`:
    /// window sizes and points per millimetre are checked where the layout is read, far below it.
    static func units(_ points: Double) -> Int32 {
        let scaled = (points * unitsPerPoint).rounded()
        guard scaled.isFinite, scaled > 0 else { return points > 0 ? 1 : 0 }
        guard scaled < Double(Int32.max) else { return Int32.max }
        return Int32(scaled)
    }

    /// `text` cut to at most `limit` UTF-8 bytes, between characters.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit { break }
            result.append(character)
            bytes += size
        }
        return result
    }
}
