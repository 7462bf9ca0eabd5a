/// The range and resolution of one absolute axis: the Swift counterpart of `struct input_absinfo`.
public struct AbsInfo: Hashable, Sendable {
    /// The lowest value the axis reports (it may be negative: bcm5974).
    public var minimum: Int32
    /// The highest value the axis reports.
    public var maximum: Int32
    /// Noise the kernel filters out; libinput uses half of it as jitter hysteresis.
    public var fuzz: Int32
    /// The dead zone around the centre (joysticks).
    public var flat: Int32
    /// Units per millimetre (0 when the device does not say).
    public var resolution: Int32
    /// The axis's value when the description was taken.
    public var value: Int32

    /// An axis; everything but the range defaults to 0.
    public init(
        minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0,
        value: Int32 = 0
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
        self.value = value
    }
}

/// What a device is: its identity and capabilities, as libevdev reports them or as a recording's
/// description (`N:`, `I:`, `P:`, `B:`, `A:` lines) gives them.
public struct DeviceDescription: Hashable, Sendable {
    /// The kernel's device name (firmware may put anything there, control characters included).
    public var name: String
    /// The bus type (`BUS_USB` = 3, `BUS_I2C` = 0x18, ...).
    public var bus: UInt16
    /// The vendor id.
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The version number.
    public var version: UInt16
    /// Input properties (`INPUT_PROP_DIRECT`, `INPUT_PROP_SEMI_MT`, ...).
    public var properties: Set<UInt16>
    /// Supported codes by event type.
    public var codes: [UInt16: Set<UInt16>]
    /// Absolute axes by code.
    public var absInfo: [UInt16: AbsInfo]

    /// A description; everything but the name defaults to empty.
    public init(
        name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]
    ) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    /// Whether the device reports `code` of event type `type`.
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
}
