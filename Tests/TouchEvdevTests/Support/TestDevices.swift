import TouchEvdev

/// Devices as data: small descriptions for synthetic streams.
enum TestDevices {
    /// A protocol-B touchscreen, 0…1000 on both axes, with optional extra axes.
    static func slotted(
        slots: Int32 = 5, toolType: Bool = false, pressure: Bool = false, touchMajor: Bool = false,
        initialSlot: Int32 = 0
    ) -> DeviceDescription {
        var absInfo: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: slots - 1, value: initialSlot),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        if toolType { absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2) }
        if pressure { absInfo[AbsCode.mtPressure] = AbsInfo(minimum: 0, maximum: 255) }
        if touchMajor { absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255) }
        return DeviceDescription(
            name: "test slotted touchscreen", properties: [InputProperty.direct],
            codes: [
                EventType.syn: [SynCode.report, SynCode.dropped],
                EventType.key: [KeyCode.btnTouch],
                EventType.abs: Set(absInfo.keys),
            ],
            absInfo: absInfo)
    }

    /// A protocol-A touchscreen (no slots), 0…1000.
    static func anonymous(trackingID: Bool = false) -> DeviceDescription {
        var absInfo: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
        ]
        if trackingID { absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535) }
        return DeviceDescription(
            name: "test protocol-A touchscreen",
            codes: [
                EventType.syn: [SynCode.report, SynCode.mtReport],
                EventType.key: [KeyCode.btnTouch],
                EventType.abs: Set(absInfo.keys),
            ],
            absInfo: absInfo)
    }

    /// A single-touch screen signalling touch with `key` (BTN_TOUCH or BTN_LEFT), or with pressure
    /// when `key` is nil.
    static func singleTouch(key: UInt16?) -> DeviceDescription {
        var absInfo: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
        ]
        if key == nil { absInfo[AbsCode.pressure] = AbsInfo(minimum: 0, maximum: 255) }
        return DeviceDescription(
            name: "test single-touch screen",
            codes: [
                EventType.syn: [SynCode.report],
                EventType.key: key.map { [$0] } ?? [],
                EventType.abs: Set(absInfo.keys),
            ],
            absInfo: absInfo)
    }
}
