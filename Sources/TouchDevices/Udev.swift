import TouchEvdev
import TouchSystem
import CUdev
#if canImport(Glibc)
import Glibc
#endif

/// A libudev context: enumerates input devices, and (for compatibility with single-object
/// callers) carries one hotplug monitor.
///
/// Ownership: owns its libudev context (and the monitor it starts); `deinit` releases them.
/// Isolation: not thread-safe; use it on one thread.
public final class Udev {
    let context: OpaquePointer
    private var monitor: UdevMonitor?

    /// A new libudev context.
    ///
    /// - Throws: ``SystemError`` from `udev_new` (out of memory).
    public init() throws(SystemError) {
        context = try SystemCall.pointer("udev_new") { udev_new() }
    }

    deinit {
        monitor = nil
        udev_unref(context)
    }

    /// Whether udevd is running (its control socket `/run/udev/control` exists). Without it,
    /// devices carry no udev properties and hotplug comes from the kernel's raw uevents.
    public static var udevdIsRunning: Bool {
        (try? SystemCall.require("access", "/run/udev/control") { access("/run/udev/control", F_OK) }) != nil
    }

    /// Every input device with an evdev node (`/dev/input/eventN`), sorted by event number.
    ///
    /// Enumeration reads sysfs, so it works without udevd (then with no properties).
    /// - Throws: ``SystemError`` when sysfs cannot be read (no `/sys`, out of memory): a failure,
    ///   never an empty list that would look like "no devices".
    public func inputDevices() throws(SystemError) -> [UdevInputDevice] {
        let enumerate = try SystemCall.pointer("udev_enumerate_new") { udev_enumerate_new(context) }
        defer { udev_enumerate_unref(enumerate) }
        _ = try SystemCall.negativeErrno("udev_enumerate_add_match_subsystem", "input") { udev_enumerate_add_match_subsystem(enumerate, "input") }
        _ = try SystemCall.negativeErrno("udev_enumerate_scan_devices", "/sys") { udev_enumerate_scan_devices(enumerate) }
        var result: [UdevInputDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current), let device = udev_device_new_from_syspath(context, name) {
                if let info = Self.inputDevice(device) { result.append(info) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return result.sorted { ($0.eventNumber ?? Int.max, $0.devnode) < ($1.eventNumber ?? Int.max, $1.devnode) }
    }

    /// Starts this context's hotplug monitor (see ``UdevMonitor``) and returns the descriptor to
    /// wait on; ``receive()`` reads it.
    ///
    /// - Throws: ``SystemError`` from the monitor's setup.
    public func startMonitor() throws(SystemError) -> Int32 {
        if let monitor { return monitor.fileDescriptor }
        let monitor = try UdevMonitor(udev: self)
        self.monitor = monitor
        return monitor.fileDescriptor
    }

    /// The source the monitor listens to: `"udev"`, `"kernel"`, or `""` before ``startMonitor()``.
    public var monitorSource: String { monitor?.source.rawValue ?? "" }

    /// The hotplug events waiting on the monitor (none before ``startMonitor()``).
    public func receive() -> [HotplugEvent] { monitor?.receive() ?? [] }

    /// The event node's description, nil for devices without an evdev node.
    static func inputDevice(_ device: OpaquePointer) -> UdevInputDevice? {
        guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }), UdevInputDevice.isEventNode(node) else {
            return nil
        }
        return UdevInputDevice(
            syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? "", devnode: node,
            properties: properties(of: device), isInitialized: udev_device_get_is_initialized(device) == 1)
    }

    /// A udev device's properties (`udev_list_entry_foreach` is a macro: walk the list by hand).
    static func properties(of device: OpaquePointer) -> [String: String] {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return properties
    }
}
