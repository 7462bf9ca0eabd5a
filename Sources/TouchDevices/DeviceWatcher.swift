import TouchCore
import TouchEvdev
import TouchInput
import TouchSystem

/// Finds, opens, retries and reads input devices on an ``EventLoop``, following hotplug, and hands
/// what happened to its owner one ``Event`` at a time, each device described by its
/// ``TouchEvdev/DeviceFacts`` (made once, when it is opened): the one device watcher, for the daemon
/// (its live devices, on the daemon's loop) and the tools (`touchd debug-events`, on a loop of
/// their own run by ``run(idleTimeout:)``). The owner's handler is given at construction.
///
/// A node that cannot be opened (not there yet, not yet given its permissions by udev's rules,
/// busy) is tried again as ``OpenRetryPolicy`` says. A node that goes away is read to its end
/// before it is reported removed, whichever of the device and the monitor tells first.
///
/// Ownership: owns the devices it opens and its monitor; ``closeAll()`` (or dropping it) closes
/// them. Isolation: not thread-safe; use it on its loop's thread.
public final class DeviceWatcher {
    /// What happened.
    public enum Event {
        /// A device was opened: present at start, or plugged in.
        case added(DeviceFacts)
        /// The device's events, as one drain produced them (a removal's last events included).
        case input(DeviceFacts, DeviceRead)
        /// The device went away (or could not be read); its descriptor is closed. The owner
        /// cancels its live contacts.
        case removed(DeviceFacts)
        /// A node could not be opened at its `attempt`-th try (1 for the first); it is tried again
        /// after `retryIn`, or never (nil) until it is plugged in again.
        case openFailed(UdevInputDevice, error: SystemError, attempt: Int, retryIn: TimeSpan?)
        /// A device could not be read or grabbed: `devnode` is left alone (a read failure also
        /// ends in ``removed(_:)``).
        case failed(devnode: String, error: SystemError)
        /// The devices present could not be listed (sysfs unreadable): none was opened, and the
        /// next ``rescan()`` or hotplug event tries again.
        case enumerationFailed(SystemError)
    }

    /// Why ``run(idleTimeout:)`` returned.
    public enum StopReason: Hashable, Sendable {
        /// The handler called ``stop()``.
        case stopped
        /// Nothing happened for the idle timeout.
        case idle
    }

    /// An open device: its handle, and its description.
    final class Entry {
        let device: EvdevDevice
        let facts: DeviceFacts
        init(device: EvdevDevice, facts: DeviceFacts) {
            self.device = device
            self.facts = facts
        }
    }

    struct PendingOpen {
        var info: UdevInputDevice
        var attempts: Int
        var timer: TimerHandle
    }

    /// The loop the watcher runs on.
    public let loop: EventLoop
    /// How nodes that cannot be opened are tried again.
    public let retryPolicy: OpenRetryPolicy
    let udev: Udev
    let accepts: (DeviceFacts) -> Bool
    let grabsAll: Bool
    var monitor: UdevMonitor?
    var open: [String: Entry] = [:]  // by devnode
    var pending: [String: PendingOpen] = [:]  // by devnode
    /// The owner's: called on the loop with the watcher and each event, in order.
    let handler: (DeviceWatcher, Event) -> Void
    var isStarted = false
    var idleTimer: TimerHandle?
    var idleTimeout: TimeSpan?
    var stopReason: StopReason?

    /// Why hotplug is unavailable (nil when the monitor runs): the watcher then only reads the
    /// devices present at start.
    public internal(set) var monitorError: SystemError?

    /// The monitor's source (nil when hotplug is unavailable).
    public var monitorSource: UdevMonitor.Source? { monitor?.source }

    /// The devices open now, by event node.
    public var devices: [DeviceFacts] { open.sorted { $0.key < $1.key }.map(\.value.facts) }

    /// A watcher on `loop`; nothing is opened until ``start()``.
    ///
    /// - Parameters:
    ///   - accepts: Which opened devices to keep and read; by default touchscreens and touchpads.
    ///     Others are closed at once, without an event.
    ///   - grab: Whether to grab every device kept exclusively (`EVIOCGRAB`); ``setGrab(_:devnode:)``
    ///     grabs one.
    ///   - retryPolicy: When a node that cannot be opened is tried again.
    ///   - handler: Called on the loop with the watcher and each ``Event``, in order, from
    ///     ``start()`` on.
    /// - Throws: ``SystemError`` when no libudev context can be made. A monitor that cannot
    ///   start is not an error: see ``monitorError``.
    public init(
        loop: EventLoop, accepts: @escaping (DeviceFacts) -> Bool = { $0.classification.isTouch }, grab: Bool = false,
        retryPolicy: OpenRetryPolicy = OpenRetryPolicy(), handler: @escaping (DeviceWatcher, Event) -> Void
    ) throws(SystemError) {
        self.loop = loop
        self.handler = handler
        self.udev = try Udev()
        self.accepts = accepts
        self.grabsAll = grab
        self.retryPolicy = retryPolicy
        do {
            monitor = try UdevMonitor(udev: udev)
        } catch {
            monitorError = error
        }
    }

    /// A watcher on a loop of its own (for tools that run it with ``run(idleTimeout:)``).
    public convenience init(
        accepts: @escaping (DeviceFacts) -> Bool = { $0.classification.isTouch }, grab: Bool = false,
        handler: @escaping (DeviceWatcher, Event) -> Void
    ) throws(SystemError) {
        try self.init(loop: EventLoop(), accepts: accepts, grab: grab, handler: handler)
    }

    deinit { closeAll() }

    /// Starts following hotplug on the loop and opens the devices present now (one
    /// ``Event/added(_:)`` each, before this returns); only the first call does anything.
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        if let monitor {
            do {
                try loop.register(monitor.fileDescriptor, for: .readable) { [unowned self] _ in self.hotplug() }
            } catch {
                monitorError = error
                self.monitor = nil
            }
        }
        rescan()
    }

    /// Opens every device present that is not open or waiting for a retry: at start, and when the
    /// owner's wishes changed (a reloaded layout may want a device the old one did not).
    public func rescan() {
        let present: [UdevInputDevice]
        do {
            present = try udev.inputDevices()
        } catch {
            report(.enumerationFailed(error))
            return
        }
        for info in present where open[info.devnode] == nil && pending[info.devnode] == nil { add(info) }
    }

    /// Closes one device without reporting it removed (the owner no longer wants it); a later
    /// ``rescan()`` may open it again.
    public func close(_ devnode: String) {
        guard let entry = open.removeValue(forKey: devnode) else { return }
        loop.unregister(entry.device.fileDescriptor)
    }

    /// Closes every device and stops following hotplug and retrying (without events).
    public func closeAll() {
        for devnode in Array(open.keys) { close(devnode) }
        for (_, retry) in pending { retry.timer.cancel() }
        pending = [:]
        if let monitor { loop.unregister(monitor.fileDescriptor) }
        idleTimer?.cancel()
    }

    /// Whether an ``Event/openFailed(_:error:attempt:retryIn:)`` is the one to report for its node:
    /// the first failure, or, for a node the kernel announced before udev could make it readable
    /// (missing or not permitted while the monitor hears the kernel), the last one.
    public func isWorthReporting(_ error: SystemError, attempt: Int, retryIn: TimeSpan?) -> Bool {
        let transient = monitor?.source == .kernel && (error.isMissing || error.isPermissionDenied)
        return transient ? retryIn == nil : attempt == 1
    }

    /// Whether the device at `devnode` is open and grabbed by the watcher.
    public func isGrabbed(_ devnode: String) -> Bool { open[devnode]?.device.isGrabbed ?? false }

    /// Takes (`true`) or releases an open device's exclusive grab.
    /// - Returns: whether it changed.
    /// - Throws: ``SystemError`` from `EVIOCGRAB` (`EBUSY`: another reader holds a grab).
    @discardableResult
    public func setGrab(_ wanted: Bool, devnode: String) throws(SystemError) -> Bool {
        guard let device = open[devnode]?.device, device.isGrabbed != wanted else { return false }
        if wanted { try device.grab() } else { try device.ungrab() }
        return true
    }
}
