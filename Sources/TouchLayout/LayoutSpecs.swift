import TouchCore
import TouchEvdev

// The input devices of a layout file: which devices feed which window, and how their
// coordinates map. docs/layout.md describes the TOML keys.

/// The kind of input device a `[[device]]` entry accepts (`match.kind`): the filter over the one
/// device kind, `TouchEvdev.DeviceKind`.
public typealias DeviceKindSpec = DeviceKindFilter

/// A USB vendor and product id (`match.usb = "03eb:8c1f"`).
public struct USBID: Hashable, Sendable, CustomStringConvertible {
    public var vendor: UInt16
    public var product: UInt16

    public init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// Parses `"vvvv:pppp"`: exactly four hexadecimal digits on each side, any case.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && $0.allSatisfy(\.isHexDigit) }),
            let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
        else { return nil }
        self.init(vendor: vendor, product: product)
    }

    /// `"vvvv:pppp"` in lower-case hexadecimal.
    public var description: String { Self.hex4(vendor) + ":" + Self.hex4(product) }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// `match`: which input devices a `[[device]]` entry takes. Every criterion given must hold;
/// an empty match takes every device of the kind.
public struct DeviceMatchSpec: Hashable, Sendable {
    /// `kind`. Default `.any`.
    public var kind: DeviceKindSpec
    /// `name`: a glob over the device name (`*`, `?`, `[...]`, `\` escapes).
    public var name: String?
    /// `usb`: the USB vendor and product.
    public var usb: USBID?
    /// `id_path`: udev's `ID_PATH`, compared exactly.
    public var idPath: String?
    /// `id_serial`: udev's `ID_SERIAL`, compared exactly.
    public var idSerial: String?
    /// `devnode`: the device node, e.g. `/dev/input/event5`, compared exactly.
    public var devnode: String?

    public init(
        kind: DeviceKindSpec = .any, name: String? = nil, usb: USBID? = nil, idPath: String? = nil,
        idSerial: String? = nil, devnode: String? = nil
    ) {
        self.kind = kind
        self.name = name
        self.usb = usb
        self.idPath = idPath
        self.idSerial = idSerial
        self.devnode = devnode
    }

    /// Whether `deviceName` matches the `name` glob (true when there is no glob).
    public func nameMatches(_ deviceName: String) -> Bool {
        guard let name else { return true }
        return Glob.matches(pattern: Array(name.unicodeScalars), Array(deviceName.unicodeScalars))
    }
}

/// One `[[device]]`: which input devices feed which window, and how their coordinates map.
public struct DeviceSpec: Hashable, Sendable {
    public var match: DeviceMatchSpec
    /// `window`: the id of the window touches go to. Empty for a key device or an accelerometer
    /// without `window`: its events go to the key window.
    public var window: String
    /// `region`: the part of the window (in window points) the device surface maps onto;
    /// nil means the whole window.
    public var region: Rect?
    /// `rotation`: how the device's axes are turned, clockwise, before mapping onto the window.
    /// Default `.none`.
    public var rotation: Rotation
    /// `swap_axes`. Default false.
    public var swapAxes: Bool
    /// `invert_x`. Default false.
    public var invertX: Bool
    /// `invert_y`. Default false.
    public var invertY: Bool
    /// `calibration`: a libinput calibration matrix, six finite numbers `[a, b, c, d, e, f]`.
    public var calibration: [Double]?
    /// `udev_calibration`: use udev's `LIBINPUT_CALIBRATION_MATRIX` when present and no
    /// `calibration` is given. Default true.
    public var usesUdevCalibration: Bool
    /// `pointercal`: a tslib calibration file, already resolved against the layout file's directory.
    public var pointercal: String?
    /// The calibration in the `pointercal` file, read and parsed with the layout (the layout's
    /// loader in the daemon fills it in); nil until then, and when there is no `pointercal`.
    public var pointercalContents: Pointercal?
    /// `calibration_file`: the file a calibration session writes and the entry's matrix is read
    /// from (``TouchEvdev/CalibrationFile``), resolved against the layout file's directory.
    public var calibrationFile: String?
    /// The matrix of the `calibration_file`, read with the layout (nil when the file does not exist
    /// yet), or the one a calibration session applied since: it comes before every other
    /// calibration of the entry.
    public var calibrationFileMatrix: CalibrationMatrix?
    /// `grab`: grab the device exclusively. Default true.
    public var grab: Bool
    /// `ignore`: the devices this entry takes are left alone (not read, not grabbed), and later
    /// entries do not get them: how a layout keeps a pen node out of a touchscreen entry.
    public var ignore = false
    /// `palm_pressure`: contacts at or above this pressure (device units) are palms.
    public var palmPressure: Int?
    /// `palm_touch_major`: contacts at or above this touch-major (device units) are palms.
    public var palmTouchMajor: Int?
    /// `shake_threshold_g`, `shake_duration`, `shake_settle`: when an accelerometer's movement is a
    /// shake.
    public var shake = ShakeSpec()

    public init(
        match: DeviceMatchSpec = DeviceMatchSpec(), window: String, region: Rect? = nil,
        rotation: Rotation = .none, swapAxes: Bool = false, invertX: Bool = false,
        invertY: Bool = false, calibration: [Double]? = nil, usesUdevCalibration: Bool = true,
        pointercal: String? = nil, grab: Bool = true, palmPressure: Int? = nil,
        palmTouchMajor: Int? = nil
    ) {
        self.match = match
        self.window = window
        self.region = region
        self.rotation = rotation
        self.swapAxes = swapAxes
        self.invertX = invertX
        self.invertY = invertY
        self.calibration = calibration
        self.usesUdevCalibration = usesUdevCalibration
        self.pointercal = pointercal
        self.grab = grab
        self.palmPressure = palmPressure
        self.palmTouchMajor = palmTouchMajor
    }
}

/// An accelerometer's shake settings (`[[device]]` with `match.kind = "accelerometer"`): the
/// decoder's own settings: `shake_threshold_g` is `thresholdG`, `shake_duration` is
/// `minimumDuration` and `shake_settle` is `settle`, with the decoder's defaults.
public typealias ShakeSpec = ShakeSettings
