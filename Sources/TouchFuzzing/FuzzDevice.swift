import TouchCore
import TouchEvdev

/// A device description chosen by fuzzer bytes: touch devices of every protocol, with or without
/// the optional axes and keys, and axis ranges from plain to extreme.
enum FuzzDevice {
    static func description(from input: inout FuzzBytes) -> DeviceDescription {
        let kind = input.byte()
        let flags = input.byte()
        var absInfo: [UInt16: AbsInfo] = [AbsCode.x: range(&input), AbsCode.y: range(&input)]
        var keys: Set<UInt16> = []
        if flags & 0x01 != 0 { keys.insert(KeyCode.btnTouch) }
        if flags & 0x02 != 0 { keys.formUnion([KeyCode.btnToolFinger, KeyCode.btnToolDoubleTap, KeyCode.btnToolTripleTap]) }
        if flags & 0x04 != 0 { absInfo[AbsCode.pressure] = range(&input) }
        switch kind % 3 {
        case 0:
            absInfo[AbsCode.mtPositionX] = range(&input)
            absInfo[AbsCode.mtPositionY] = range(&input)
            absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
            absInfo[AbsCode.mtSlot] = slots(&input, huge: flags & 0x80 != 0)
            addMultitouchAxes(&absInfo, flags: flags, input: &input)
        case 1:
            absInfo[AbsCode.mtPositionX] = range(&input)
            absInfo[AbsCode.mtPositionY] = range(&input)
            if flags & 0x40 != 0 { absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535) }
            addMultitouchAxes(&absInfo, flags: flags, input: &input)
        default:
            break
        }
        let properties: Set<UInt16> = flags & 0x20 != 0 ? [InputProperty.direct, InputProperty.semiMT] : [InputProperty.direct]
        return DeviceDescription(
            name: "fuzz device", properties: properties,
            codes: [
                EventType.syn: [SynCode.report, SynCode.mtReport, SynCode.dropped], EventType.key: keys,
                EventType.abs: Set(absInfo.keys),
            ],
            absInfo: absInfo)
    }

    private static func addMultitouchAxes(_ absInfo: inout [UInt16: AbsInfo], flags: UInt8, input: inout FuzzBytes) {
        if flags & 0x08 != 0 { absInfo[AbsCode.mtPressure] = range(&input) }
        if flags & 0x10 != 0 { absInfo[AbsCode.mtTouchMajor] = range(&input) }
        if flags & 0x40 != 0 { absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2) }
    }

    /// `ABS_MT_SLOT`: 1 to 256 slots, or (`huge`) a declared count far past the limit; its value
    /// (the slot the first events go to) may be any.
    private static func slots(_ input: inout FuzzBytes, huge: Bool) -> AbsInfo {
        let count = Int32(input.byte())
        let maximum = huge ? Int32.max - Int32(input.byte()) : count
        return AbsInfo(minimum: 0, maximum: maximum, value: Int32(truncatingIfNeeded: Int8(bitPattern: input.byte())))
    }

    /// An axis range: a plain one, an inverted, empty or negative one, or the 32-bit extremes.
    private static func range(_ input: inout FuzzBytes) -> AbsInfo {
        switch input.byte() % 8 {
        case 0, 1, 2: AbsInfo(minimum: 0, maximum: 4095, resolution: 10)
        case 3: AbsInfo(minimum: Int32.min, maximum: Int32.max, fuzz: Int32.max)
        case 4: AbsInfo(minimum: 100, maximum: 100)
        case 5: AbsInfo(minimum: 1000, maximum: -1000)
        case 6: AbsInfo(minimum: -32768, maximum: -1, flat: 8)
        default: AbsInfo(minimum: input.int32(), maximum: input.int32(), fuzz: input.int32(), resolution: input.int32())
        }
    }
}
