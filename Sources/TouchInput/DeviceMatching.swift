import TouchEvdev
import TouchLayout

/// The outcome of matching one device against the layout's `[[device]]` entries.
public enum DeviceMatch: Hashable, Sendable {
    /// The first entry (by file order) whose every criterion holds.
    case matched(index: Int, spec: DeviceSpec)
    /// No entry took the device, with the reason each one gave.
    case unmatched(reasons: [String])
    /// The first entry that takes the device says to leave it alone (`ignore = true`).
    case ignored(index: Int)
    /// One of touchd's own virtual touchscreens (what it forwards touches to): never read, whatever
    /// the layout says, or every forwarded touch would come back in.
    case virtualTouchscreen

    /// A sentence for `touchd devices` and the logs.
    public var explanation: String {
        switch self {
        case .matched(let index, let spec): "device[\(index)] → window \(spec.window.isEmpty ? "(the key window)" : spec.window)"
        case .unmatched(let reasons):
            reasons.isEmpty ? "no [[device]] entry in the layout" : "no entry matched: " + reasons.joined(separator: "; ")
        case .ignored(let index): "device[\(index)] takes it and ignores it (ignore = true)"
        case .virtualTouchscreen: "touchd's own virtual touchscreen (forwarded touches): never read"
        }
    }
}

/// Chooses the layout entry for a device: the first `[[device]]` whose criteria all hold.
public enum DeviceMatcher {
    /// The first entry of `specs` that takes `device`, or every entry's reason for not taking it.
    public static func match(_ device: DeviceFacts, in specs: [DeviceSpec]) -> DeviceMatch {
        if VirtualTouchscreenDescription.isVirtualTouchscreen(name: device.name) { return .virtualTouchscreen }
        var reasons: [String] = []
        for (index, spec) in specs.enumerated() {
            if let reason = mismatch(device, spec.match) {
                reasons.append("device[\(index)]: \(reason)")
            } else {
                return spec.ignore ? .ignored(index: index) : .matched(index: index, spec: spec)
            }
        }
        return .unmatched(reasons: reasons)
    }

    /// Why `device` does not satisfy `match`, or `nil` when it does.
    static func mismatch(_ device: DeviceFacts, _ match: DeviceMatchSpec) -> String? {
        if let reason = match.kind.rejection(of: device.kind) { return reason }
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
