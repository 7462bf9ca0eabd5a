import TouchEvdev

/// A device appearing or going away, as a udev monitor reports it.
public enum HotplugEvent: Hashable, Sendable {
    /// An event node appeared (udev action `add`), or udevd re-processed one (`change`, e.g. after
    /// `udevadm trigger`): with udevd, its properties are final.
    case added(UdevInputDevice)
    /// An event node went away (udev action `remove`). The node and sysfs path are those it had;
    /// a replugged device comes back under a new sysfs path (and maybe a new node).
    case removed(devnode: String, syspath: String)

    /// The event node concerned.
    public var devnode: String {
        switch self {
        case .added(let device): device.devnode
        case .removed(let devnode, _): devnode
        }
    }

    /// Decodes one uevent of the input subsystem, nil for those touchd ignores (the `inputN`
    /// parent, `mouseN`/`jsN` nodes, `bind`/`unbind`/`move`/`online`/`offline`).
    ///
    /// - Parameters:
    ///   - action: The uevent's `ACTION`.
    ///   - syspath: Its sysfs path.
    ///   - devnode: The node libudev reports (udevd's uevents carry it); nil for raw kernel uevents,
    ///     which instead carry `DEVNAME=input/eventN` in their properties.
    ///   - properties: The uevent's properties.
    ///   - isInitialized: Whether udevd processed the device.
    public static func decode(
        action: String, syspath: String, devnode: String?, properties: [String: String], isInitialized: Bool
    ) -> HotplugEvent? {
        guard let node = devnode ?? kernelDevnode(properties), UdevInputDevice.isEventNode(node) else { return nil }
        switch action {
        case "add", "change":
            return .added(UdevInputDevice(syspath: syspath, devnode: node, properties: properties, isInitialized: isInitialized))
        case "remove":
            return .removed(devnode: node, syspath: syspath)
        default:
            return nil
        }
    }

    /// The node named by a raw uevent's `DEVNAME` (`input/event3` → `/dev/input/event3`).
    static func kernelDevnode(_ properties: [String: String]) -> String? {
        guard let name = properties["DEVNAME"], !name.isEmpty else { return nil }
        return name.hasPrefix("/") ? name : "/dev/" + name
    }
}
