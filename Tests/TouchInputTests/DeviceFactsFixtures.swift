import TouchEvdev

extension DeviceFacts {
    /// The facts of a device made from the parts matching reads: classified as `kind` by the udev
    /// property that says so (none for `other`), on node `devnode` (nil: a recording's device).
    static func matching(
        name: String, vendor: UInt16 = 0, product: UInt16 = 0, kind: DeviceKind, idPath: String? = nil, idSerial: String? = nil,
        devnode: String? = nil
    ) -> DeviceFacts {
        var properties: [String: String] = [:]
        let property: String? =
            switch kind {
            case .touchscreen: "ID_INPUT_TOUCHSCREEN"
            case .touchpad: "ID_INPUT_TOUCHPAD"
            case .tablet: "ID_INPUT_TABLET"
            case .keys: "ID_INPUT_KEY"
            case .accelerometer: "ID_INPUT_ACCELEROMETER"
            case .other: nil
            }
        if let property { properties[property] = "1" }
        if let idPath { properties["ID_PATH"] = idPath }
        if let idSerial { properties["ID_SERIAL"] = idSerial }
        let description = DeviceDescription(name: name, vendor: vendor, product: product)
        guard let devnode else { return DeviceFacts(description: description, origin: .recording(udevProperties: properties)) }
        let udev = UdevInputDevice(syspath: "/sys/devices/virtual/input/input1/event1", devnode: devnode, properties: properties, isInitialized: true)
        return DeviceFacts(description: description, origin: .node(udev, physicalPath: nil))
    }
}
