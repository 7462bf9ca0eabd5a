import TouchSystem
import TouchEvdev
#if canImport(Glibc)
import Glibc
#endif

/// A small poll(2) loop over every touch device: opens those present, follows hotplug, reads
/// events, and hands what happened to its owner, one ``Event`` at a time.
///
/// For tools (`touchd debug-events`) and tests on real kernels; the daemon has its own event
/// loop and uses ``EvdevDevice`` and ``UdevMonitor`` directly. It blocks in `poll` until a
/// descriptor is ready or a deadline passes: no busy polling.
///
/// Ownership: owns the devices it opens and its monitor; both are closed when it is dropped.
/// Isolation: not thread-safe. ``run(idleTimeout:_:)`` calls the handler on the calling thread,
/// and the handler may call ``stop()``.
public final class DeviceWatcher {
    /// A device being watched, as a value (the open handle stays inside the watcher).
    public struct Device: Hashable, Sendable {
        /// The identity that survives replug (``StableIdentity``).
        public var identity: String
        /// udev's view: node, sysfs path, properties.
        public var udev: UdevInputDevice
        /// What libevdev read when the device was opened.
        public var description: DeviceDescription
        /// What it is, and why.
        public var classification: DeviceClassification
        /// The kernel's `phys`, nil when none.
        public var physicalPath: String?

        /// The event node.
        public var devnode: String { udev.devnode }
    }

    /// What happened.
    public enum Event {
        /// A device was opened: present at start, or plugged in.
        case added(Device)
        /// The device's events, as one drain produced them (a removal's last events included).
        case input(Device, DeviceRead)
        /// The device went away; its descriptor is closed. The owner cancels its live contacts.
        case removed(Device)
        /// A device touchd would want could not be opened or read; `devnode` is left alone (a
        /// read failure also ends in ``removed(_:)``).
        case failed(devnode: String, error: SystemError)
    }

    /// Why ``run(idleTimeout:_:)`` returned.
    public enum StopReason: Hashable, Sendable {
        /// The handler called ``stop()``.
        case stopped
        /// Nothing happened for the idle timeout.
        case idle
    }

    private final class Entry {
        let device: EvdevDevice
        let value: Device
        init(device: EvdevDevice, value: Device) {
            self.device = device
            self.value = value
        }
    }

    private struct PendingOpen {
        var info: UdevInputDevice
        var attempts: Int
    }

    /// How often a node a kernel uevent announced is retried before giving up (every
    /// ``retryInterval`` milliseconds).
    static let maximumOpenAttempts = 40
    static let retryInterval: Int32 = 50

    private let udev: Udev
    private let accepts: (DeviceClassification) -> Bool
    private let grab: Bool
    private var monitor: UdevMonitor?
    private var open: [String: Entry] = [:]  // by devnode
    private var pending: [PendingOpen] = []
    private var started = false
    private var stopRequested = false

    /// Why hotplug is unavailable (nil when the monitor runs): the watcher then only reads the
    /// devices present at start.
    public private(set) var monitorError: SystemError?

    /// The monitor's source (nil when hotplug is unavailable).
    public var monitorSource: UdevMonitor.Source? { monitor?.source }

    /// The devices open now, by event node.
    public var devices: [Device] { open.values.map(\.value).sorted { $0.devnode < $1.devnode } }

    /// A watcher; nothing is opened until ``run(idleTimeout:_:)``.
    ///
    /// - Parameters:
    ///   - accepts: Which devices to open and read; by default touchscreens and touchpads.
    ///   - grab: Whether to grab each device exclusively (`EVIOCGRAB`).
    /// - Throws: ``SystemError`` when no libudev context can be made. A monitor that cannot
    ///   start is not an error: see ``monitorError``.
    public init(accepts: @escaping (DeviceClassification) -> Bool = { $0.isTouch }, grab: Bool = false) throws(SystemError) {
        self.udev = try Udev()
        self.accepts = accepts
        self.grab = grab
        do {
            monitor = try UdevMonitor(udev: udev)
        } catch {
            monitorError = error
        }
    }

    /// Asks ``run(idleTimeout:_:)`` to return once the current event has been handled.
    public func stop() { stopRequested = true }

    /// Opens the devices present now (one ``Event/added(_:)`` each); only the first call does
    /// anything. ``run(idleTimeout:_:)`` calls it; call it first to act once they are open.
    public func start(_ handle: (Event) -> Void) {
        guard !started else { return }
        started = true
        for info in udev.inputDevices() { add(info, handle) }
    }

    /// Runs until the handler calls ``stop()`` or nothing happens for `idleTimeout` seconds.
    ///
    /// Opens the devices present first, unless ``start(_:)`` already did.
    ///
    /// - Parameters:
    ///   - idleTimeout: Seconds without any event (input or hotplug) after which to return; nil
    ///     to run until stopped.
    ///   - handle: Called with each event, in order.
    /// - Returns: Why it returned.
    /// - Throws: ``SystemError`` from `poll` (not from devices: those are ``Event/failed(devnode:error:)``).
    public func run(idleTimeout: Double? = nil, _ handle: (Event) -> Void) throws(SystemError) -> StopReason {
        stopRequested = false
        start(handle)
        if stopRequested { return .stopped }
        var lastActivity = MonotonicClock.now()
        while !stopRequested {
            var timeout: Int32 = -1
            if let idleTimeout {
                let elapsed = MonotonicClock.now().microseconds - lastActivity.microseconds
                let left = Int64(idleTimeout * 1_000_000) - elapsed
                if left <= 0 { return .idle }
                timeout = Int32(clamping: (left + 999) / 1000)
            }
            if !pending.isEmpty { timeout = timeout < 0 ? Self.retryInterval : min(timeout, Self.retryInterval) }

            let entries = open.values.sorted { $0.value.devnode < $1.value.devnode }
            var fds = entries.map { pollfd(fd: $0.device.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            if let monitor { fds.append(pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let count = fds.count
            _ = try SystemCall.posix("poll") { poll(&fds, nfds_t(count), timeout) }

            // Devices first, so events read before an unplug come before the monitor's removal.
            for (index, entry) in entries.enumerated() where fds[index].revents != 0 {
                guard open[entry.value.devnode] === entry else { continue }
                if read(entry, handle) { lastActivity = MonotonicClock.now() }
                if stopRequested { return .stopped }
            }
            if let monitor, fds[count - 1].revents != 0 {
                for event in monitor.receive() {
                    lastActivity = MonotonicClock.now()
                    switch event {
                    case .added(let info):
                        pending.removeAll { $0.info.devnode == info.devnode }
                        add(info, handle)
                    case .removed(let devnode, let syspath):
                        pending.removeAll { $0.info.devnode == devnode }
                        if let entry = open[devnode], entry.value.udev.syspath.isEmpty || entry.value.udev.syspath == syspath {
                            remove(entry, handle)
                        }
                    }
                    if stopRequested { return .stopped }
                }
            }
            retryPending(handle)
        }
        return .stopped
    }

    /// Drains one device; returns whether anything happened.
    private func read(_ entry: Entry, _ handle: (Event) -> Void) -> Bool {
        let result: DeviceRead
        do {
            result = try entry.device.read()
        } catch {
            handle(.failed(devnode: entry.value.devnode, error: error))
            remove(entry, handle)
            return true
        }
        guard !result.allEvents.isEmpty || result.isRemoval else { return false }
        handle(.input(entry.value, result))
        if result.isRemoval { remove(entry, handle) }
        return true
    }

    private func remove(_ entry: Entry, _ handle: (Event) -> Void) {
        guard open[entry.value.devnode] === entry else { return }
        open[entry.value.devnode] = nil
        handle(.removed(entry.value))
    }

    /// Opens a device if it is one the owner wants; a node that a kernel uevent announced but
    /// devtmpfs has not yet made (or opened up) is retried later.
    private func add(_ info: UdevInputDevice, attempts: Int = 0, _ handle: (Event) -> Void) {
        guard open[info.devnode] == nil else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: info.devnode)
        } catch {
            if monitor?.source == .kernel, error.isMissing || error.isPermissionDenied, attempts + 1 < Self.maximumOpenAttempts {
                pending.append(PendingOpen(info: info, attempts: attempts + 1))
            } else if info.udevKind != nil || !info.isInitialized {
                // Only for devices that may be touch devices: not every keyboard a user cannot open.
                handle(.failed(devnode: info.devnode, error: error))
            }
            return
        }
        let classification = DeviceClassification(description: device.description, udevProperties: info.properties)
        guard accepts(classification) else { return }
        if grab {
            do { try device.grab() } catch {
                handle(.failed(devnode: info.devnode, error: error))
                return
            }
        }
        let value = Device(
            identity: StableIdentity.of(device, udev: info), udev: info, description: device.description,
            classification: classification, physicalPath: device.physicalPath)
        let entry = Entry(device: device, value: value)
        open[info.devnode] = entry
        handle(.added(value))
        // Events that arrived between opening and waiting make the descriptor readable: the next
        // poll returns at once.
    }

    private func retryPending(_ handle: (Event) -> Void) {
        let retries = pending
        pending = []
        for retry in retries { add(retry.info, attempts: retry.attempts, handle) }
    }
}
