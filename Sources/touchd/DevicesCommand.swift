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
        var reports: [DeviceReport] = []
        var blocks: [[String]] = []
        for info in found {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: info.devnode)
            } catch {
                // Unreadable: show it when it might be a touch device (or when asked for all).
                guard all || info.udevKind != nil || !info.isInitialized else { continue }
                reports.append(.unreadable(devnode: info.devnode, error: "\(error)"))
                blocks.append(["\(info.devnode): cannot open: \(error)"])
                continue
            }
            let facts = device.facts(udev: info)
            // The layout entry this device would be mapped through (the daemon's matching rules).
            let match = layout.map { DeviceMatcher.match(facts, in: $0.devices) }
            var matched = false
            if case .matched = match { matched = true }
            // Touch devices always; keyboards and accelerometers when the layout takes them.
            guard all || facts.classification.isTouch || matched else { continue }
            reports.append(.device(facts, layoutMatch: match?.explanation))
            blocks.append(facts.lines(layoutMatch: match?.explanation))
        }
        if json {
            print(DeviceReport.text(reports))
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

/// One device's facts as `touchd devices` shows them without `--json`: the device as the daemon's
/// watcher opens and classifies it, its ids and axes spelled as the JSON spells them.
extension DeviceFacts {
    static func axisText(_ axis: AbsInfo) -> String {
        var text = "\(axis.minimum)..\(axis.maximum)"
        if axis.resolution > 0 {
            text += ", \(axis.resolution)/mm"
            if let length = DeviceReport.millimetres(axis) { text += " (\(formatNumber(length.value.rounded())) mm)" }
        } else {
            text += ", no resolution"
        }
        if axis.fuzz > 0 { text += ", fuzz \(axis.fuzz)" }
        return text
    }

    /// The block of lines: node and name, kind and why, ids, touch protocol and flags, axes,
    /// identity, udev's state, and the layout entry that would take the device.
    func lines(layoutMatch: String?) -> [String] {
        let capabilities = classification.capabilities
        var lines = ["\(devnode ?? "(a recording)"): \(description.name)"]
        lines.append("  kind       \(classification.kind.rawValue) (from \(classification.source): \(classification.reason))")
        lines.append("  ids        bus \(DeviceReport.hex4(description.bus)) vendor \(DeviceReport.hex4(description.vendor)) product \(DeviceReport.hex4(description.product))")
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
                lines.append("  \(padded)\(DeviceReport.axisName(code)) \(Self.axisText(axis))")
            } else if label == "pressure" || label == "size" {
                lines.append("  \(padded)none")
            }
        }
        lines.append("  identity   \(identity)")
        if udev?.isInitialized == true {
            let shown = DeviceReport.shownProperties.compactMap { key in udevProperties[key].map { "\(key)=\($0)" } }
            lines.append("  udev       initialized" + (shown.isEmpty ? "" : ": " + shown.joined(separator: " ")))
        } else {
            lines.append("  udev       not initialized (no udevd: no properties, kind from capabilities)")
        }
        lines.append("  layout     " + (layoutMatch ?? "(no --config given)"))
        return lines
    }
}
