import ArgumentParser
import TouchCore
import TouchDaemon
import TouchDevices
import TouchEvdev
import TouchLayout

/// `touchd devices`: what input devices touchd sees and what it would do with them.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: kind (and why), capabilities, axis ranges and resolution, identity, and the layout entry each matches.")

    @Option(name: .long, help: "A layout: show which [[device]] entry takes each device, or why none does.")
    var config: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .long, help: "Include devices that are neither touchscreens nor touchpads.")
    var all = false

    func run() throws {
        let layout = try config.map { try loadLayout($0).0 }
        let udev = try Udev()
        var items: [JSONValue] = []
        var lines: [String] = []
        for info in udev.inputDevices() {
            let device: EvdevDevice
            do { device = try EvdevDevice(path: info.devnode) } catch {
                lines.append("\(info.devnode): cannot open: \(error)")
                items.append(.object([("devnode", .string(info.devnode)), ("error", .string("\(error)"))]))
                continue
            }
            let d = device.description
            let caps = DeviceCapabilities(description: d, udevProperties: info.properties)
            let facts = DeviceFacts(description: d, udevProperties: info.properties, devnode: info.devnode)
            guard all || facts.kind != .other else { continue }
            let why = info.properties["ID_INPUT_TOUCHSCREEN"] == "1" || info.properties["ID_INPUT_TOUCHPAD"] == "1"
                ? "udev property" : "capabilities (no udev classification)"
            let identity = StableIdentity.of(name: d.name, vendor: d.vendor, product: d.product, properties: info.properties, physicalPath: device.physicalPath)
            let match = layout.map { DeviceMatcher.match(facts, in: $0.devices).explanation }
            var axes: [(String, JSONValue)] = []
            var axisLines: [String] = []
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                let name = EventCodes.codeName(type: 3, code: code) ?? "ABS_\(code)"
                axes.append((name, .object([("min", .int(Int64(a.minimum))), ("max", .int(Int64(a.maximum))), ("resolution", .int(Int64(a.resolution))), ("fuzz", .int(Int64(a.fuzz)))])))
                axisLines.append("    \(name) \(a.minimum)..\(a.maximum)" + (a.resolution > 0 ? " res \(a.resolution)/mm" : "") + (a.fuzz > 0 ? " fuzz \(a.fuzz)" : ""))
            }
            items.append(.object([
                ("devnode", .string(info.devnode)), ("name", .string(d.name)), ("kind", .string(facts.kind.rawValue)), ("kind_from", .string(why)),
                ("protocol", .string("\(caps.multitouch)")), ("slots", .int(Int64(caps.slotCount))), ("pressure", .bool(caps.hasPressure)),
                ("touch_major", .bool(caps.hasTouchMajor)), ("direct", .bool(caps.isDirect)), ("identity", .string(identity)),
                ("udev_initialized", .bool(info.isInitialized)), ("axes", .object(axes)), ("layout", match.map { .string($0) } ?? .null),
            ]))
            lines.append("\(info.devnode): \(d.name)")
            lines.append("  kind \(facts.kind.rawValue) (from \(why)), \(caps.multitouch), \(caps.slotCount) slots, pressure \(caps.hasPressure ? "yes" : "no"), touch size \(caps.hasTouchMajor ? "yes" : "no")")
            lines.append("  identity \(identity)\(info.isInitialized ? "" : " (udev has not initialised it)")")
            lines += axisLines
            if let match { lines.append("  layout: \(match)") }
        }
        if json {
            print(JSONValue.array(items).jsonText)
        } else if lines.isEmpty {
            print("no input devices found" + (Udev.udevdIsRunning ? "" : " (udevd is not running)"))
        } else {
            print(lines.joined(separator: "\n"))
        }
    }
}
