import CUdev
#if canImport(Glibc)
import Glibc
#endif

/// An input device as udev knows it.
public struct UdevInputDevice: Hashable, Sendable {
    public var syspath: String
    /// `/dev/input/eventN`.
    public var devnode: String
    /// udev's properties (`ID_INPUT_TOUCHSCREEN`, `ID_PATH`, `LIBINPUT_CALIBRATION_MATRIX`, ...).
    /// Empty or nearly so when no udevd runs.
    public var properties: [String: String]
    /// Whether udevd has processed the device (false without udevd).
    public var isInitialized: Bool
}

/// A device appearing or going away.
public enum HotplugEvent: Hashable, Sendable {
    case added(UdevInputDevice)
    case removed(devnode: String, syspath: String)
}

/// libudev: enumeration of input devices and a hotplug monitor.
///
/// Owns its libudev context and monitor; not thread-safe (one thread: the daemon's loop).
public final class Udev {
    private let context: OpaquePointer
    private var monitor: OpaquePointer?
    /// Whether the monitor listens to udevd ("udev") or, with no udevd running, to the kernel's raw
    /// uevents ("kernel": device nodes may not exist yet when the event arrives, and no udev
    /// properties are set).
    public private(set) var monitorSource = ""

    public init() throws(DeviceError) {
        guard let context = udev_new() else { throw DeviceError(call: "udev_new", path: "", errno: errno) }
        self.context = context
    }

    deinit {
        if let monitor { udev_monitor_unref(monitor) }
        udev_unref(context)
    }

    /// Whether udevd is running (its control socket exists).
    public static var udevdIsRunning: Bool { access("/run/udev/control", F_OK) == 0 }

    /// Every input device with an event node, sorted by node.
    public func inputDevices() -> [UdevInputDevice] {
        guard let enumerate = udev_enumerate_new(context) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var result: [UdevInputDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(context, name)
            {
                if let info = Self.inputDevice(device) { result.append(info) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return result.sorted { $0.devnode < $1.devnode }
    }

    /// Starts listening for hotplug; returns the descriptor to wait on.
    public func startMonitor() throws(DeviceError) -> Int32 {
        let source = Self.udevdIsRunning ? "udev" : "kernel"
        guard let monitor = udev_monitor_new_from_netlink(context, source) else {
            throw DeviceError(call: "udev_monitor_new_from_netlink(\(source))", path: "", errno: errno)
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        let rc = udev_monitor_enable_receiving(monitor)
        guard rc >= 0 else {
            udev_monitor_unref(monitor)
            throw DeviceError(call: "udev_monitor_enable_receiving", path: "", errno: -rc)
        }
        let fd = udev_monitor_get_fd(monitor)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.monitor = monitor
        monitorSource = source
        return fd
    }

    /// The hotplug events waiting on the monitor.
    public func receive() -> [HotplugEvent] {
        guard let monitor else { return [] }
        var events: [HotplugEvent] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
            switch action {
            case "add", "change":
                if let info = Self.inputDevice(device) {
                    events.append(.added(info))
                } else if action == "add", let node = Self.kernelDevnode(device) {
                    events.append(.added(UdevInputDevice(syspath: syspath, devnode: node, properties: [:], isInitialized: false)))
                }
            case "remove":
                let node = udev_device_get_devnode(device).map { String(cString: $0) } ?? Self.kernelDevnode(device)
                if let node { events.append(.removed(devnode: node, syspath: syspath)) }
            default:
                break
            }
        }
        return events
    }

    static func inputDevice(_ device: OpaquePointer) -> UdevInputDevice? {
        guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }), node.hasPrefix("/dev/input/event") else {
            return nil
        }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return UdevInputDevice(
            syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? "", devnode: node, properties: properties,
            isInitialized: udev_device_get_is_initialized(device) == 1)
    }

    /// The event node of a raw kernel uevent (`DEVNAME=input/eventN`).
    static func kernelDevnode(_ device: OpaquePointer) -> String? {
        guard let name = udev_device_get_property_value(device, "DEVNAME").map({ String(cString: $0) }) else { return nil }
        let node = name.hasPrefix("/") ? name : "/dev/" + name
        return node.hasPrefix("/dev/input/event") ? node : nil
    }
}

/// A device's identity that survives unplugging and plugging it back (its event number does not).
public enum StableIdentity {
    /// `ID_PATH` (the port), `ID_SERIAL`, vendor:product and name when udev gives them; else the
    /// physical path libevdev reports, vendor:product and name.
    public static func of(name: String, vendor: UInt16, product: UInt16, properties: [String: String], physicalPath: String?) -> String {
        let ids = String(format4(vendor)) + ":" + format4(product)
        var parts: [String] = []
        if let path = properties["ID_PATH"], !path.isEmpty { parts.append(path) } else if let phys = physicalPath, !phys.isEmpty { parts.append(phys) }
        // udev says "noserial" for devices without one (virtual devices among them).
        if let serial = properties["ID_SERIAL"], !serial.isEmpty, serial != "noserial" { parts.append(serial) }
        parts.append(ids)
        parts.append(name)
        return parts.joined(separator: "/")
    }

    static func format4(_ v: UInt16) -> String {
        let hex = String(v, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }
}
