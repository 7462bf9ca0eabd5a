import CEvdev
import TouchEvdev

extension EvdevDevice {
    /// The event types whose codes a description lists, with their code counts.
    private static let describedTypes: [(type: UInt32, count: UInt32)] = [
        (UInt32(EV_SYN), UInt32(SYN_CNT)), (UInt32(EV_KEY), UInt32(KEY_CNT)), (UInt32(EV_REL), UInt32(REL_CNT)),
        (UInt32(EV_ABS), UInt32(ABS_CNT)), (UInt32(EV_MSC), UInt32(MSC_CNT)), (UInt32(EV_SW), UInt32(SW_CNT)),
    ]

    /// Reads name, ids, properties, codes and absolute axes from a libevdev handle.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var description = DeviceDescription(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, property) == 1 {
            description.properties.insert(UInt16(property))
        }
        for (type, count) in describedTypes where libevdev_has_event_type(dev, type) == 1 {
            var codes: Set<UInt16> = []
            for code in 0..<count where libevdev_has_event_code(dev, type, code) == 1 { codes.insert(UInt16(code)) }
            description.codes[UInt16(type)] = codes
        }
        for code in description.codes[UInt16(EV_ABS)] ?? [] {
            guard let info = libevdev_get_abs_info(dev, UInt32(code)) else { continue }
            description.absInfo[code] = AbsInfo(
                minimum: info.pointee.minimum, maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                flat: info.pointee.flat, resolution: info.pointee.resolution, value: info.pointee.value)
        }
        return description
    }
}
