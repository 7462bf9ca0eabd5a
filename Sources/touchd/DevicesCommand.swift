import ArgumentParser
import TouchCore
import TouchDaemon
import TouchDevices
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// `touchd devices`: what input devices touchd sees and what it would do with them.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: kind (and why), multi-touch protocol, axis ranges and resolution, identity, and the layout entry each matches.",
        discussion: """
            Devices come from udev's enumeration of /dev/input/event*; each is opened read-only \
            (not grabbed) to read its capabilities. Without udevd, udev's properties are empty and \
            the kind comes from the device's capabilities alone.
            """)

    @Option(name: .long, help: "A layout: show which [[device]] entry takes each device, or why none does.", completion: Completions.layout)
    var config: String?

    @Flag(name: .long, help: "Print JSON (an array with one object per device).")
    var json = false

    @Flag(name: .long, help: "Include devices that are neither touchscreens nor touchpads.")
    var all = false

    func run() throws {
        let layout = try config.map { try loadLayout($0).0 }
        let udev = try Udev()
        let found: [UdevInputDevice]
        do {
            found = try udev.inputDevices()
        } catch {
            throw ValidationError("cannot list the input devices: \(error)")
        }
        var items: [JSONValue] = []
        var blocks: [[String]] = []
        for info in found {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: info.devnode)
            } catch {
                // Unreadable: show it when it might be a touch device (or when asked for all).
                guard all || info.udevKind != nil || !info.isInitialized else { continue }
                items.append(.object([("devnode", .string(info.devnode)), ("error", .string("\(error)"))]))
                blocks.append(["\(info.devnode): cannot open: \(error)"])
                continue
            }
            let report = device.facts(udev: info)
            // The layout entry this device would be mapped through (the daemon's matching rules).
            let match = layout.map { DeviceMatcher.match(report, in: $0.devices) }
            var matched = false
            if case .matched = match { matched = true }
            // Touch devices always; keyboards and accelerometers when the layout takes them.
            guard all || report.classification.isTouch || matched else { continue }
            items.append(report.json(layoutMatch: match?.explanation))
            blocks.append(report.lines(layoutMatch: match?.explanation))
        }
        if json {
            print(JSONValue.array(items).jsonText)
        } else if blocks.isEmpty {
            if found.isEmpty {
                print("no input devices found" + (Udev.udevdIsRunning ? "" : " (udevd is not running)"))
            } else {
                print("no touchscreens or touchpads found (\(found.count) other input devices; --all lists them)")
            }
        } else {
            print(blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))
        }
    }
}

/// One device's facts as `touchd devices` shows them: the device as the daemon's watcher opens
/// and classifies it.
extension DeviceFacts {
    /// The udev properties worth showing.
    static let shownProperties = [
        "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD", "ID_INPUT_TABLET", "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_PATH",
        "ID_SERIAL", "ID_VENDOR_ID", "ID_MODEL_ID", "LIBINPUT_CALIBRATION_MATRIX", "LIBINPUT_DEVICE_GROUP",
    ]

    var capabilities: DeviceCapabilities { classification.capabilities }

    var protocolName: String {
        switch capabilities.multitouch {
        case .slotted: "B"
        case .anonymous: "A"
        case .singleTouch: "single-touch"
        }
    }

    static func hex4(_ value: UInt16) -> String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func axisName(_ code: UInt16) -> String { EventCodes.codeName(type: EventType.abs, code: code) ?? "ABS_\(code)" }

    /// The axis's physical length, when the device gives a resolution.
    static func millimetres(_ axis: AbsInfo) -> Double? {
        guard axis.resolution > 0 else { return nil }
        return Double(Int64(axis.maximum) - Int64(axis.minimum)) / Double(axis.resolution)
    }

    static func axisJSON(_ axis: AbsInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("min", .int(Int64(axis.minimum))), ("max", .int(Int64(axis.maximum))), ("resolution", .int(Int64(axis.resolution))),
            ("fuzz", .int(Int64(axis.fuzz))),
        ]
        if let mm = millimetres(axis) { members.append(("mm", .double((mm * 10).rounded() / 10))) }
        return .object(members)
    }

    static func axisText(_ axis: AbsInfo) -> String {
        var text = "\(axis.minimum)..\(axis.maximum)"
        if axis.resolution > 0 {
            text += ", \(axis.resolution)/mm"
            if let mm = millimetres(axis) { text += " (\(formatNumber(mm.rounded())) mm)" }
        } else {
            text += ", no resolution"
        }
        if axis.fuzz > 0 { text += ", fuzz \(axis.fuzz)" }
        return text
    }

    func namedAxis(_ code: UInt16?) -> JSONValue {
        guard let code, let axis = description.absInfo[code] else { return .null }
        guard case .object(let members) = Self.axisJSON(axis) else { return .null }
        return .object([("code", .string(Self.axisName(code)))] + members)
    }

    /// The device as JSON; `used_as` (what the daemon reads it as) is its kind, kept for readers
    /// of the older output where the two could differ.
    func json(layoutMatch: String?) -> JSONValue {
        let axes = description.absInfo.keys.sorted().map { (Self.axisName($0), Self.axisJSON(description.absInfo[$0]!)) }
        let properties = Self.shownProperties.compactMap { key in udevProperties[key].map { (key, JSONValue.string($0)) } }
        return .object([
            ("devnode", devnode.map { .string($0) } ?? .null), ("syspath", udev.map { .string($0.syspath) } ?? .null),
            ("name", .string(description.name)),
            ("bus", .string(Self.hex4(description.bus))), ("vendor", .string(Self.hex4(description.vendor))),
            ("product", .string(Self.hex4(description.product))),
            ("kind", .string(classification.kind.rawValue)), ("kind_from", .string(classification.source)),
            ("kind_reason", .string(classification.reason)), ("used_as", .string(classification.kind.rawValue)),
            ("protocol", .string(protocolName)), ("slots", .int(Int64(capabilities.slotCount))),
            ("direct", .bool(capabilities.isDirect)), ("semi_mt", .bool(capabilities.isSemiMT)), ("buttonpad", .bool(capabilities.isButtonpad)),
            ("position", .object([("x", namedAxis(capabilities.positionXCode)), ("y", namedAxis(capabilities.positionYCode))])),
            ("pressure", namedAxis(capabilities.pressureCode)), ("size", namedAxis(capabilities.touchMajorCode)),
            ("axes", .object(axes)),
            ("identity", .string(identity)), ("phys", physicalPath.map { .string($0) } ?? .null),
            ("udev_initialized", .bool(udev?.isInitialized ?? false)), ("udev", .object(properties)),
            ("layout", layoutMatch.map { .string($0) } ?? .null),
        ])
    }

    func lines(layoutMatch: String?) -> [String] {
        var lines = ["\(devnode ?? "(a recording)"): \(description.name)"]
        lines.append("  kind       \(classification.kind.rawValue) (from \(classification.source): \(classification.reason))")
        lines.append("  ids        bus \(Self.hex4(description.bus)) vendor \(Self.hex4(description.vendor)) product \(Self.hex4(description.product))")
        let touch: String
        switch capabilities.multitouch {
        case .slotted(let slots): touch = "multi-touch protocol B, \(slots) slots"
        case .anonymous: touch = "multi-touch protocol A (anonymous contacts)"
        case .singleTouch: touch = "single touch"
        }
        var flags: [String] = []
        if capabilities.isDirect { flags.append("direct") }
        if capabilities.isSemiMT { flags.append("semi-mt") }
        if capabilities.isButtonpad { flags.append("buttonpad") }
        lines.append("  touch      \(touch)" + (flags.isEmpty ? "" : ", " + flags.joined(separator: ", ")))
        for (label, code) in [("x", capabilities.positionXCode), ("y", capabilities.positionYCode), ("pressure", capabilities.pressureCode), ("size", capabilities.touchMajorCode)] {
            let padded = label + String(repeating: " ", count: 11 - label.count)
            if let code, let axis = description.absInfo[code] {
                lines.append("  \(padded)\(Self.axisName(code)) \(Self.axisText(axis))")
            } else if label == "pressure" || label == "size" {
                lines.append("  \(padded)none")
            }
        }
        lines.append("  identity   \(identity)")
        if udev?.isInitialized == true {
            let shown = Self.shownProperties.compactMap { key in udevProperties[key].map { "\(key)=\($0)" } }
            lines.append("  udev       initialized" + (shown.isEmpty ? "" : ": " + shown.joined(separator: " ")))
        } else {
            lines.append("  udev       not initialized (no udevd: no properties, kind from capabilities)")
        }
        lines.append("  layout     " + (layoutMatch ?? "(no --config given)"))
        return lines
    }
}
