import TouchCore
import TouchEvdev

/// One entry of `touchd devices --json`: a device opened and described (everything touchd knows of
/// it, with the layout entry that would take it), or a node that could not be opened. The
/// command prints its entries as one JSON array (``text(_:)``).
public enum DeviceReport: Sendable {
    /// A device and, when a layout was given, which `[[device]]` entry takes it and how, or why
    /// none does (the matching's explanation; nil without a layout: `"layout":null`).
    case device(DeviceFacts, layoutMatch: String?)
    /// A node that could not be opened, and why.
    case unreadable(devnode: String, error: String)

    /// The udev properties worth showing, in the order they are shown.
    public static let shownProperties = [
        "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD", "ID_INPUT_TABLET", "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_PATH",
        "ID_SERIAL", "ID_VENDOR_ID", "ID_MODEL_ID", "LIBINPUT_CALIBRATION_MATRIX", "LIBINPUT_DEVICE_GROUP",
    ]

    /// The entries as `touchd devices --json` prints them: one JSON array, on one line.
    public static func text(_ reports: [DeviceReport]) -> String { JSONValue.array(reports.map(\.json)).jsonText }

    /// The entry: for a device, `devnode` and `syspath` (null for a recording), `name`, the ids in
    /// hex, `kind` with `kind_from` and `kind_reason` (`used_as`, the same kind, is kept for
    /// readers of older output), the multi-touch `protocol` and `slots`, the flags, the position,
    /// pressure and size axes and every axis by name, `identity`, `phys`, udev's state and the
    /// properties worth showing, and `layout`; for a node that could not be opened, `devnode` and
    /// `error`.
    public var json: JSONValue {
        switch self {
        case .device(let facts, let layoutMatch): Self.json(facts, layoutMatch: layoutMatch)
        case .unreadable(let devnode, let error): .object([("devnode", .string(devnode)), ("error", .string(error))])
        }
    }

    private static func json(_ facts: DeviceFacts, layoutMatch: String?) -> JSONValue {
        let description = facts.description
        let classification = facts.classification
        let capabilities = classification.capabilities
        let axes = description.absInfo.sorted { $0.key < $1.key }.map { (axisName($0.key), axisJSON($0.value)) }
        let properties = shownProperties.compactMap { key in facts.udevProperties[key].map { (key, JSONValue.string($0)) } }
        func named(_ code: UInt16?) -> JSONValue {
            guard let code, let axis = description.absInfo[code] else { return .null }
            return namedAxisJSON(code, axis)
        }
        return .object([
            ("devnode", facts.devnode.map { .string($0) } ?? .null), ("syspath", facts.udev.map { .string($0.syspath) } ?? .null),
            ("name", .string(description.name)), ("bus", .string(hex4(description.bus))), ("vendor", .string(hex4(description.vendor))),
            ("product", .string(hex4(description.product))),
            ("kind", .string(classification.kind.rawValue)), ("kind_from", .string(classification.source)),
            ("kind_reason", .string(classification.reason)), ("used_as", .string(classification.kind.rawValue)),
            ("protocol", .string(protocolName(capabilities.multitouch))), ("slots", .int(Int64(capabilities.slotCount))),
            ("direct", .bool(capabilities.isDirect)), ("semi_mt", .bool(capabilities.isSemiMT)), ("buttonpad", .bool(capabilities.isButtonpad)),
            ("position", .object([("x", named(capabilities.positionXCode)), ("y", named(capabilities.positionYCode))])),
            ("pressure", named(capabilities.pressureCode)), ("size", named(capabilities.touchMajorCode)),
            ("axes", .object(axes)),
            ("identity", .string(facts.identity)), ("phys", facts.physicalPath.map { .string($0) } ?? .null),
            ("udev_initialized", .bool(facts.udev?.isInitialized ?? false)), ("udev", .object(properties)),
            ("layout", layoutMatch.map { .string($0) } ?? .null),
        ])
    }

    /// An axis: its range, resolution and fuzz, and its length in millimetres (to a tenth) when
    /// the device gives a resolution.
    private static func axisJSON(_ axis: AbsInfo) -> JSONValue {
        .object(axisMembers(axis))
    }

    /// A position, pressure or size axis: its code's name first, then as ``axisJSON(_:)``.
    private static func namedAxisJSON(_ code: UInt16, _ axis: AbsInfo) -> JSONValue {
        .object([("code", .string(axisName(code)))] + axisMembers(axis))
    }

    private static func axisMembers(_ axis: AbsInfo) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("min", .int(Int64(axis.minimum))), ("max", .int(Int64(axis.maximum))), ("resolution", .int(Int64(axis.resolution))),
            ("fuzz", .int(Int64(axis.fuzz))),
        ]
        if let length = millimetres(axis) { members.append(("mm", .double((length.value * 10).rounded() / 10))) }
        return members
    }

    /// The multi-touch protocol's name: `B` (slots), `A` (anonymous contacts) or `single-touch`.
    private static func protocolName(_ multitouch: MultitouchProtocol) -> String {
        switch multitouch {
        case .slotted: "B"
        case .anonymous: "A"
        case .singleTouch: "single-touch"
        }
    }

    /// An id as `touchd devices` shows it: `0x` and 4 hex digits.
    public static func hex4(_ value: UInt16) -> String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// An absolute axis's name (`ABS_MT_POSITION_X`), or `ABS_` and its code for one without.
    public static func axisName(_ code: UInt16) -> String { EventCodes.codeName(type: EventType.abs, code: code) ?? "ABS_\(code)" }

    /// The axis's physical length (its range over its resolution), when the device gives a
    /// resolution.
    public static func millimetres(_ axis: AbsInfo) -> Millimetres? {
        guard axis.resolution > 0 else { return nil }
        return Millimetres(Double(Int64(axis.maximum) - Int64(axis.minimum)) / Double(axis.resolution))
    }
}
