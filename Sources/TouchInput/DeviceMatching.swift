import TouchLayout

/// What the daemon knows of an input device when choosing its layout entry.
public struct DeviceFacts: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case touchscreen
        case touchpad
        /// A keyboard, media keys or a remote-control receiver.
        case keys
        /// An accelerometer.
        case accelerometer
        case other

        /// Whether the device is a touch surface.
        public var isTouch: Bool { self == .touchscreen || self == .touchpad }
    }

    public var name: String
    public var vendor: UInt16
    public var product: UInt16
    public var kind: Kind
    public var idPath: String?
    public var idSerial: String?
    public var devnode: String?

    public init(
        name: String, vendor: UInt16 = 0, product: UInt16 = 0, kind: Kind, idPath: String? = nil, idSerial: String? = nil,
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
}

/// The outcome of matching one device against the layout's `[[device]]` entries.
public enum DeviceMatch: Hashable, Sendable {
    /// The first entry (by file order) whose every criterion holds.
    case matched(index: Int, spec: DeviceSpec)
    /// No entry took the device, with the reason each one gave.
    case unmatched(reasons: [String])

    /// A sentence for `touchd devices` and the logs.
    public var explanation: String {
        switch self {
        case .matched(let index, let spec): "device[\(index)] → window \(spec.window.isEmpty ? "(the key window)" : spec.window)"
        case .unmatched(let reasons):
            reasons.isEmpty ? "no [[device]] entry in the layout" : "no entry matched: " + reasons.joined(separator: "; ")
        }
    }
}

/// Chooses the layout entry for a device: the first `[[device]]` whose criteria all hold.
public enum DeviceMatcher {
    public static func match(_ device: DeviceFacts, in specs: [DeviceSpec]) -> DeviceMatch {
        var reasons: [String] = []
        for (index, spec) in specs.enumerated() {
            if let reason = mismatch(device, spec.match) {
                reasons.append("device[\(index)]: \(reason)")
            } else {
                return .matched(index: index, spec: spec)
            }
        }
        return .unmatched(reasons: reasons)
    }

    /// Why `device` does not satisfy `match`, or `nil` when it does.
    static func mismatch(_ device: DeviceFacts, _ match: DeviceMatchSpec) -> String? {
        switch match.kind {
        case .any:
            if !device.kind.isTouch { return "not a touchscreen or touchpad" }
        case .touchscreen, .touchpad, .keys, .accelerometer:
            if device.kind.rawValue != match.kind.rawValue { return "kind is \(device.kind.rawValue), not \(match.kind.rawValue)" }
        }
        if !match.nameMatches(device.name) { return "name \"\(device.name)\" does not match \"\(match.name ?? "")\"" }
        if let usb = match.usb, usb.vendor != device.vendor || usb.product != device.product {
            return "usb id \(USBID(vendor: device.vendor, product: device.product)) is not \(usb)"
        }
        if let path = match.idPath, path != device.idPath { return "ID_PATH \(device.idPath ?? "(none)") is not \(path)" }
        if let serial = match.idSerial, serial != device.idSerial { return "ID_SERIAL \(device.idSerial ?? "(none)") is not \(serial)" }
        if let node = match.devnode, node != device.devnode { return "device node \(device.devnode ?? "(none)") is not \(node)" }
        return nil
    }
}
