import TouchCore
import TouchEvdev

/// One line of `touchd debug-events`: what happened to the touch devices, as newline-delimited
/// JSON (the command's help lists the lines). Devices are named by their identity and node; times
/// are seconds on the clock evdev stamps events with.
public enum DebugEventLine: Sendable {
    /// The devices present are open: `devices` of them; `hotplug` names where hotplug events
    /// come from (nil: none do).
    case ready(devices: Int, hotplug: String?)
    /// A device was opened, at `time`: with its name and kind (and why that kind).
    case added(DeviceFacts, time: EventTime)
    /// A device's contacts after one frame (`time`: the frame's).
    case frame(DeviceFacts, time: EventTime, contacts: [DeviceContact])
    /// The kernel lost a device's events at `time` (`SYN_DROPPED`), and the device was
    /// resynchronised.
    case dropped(DeviceFacts, time: EventTime)
    /// Something odd in a device's event stream.
    case anomaly(DeviceFacts, String)
    /// A device went away, at `time`.
    case removed(DeviceFacts, time: EventTime)
    /// A device node that could not be opened or read, or (nil) the devices that could not be
    /// listed: `"devnode"` is in the line either way.
    case deviceError(devnode: String?, error: String)
    /// A problem that concerns no device (no hotplug): the line has no `"devnode"`.
    case error(String)

    /// The line, without its newline.
    public var text: String { json.jsonText }

    /// The line's object: `event` first, then what it is about.
    public var json: JSONValue {
        switch self {
        case .ready(let devices, let hotplug):
            .object([("event", "ready"), ("devices", .int(Int64(devices))), ("hotplug", hotplug.map { .string($0) } ?? .null)])
        case .added(let device, let time):
            .object([
                ("event", "added"), ("device", .string(device.identity)), ("devnode", Self.node(device)), ("name", .string(device.name)),
                ("kind", .string(device.kind.rawValue)), ("kind_from", .string(device.classification.description)), ("time", .double(time.inputTime.seconds)),
            ])
        case .frame(let device, let time, let contacts):
            .object([
                ("event", "frame"), ("device", .string(device.identity)), ("devnode", Self.node(device)), ("time", .double(time.inputTime.seconds)),
                ("contacts", .array(contacts.map(Self.contact))),
            ])
        case .dropped(let device, let time): .object([("event", "dropped"), ("device", .string(device.identity)), ("time", .double(time.inputTime.seconds))])
        case .anomaly(let device, let anomaly): .object([("event", "anomaly"), ("device", .string(device.identity)), ("anomaly", .string(anomaly))])
        case .removed(let device, let time):
            .object([("event", "removed"), ("device", .string(device.identity)), ("devnode", Self.node(device)), ("time", .double(time.inputTime.seconds))])
        case .deviceError(let devnode, let error): .object([("event", "error"), ("devnode", devnode.map { .string($0) } ?? .null), ("error", .string(error))])
        case .error(let error): .object([("event", "error"), ("error", .string(error))])
        }
    }

    /// A device's node (null for a recording's device).
    private static func node(_ device: DeviceFacts) -> JSONValue { device.devnode.map { .string($0) } ?? .null }

    /// A contact: its id, phase and position in device units, then what the device reports of
    /// it (pressure, touch major, tool, slot).
    private static func contact(_ contact: DeviceContact) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .int(Int64(clamping: contact.id))), ("phase", .string(contact.phase.rawValue)),
            ("x", .int(Int64(contact.x))), ("y", .int(Int64(contact.y))),
        ]
        if let pressure = contact.pressure { members.append(("pressure", .int(Int64(pressure)))) }
        if let size = contact.touchMajor { members.append(("touch_major", .int(Int64(size)))) }
        if let tool = contact.toolType { members.append(("tool", .string(EventCodes.toolTypeName(tool) ?? "\(tool)"))) }
        if let slot = contact.slot { members.append(("slot", .int(Int64(slot)))) }
        return .object(members)
    }
}
