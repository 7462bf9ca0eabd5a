/// A device's identity that survives unplugging and plugging it back in (its event number and
/// sysfs path do not).
///
/// Made of, in order and `/`-separated: the port (`ID_PATH`, else the kernel's `phys`), the serial
/// (`ID_SERIAL`, udev's `noserial` left out), `vendor:product` in 4 hex digits, and the name. Two
/// identical devices on different ports differ; the same device on the same port is the same.
/// Virtual devices (uinput, uhid) have neither port nor serial: their identity is ids and name.
public enum StableIdentity {
    /// The identity from its parts.
    ///
    /// - Parameters:
    ///   - name: The kernel's device name.
    ///   - vendor: The vendor id.
    ///   - product: The product id.
    ///   - properties: udev's properties (`ID_PATH`, `ID_SERIAL`); empty without udevd.
    ///   - physicalPath: The kernel's `phys`, used when udev gives no `ID_PATH`.
    public static func of(name: String, vendor: UInt16, product: UInt16, properties: [String: String], physicalPath: String?) -> String {
        var parts: [String] = []
        if let path = properties["ID_PATH"], !path.isEmpty {
            parts.append(path)
        } else if let phys = physicalPath, !phys.isEmpty {
            parts.append(phys)
        }
        if let serial = properties["ID_SERIAL"], !serial.isEmpty, serial != "noserial" { parts.append(serial) }
        parts.append(hex4(vendor) + ":" + hex4(product))
        parts.append(name)
        return parts.joined(separator: "/")
    }

    /// `identity`, or when a device present already has it, `identity#2`, `identity#3`, ...: the
    /// first one free among `present`.
    public static func distinct(_ identity: String, from present: Set<String>) -> String {
        guard present.contains(identity) else { return identity }
        var n = 2
        while present.contains("\(identity)#\(n)") { n += 1 }
        return "\(identity)#\(n)"
    }

    static func hex4(_ value: UInt16) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }
}
