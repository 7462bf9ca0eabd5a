/// The per-contact axis values of multi-touch events (`ABS_MT_*`): what protocol B keeps for each
/// slot and protocol A collects for each anonymous report.
struct ContactAxes: Sendable {
    /// The axes an event set since this value was made (a protocol-A report may leave any out).
    struct Given: OptionSet, Sendable {
        let rawValue: UInt8
        static let x = Given(rawValue: 1 << 0)
        static let y = Given(rawValue: 1 << 1)
    }

    var x: Int32 = 0
    var y: Int32 = 0
    var touchMajor: Int32 = 0
    var widthMajor: Int32 = 0
    var pressure: Int32 = 0
    var toolType: Int32 = MTToolType.finger
    var given: Given = []

    /// Takes one `ABS_MT_*` value.
    ///
    /// - Returns: Whether `code` is an axis a contact carries (orientation, distance, the minor
    ///   axes, the slot and the tracking id are not).
    @discardableResult
    mutating func apply(code: UInt16, value: Int32) -> Bool {
        switch code {
        case AbsCode.mtPositionX:
            x = value
            given.insert(.x)
        case AbsCode.mtPositionY:
            y = value
            given.insert(.y)
        case AbsCode.mtTouchMajor: touchMajor = value
        case AbsCode.mtWidthMajor: widthMajor = value
        case AbsCode.mtPressure: pressure = value
        case AbsCode.mtToolType: toolType = value
        default: return false
        }
        return true
    }

    /// The contact's values as the device's `codes` read them: size from the touch or the width
    /// axis, pressure from the contact's own axis or the device-wide one, a tool type if reported.
    func values(codes: ContactCodes, shared: SharedState) -> ContactValues {
        let size: Int32?
        switch codes.touchMajor {
        case AbsCode.mtTouchMajor?: size = touchMajor
        case AbsCode.mtWidthMajor?: size = widthMajor
        default: size = nil
        }
        let force: Int32?
        switch codes.pressure {
        case AbsCode.mtPressure?: force = pressure
        case AbsCode.pressure?: force = shared.pressure
        default: force = nil
        }
        return ContactValues(x: x, y: y, touchMajor: size, pressure: force, toolType: codes.hasToolType ? toolType : nil)
    }
}
