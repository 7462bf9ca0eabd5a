import Testing
import TouchCore
import TouchEvdev

/// A synthetic device as data, as libinput's litest devices are: its protocol, axes and extras.
/// Decoder tests run across every device that has what they need (`TestDevice.all.filter`).
struct TestDevice: Sendable, CustomTestStringConvertible {
    enum Contacts: Sendable {
        /// Protocol B with this many slots.
        case slotted(slots: Int32)
        /// Protocol A, with or without `ABS_MT_TRACKING_ID`.
        case anonymous(trackingIDs: Bool)
        /// One contact from `ABS_X`/`ABS_Y`, down while the signal says so.
        case singleTouch(TouchSignal)
    }

    let name: String
    let contacts: Contacts
    let x: AbsInfo
    let y: AbsInfo
    /// `ABS_MT_PRESSURE` for multi-touch devices, `ABS_PRESSURE` for single-touch ones.
    var pressure: AbsInfo? = nil
    /// `ABS_MT_TOUCH_MAJOR`.
    var touchMajor: AbsInfo? = nil
    var toolType = false
    var properties: Set<UInt16> = [InputProperty.direct]

    var testDescription: String { name }

    /// How many fingers the device reports at once (at most five are used by the tests).
    var maximumContacts: Int {
        switch contacts {
        case .slotted(let slots): min(Int(slots), 5)
        case .anonymous: 5
        case .singleTouch: 1
        }
    }

    var isSlotted: Bool {
        if case .slotted = contacts { return true }
        return false
    }

    var description: DeviceDescription {
        var absInfo: [UInt16: AbsInfo] = [:]
        var keys: Set<UInt16> = []
        switch contacts {
        case .slotted(let slots):
            absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: slots - 1)
            absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
            absInfo[AbsCode.mtPositionX] = x
            absInfo[AbsCode.mtPositionY] = y
            keys.insert(KeyCode.btnTouch)
        case .anonymous(let trackingIDs):
            if trackingIDs { absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535) }
            absInfo[AbsCode.mtPositionX] = x
            absInfo[AbsCode.mtPositionY] = y
            keys.insert(KeyCode.btnTouch)
        case .singleTouch(let signal):
            if signal == .touchKey { keys.insert(KeyCode.btnTouch) }
            if signal == .leftButton { keys.insert(KeyCode.btnLeft) }
        }
        absInfo[AbsCode.x] = x
        absInfo[AbsCode.y] = y
        if let pressure { absInfo[isMultitouch ? AbsCode.mtPressure : AbsCode.pressure] = pressure }
        if let touchMajor, isMultitouch { absInfo[AbsCode.mtTouchMajor] = touchMajor }
        if toolType, isMultitouch { absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2) }
        return DeviceDescription(
            name: name, properties: properties,
            codes: [EventType.syn: [SynCode.report, SynCode.mtReport, SynCode.dropped], EventType.key: keys, EventType.abs: Set(absInfo.keys)],
            absInfo: absInfo)
    }

    var isMultitouch: Bool {
        if case .singleTouch = contacts { return false }
        return true
    }

    /// The device value at `fraction` (0…1) of an axis, computed without overflow.
    static func value(_ fraction: Double, of axis: AbsInfo) -> Int32 {
        let value = Double(axis.minimum) + fraction * (Double(axis.maximum) - Double(axis.minimum))
        return Int32(clamping: Int(rounding: value, clampedTo: Int(Int32.min)...Int(Int32.max)))
    }

    /// The devices, from libinput's litest set (real axis ranges) and a few that stretch the
    /// domain (32-bit extremes, a fuzz wider than the range, negative ranges).
    static let all: [TestDevice] = [
        TestDevice(name: "calibrated touchscreen (B, 10 slots)", contacts: .slotted(slots: 10),
            x: AbsInfo(minimum: 0, maximum: 1500), y: AbsInfo(minimum: 0, maximum: 2500)),
        TestDevice(name: "Nexus 4 (B, pressure, touch major)", contacts: .slotted(slots: 10),
            x: AbsInfo(minimum: 0, maximum: 1500), y: AbsInfo(minimum: 0, maximum: 2500),
            pressure: AbsInfo(minimum: 0, maximum: 255), touchMajor: AbsInfo(minimum: 0, maximum: 15)),
        TestDevice(name: "Dell Canvas (B, tool type, resolution)", contacts: .slotted(slots: 5),
            x: AbsInfo(minimum: 0, maximum: 32767, resolution: 55), y: AbsInfo(minimum: 0, maximum: 32767, resolution: 98),
            toolType: true),
        TestDevice(name: "bcm5974 touchpad (B, negative ranges)", contacts: .slotted(slots: 16),
            x: AbsInfo(minimum: -4824, maximum: 4824), y: AbsInfo(minimum: -172, maximum: 4290),
            pressure: AbsInfo(minimum: 0, maximum: 2048), touchMajor: AbsInfo(minimum: 0, maximum: 2048),
            properties: [InputProperty.buttonpad]),
        TestDevice(name: "two slots, 32-bit extremes", contacts: .slotted(slots: 2),
            x: AbsInfo(minimum: Int32.min, maximum: Int32.max), y: AbsInfo(minimum: Int32.min, maximum: Int32.max, fuzz: Int32.max),
            pressure: AbsInfo(minimum: Int32.min, maximum: Int32.max), touchMajor: AbsInfo(minimum: Int32.min, maximum: Int32.max, fuzz: Int32.max)),
        TestDevice(name: "one slot, fuzz wider than the range", contacts: .slotted(slots: 1),
            x: AbsInfo(minimum: 0, maximum: 3, fuzz: 1000, resolution: 0), y: AbsInfo(minimum: 0, maximum: 3, fuzz: 1000)),
        TestDevice(name: "protocol A screen (pressure)", contacts: .anonymous(trackingIDs: false),
            x: AbsInfo(minimum: 0, maximum: 32767), y: AbsInfo(minimum: 0, maximum: 32767),
            pressure: AbsInfo(minimum: 0, maximum: 1)),
        TestDevice(name: "protocol A with tracking ids", contacts: .anonymous(trackingIDs: true),
            x: AbsInfo(minimum: 0, maximum: 1000), y: AbsInfo(minimum: 0, maximum: 1000)),
        TestDevice(name: "generic single-touch (BTN_TOUCH)", contacts: .singleTouch(.touchKey),
            x: AbsInfo(minimum: 10000, maximum: 20000, resolution: 10), y: AbsInfo(minimum: -2000, maximum: 2000, resolution: 9)),
        TestDevice(name: "single-touch with BTN_LEFT", contacts: .singleTouch(.leftButton),
            x: AbsInfo(minimum: 0, maximum: 4095), y: AbsInfo(minimum: 0, maximum: 4095), properties: []),
        TestDevice(name: "resistive single-touch (pressure only)", contacts: .singleTouch(.pressure),
            x: AbsInfo(minimum: 0, maximum: 4095), y: AbsInfo(minimum: 0, maximum: 4095),
            pressure: AbsInfo(minimum: 0, maximum: 255), properties: []),
    ]

    static var multiContact: [TestDevice] { all.filter { $0.maximumContacts >= 2 } }
    static var slotted: [TestDevice] { all.filter(\.isSlotted) }
    static var withPressure: [TestDevice] { all.filter { $0.pressure != nil } }
}

/// Writes frames for a ``TestDevice`` as its driver would: fingers by number, at fractions of the
/// axes; the protocol decides the events.
struct TouchWriter {
    let device: TestDevice
    var script = EventScript()
    /// The fingers down after the last frame, by number, with their tracking ids.
    private var down: [Int: Int32] = [:]
    private var nextTrackingID: Int32 = 100

    init(_ device: TestDevice) { self.device = device }

    /// Ends a frame in which exactly `fingers` are down (finger number → position as fractions).
    /// A finger that lands gets a tracking id never used before.
    mutating func frame(_ fingers: [Int: (x: Double, y: Double)], pressure: Double = 0.1) {
        let wasDown = !down.isEmpty
        var ids = down.filter { fingers[$0.key] != nil }
        for finger in fingers.keys.sorted() where ids[finger] == nil {
            ids[finger] = nextTrackingID
            nextTrackingID += 1
        }
        switch device.contacts {
        case .slotted: slottedFrame(fingers, ids: ids, pressure: pressure)
        case .anonymous(let trackingIDs): anonymousFrame(fingers, ids: trackingIDs ? ids : [:], pressure: pressure)
        case .singleTouch(let signal): singleFrame(fingers[0], signal: signal, pressure: pressure)
        }
        down = ids
        if device.isMultitouch, wasDown != !down.isEmpty { script.key(KeyCode.btnTouch, down.isEmpty ? 0 : 1) }
        script.syn()
    }

    /// Takes the events written so far.
    mutating func take() -> [InputEvent] { script.take() }

    private mutating func extras(pressure: Double) {
        if let axis = device.pressure { script.abs(AbsCode.mtPressure, TestDevice.value(pressure, of: axis)) }
        if let axis = device.touchMajor { script.abs(AbsCode.mtTouchMajor, TestDevice.value(0.1, of: axis)) }
    }

    private mutating func slottedFrame(_ fingers: [Int: (x: Double, y: Double)], ids: [Int: Int32], pressure: Double) {
        for finger in Set(fingers.keys).union(down.keys).sorted() {
            script.slot(Int32(finger))
            guard let position = fingers[finger], let id = ids[finger] else {
                script.trackingID(-1)
                continue
            }
            if down[finger] == nil { script.trackingID(id) }
            script.position(TestDevice.value(position.x, of: device.x), TestDevice.value(position.y, of: device.y))
            extras(pressure: pressure)
        }
    }

    private mutating func anonymousFrame(_ fingers: [Int: (x: Double, y: Double)], ids: [Int: Int32], pressure: Double) {
        for finger in fingers.keys.sorted() {
            let position = fingers[finger]!
            if let id = ids[finger] { script.abs(AbsCode.mtTrackingID, id) }
            script.position(TestDevice.value(position.x, of: device.x), TestDevice.value(position.y, of: device.y))
            extras(pressure: pressure)
            script.mtReport()
        }
        if fingers.isEmpty { script.mtReport() }
    }

    private mutating func singleFrame(_ position: (x: Double, y: Double)?, signal: TouchSignal, pressure: Double) {
        if let position {
            script.abs(AbsCode.x, TestDevice.value(position.x, of: device.x))
            script.abs(AbsCode.y, TestDevice.value(position.y, of: device.y))
        }
        let isDown = position != nil
        guard isDown != !down.isEmpty || signal == .pressure else { return }
        switch signal {
        case .touchKey: script.key(KeyCode.btnTouch, isDown ? 1 : 0)
        case .leftButton: script.key(KeyCode.btnLeft, isDown ? 1 : 0)
        case .pressure: script.abs(AbsCode.pressure, isDown ? TestDevice.value(max(pressure, 0.1), of: device.pressure!) : device.pressure!.minimum)
        case .none: break
        }
    }
}
