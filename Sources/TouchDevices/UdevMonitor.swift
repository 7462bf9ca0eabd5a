import TouchSystem
import CUdev
#if canImport(Glibc)
import Glibc
#endif

/// Hotplug: a libudev netlink monitor filtered to the `input` subsystem.
///
/// With udevd running it listens to udevd's events (source ``Source/udev``): they arrive once
/// udevd has processed the device, so its node exists with its permissions and its properties
/// (`ID_INPUT_TOUCHSCREEN`, `ID_PATH`, ...) are final.
///
/// Without udevd (a container, an initramfs, a minimal system) nobody would send those, so it
/// listens to the kernel's raw uevents instead (source ``Source/kernel``). Then:
/// - devices carry only the kernel's uevent variables (`DEVNAME`, `MAJOR`, `MINOR`), no udev
///   properties, and are never "initialized": classify them from their capabilities;
/// - the node is made by devtmpfs, usually but not certainly before the event arrives, with
///   devtmpfs's default permissions (root only), so opening may need a retry;
/// - nothing applies hwdb fix-ups (axis ranges, resolution, calibration).
///
/// Ownership: owns its libudev monitor (and a reference to the context); `deinit` releases both
/// and with them the descriptor. Isolation: not thread-safe; use it on one thread.
public final class UdevMonitor {
    /// Where events come from.
    public enum Source: String, Hashable, Sendable {
        /// udevd's processed events (netlink group "udev").
        case udev
        /// The kernel's raw uevents (netlink group "kernel"), when no udevd runs.
        case kernel
    }

    /// The source this monitor listens to.
    public let source: Source
    /// The descriptor to wait on for readability (non-blocking); owned by the monitor.
    public let fileDescriptor: Int32
    private let context: OpaquePointer
    private let monitor: OpaquePointer

    /// A monitor on its own libudev context.
    ///
    /// - Parameter source: The netlink source; by default ``Source/udev`` when udevd runs,
    ///   else ``Source/kernel``.
    /// - Throws: ``SystemError`` naming the failed call (`udev_monitor_new_from_netlink`,
    ///   `udev_monitor_enable_receiving`: `EPERM`/`EPROTONOSUPPORT` where netlink uevents are not
    ///   available, as in some containers).
    public convenience init(source: Source? = nil) throws(SystemError) {
        try self.init(udev: Udev(), source: source)
    }

    /// A monitor sharing `udev`'s context.
    public init(udev: Udev, source: Source? = nil) throws(SystemError) {
        let source = source ?? (Udev.udevdIsRunning ? .udev : .kernel)
        let call = "udev_monitor_new_from_netlink"
        let monitor = try SystemCall.pointer(call, source.rawValue) { udev_monitor_new_from_netlink(udev.context, source.rawValue) }
        do {
            _ = try SystemCall.negativeErrno("udev_monitor_filter_add_match_subsystem_devtype", "input") {
                udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
            }
            _ = try SystemCall.negativeErrno("udev_monitor_enable_receiving", source.rawValue) {
                udev_monitor_enable_receiving(monitor)
            }
        } catch {
            udev_monitor_unref(monitor)
            throw error
        }
        let fd = udev_monitor_get_fd(monitor)
        // libudev makes the socket non-blocking already; make sure, since receive() drains it.
        do {
            try Descriptor.setNonBlocking(fd, source.rawValue)
        } catch {
            udev_monitor_unref(monitor)
            throw error
        }
        self.source = source
        self.fileDescriptor = fd
        self.context = udev_ref(udev.context)
        self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(context)
    }

    /// The hotplug events waiting now, in the order they happened (never blocks). Events about
    /// other nodes than `/dev/input/eventN` are left out.
    public func receive() -> [HotplugEvent] {
        var events: [HotplugEvent] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let event = HotplugEvent.decode(
                action: udev_device_get_action(device).map { String(cString: $0) } ?? "",
                syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? "",
                devnode: udev_device_get_devnode(device).map { String(cString: $0) },
                properties: Udev.properties(of: device),
                isInitialized: udev_device_get_is_initialized(device) == 1)
            if let event { events.append(event) }
        }
        return events
    }
}
