import CEvdev
import TouchEvdev

extension EvdevDevice {
    /// Every event type libevdev knows codes of, with the kernel's code count for it.
    private static let codeCounts: [(type: UInt16, count: Int32)] = [
        (EventType.syn, SYN_CNT), (EventType.key, KEY_CNT), (EventType.rel, REL_CNT), (EventType.abs, ABS_CNT),
        (EventType.msc, MSC_CNT), (EventType.sw, SW_CNT), (EventType.led, LED_CNT), (EventType.snd, SND_CNT),
        (EventType.rep, REP_CNT), (EventType.ff, FF_CNT),
    ]

    /// The event types whose codes a description lists.
    private static let describedTypes: Set<UInt16> = [EventType.syn, EventType.key, EventType.rel, EventType.abs, EventType.msc, EventType.sw]

    /// The codes the device announces, by type (every type libevdev knows codes of), read once
    /// when it is opened for both its description and its state.
    static func announcedCodes(of dev: OpaquePointer) -> [UInt16: Set<UInt16>] {
        var codes: [UInt16: Set<UInt16>] = [:]
        for (type, count) in codeCounts where libevdev_has_event_type(dev, UInt32(type)) == 1 {
            var typeCodes: Set<UInt16> = []
            // The kernel's code counts are small positive constants (KEY_CNT, 768, the largest).
            for code in 0..<UInt16(truncatingIfNeeded: count) where libevdev_has_event_code(dev, UInt32(type), UInt32(code)) == 1 {
                typeCodes.insert(code)
            }
            codes[type] = typeCodes
        }
        return codes
    }

    /// Reads name, ids, properties and absolute axes from a libevdev handle, with the codes of
    /// the described types among `codes` (``announcedCodes(of:)``).
    static func describe(_ dev: OpaquePointer, codes: [UInt16: Set<UInt16>]) -> DeviceDescription {
        var description = DeviceDescription(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, property) == 1 {
            description.properties.insert(UInt16(property))
        }
        description.codes = codes.filter { describedTypes.contains($0.key) }
        for code in description.codes[EventType.abs] ?? [] {
            guard let info = libevdev_get_abs_info(dev, UInt32(code)) else { continue }
            description.absInfo[code] = AbsInfo(
                minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                flat: info.pointee.flat, resolution: info.pointee.resolution, value: info.pointee.value)
        }
        return description
    }
}

extension EvdevDevice {
    /// The device's one description: what libevdev read when it was opened, with udev's view of
    /// its node (`udev`, from the enumeration or the hotplug event that named it), classified.
    public func facts(udev: UdevInputDevice) -> DeviceFacts {
        DeviceFacts(description: description, origin: .node(udev, physicalPath: physicalPath))
    }
}
