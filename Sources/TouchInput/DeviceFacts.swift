import TouchEvdev

/// What the daemon knows of an input device when choosing its layout entry.
public struct DeviceFacts: Hashable, Sendable {
    /// The kernel's device name.
    public var name: String
    /// The vendor id.
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// What the device is (``TouchEvdev/DeviceClassification``).
    public var kind: DeviceKind
    /// udev's `ID_PATH`, when known.
    public var idPath: String?
    /// udev's `ID_SERIAL`, when known.
    public var idSerial: String?
    /// The event node, for a live device.
    public var devnode: String?

    /// Facts given one by one.
    public init(
        name: String, vendor: UInt16 = 0, product: UInt16 = 0, kind: DeviceKind, idPath: String? = nil, idSerial: String? = nil,
        devnode: String? = nil
    ) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.kind = kind
        self.idPath = idPath
        self.idSerial = idSerial
        self.devnode = devnode
    }

    /// What matching needs to know, from a description, the `kind` the device was classified as
    /// (by ``TouchEvdev/DeviceClassification``, the one classifier, once per device) and udev's
    /// properties.
    public init(description: DeviceDescription, kind: DeviceKind, udevProperties: [String: String], devnode: String?) {
        self.init(
            name: description.name, vendor: description.vendor, product: description.product, kind: kind,
            idPath: udevProperties["ID_PATH"], idSerial: udevProperties["ID_SERIAL"], devnode: devnode)
    }
}
