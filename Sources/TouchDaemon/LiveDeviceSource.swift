import TouchSystem
import Logging
import TouchCore
import TouchDevices
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// The real touchscreens, touchpads, key devices and accelerometers: found through libudev (hotplug
/// included), read through libevdev, each through its own ``DevicePipeline`` into the application.
///
/// A device unplugged mid-touch has its touches cancelled; plugged back in, it comes back under
/// the same stable identity (its port, serial, ids and name; not its event number).
public final class LiveDeviceSource: InputSource {
    final class OpenDevice {
        let device: EvdevDevice
        var pipeline: DevicePipeline
        let facts: DeviceFacts
        var match: DeviceMatch
        let udev: UdevInputDevice
        /// For an accelerometer: fires at its shake's deadline, when the device may have gone quiet.
        var deadlineTimer: LoopTimer?

        init(device: EvdevDevice, pipeline: DevicePipeline, facts: DeviceFacts, match: DeviceMatch, udev: UdevInputDevice) {
            self.device = device
            self.pipeline = pipeline
            self.facts = facts
            self.match = match
            self.udev = udev
        }
    }

    private var layout: LayoutDocument
    private var tree: ViewTree
    private let logger: Logger
    private var udev: Udev?
    private var monitorFD: Int32 = -1
    private weak var loop: EventLoop?
    private var sink: ((InputSourceEvent) -> Void)?
    private var open: [String: OpenDevice] = [:]  // by devnode
    /// Devices seen but not used, with the reason (for `devices`).
    private var ignored: [String: (facts: DeviceFacts, reason: String)] = [:]
    /// Nodes that could not be opened, waiting for their next attempt (by devnode).
    private var retries: [String: (info: UdevInputDevice, attempts: Int, due: Double)] = [:]
    private var retryTimer: LoopTimer?
    /// How nodes that cannot be opened are retried.
    public var retryPolicy = OpenRetryPolicy()

    public init(layout: LayoutDocument, tree: ViewTree, logger: Logger) {
        self.layout = layout
        self.tree = tree
        self.logger = logger
    }

    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        self.loop = loop
        self.sink = sink
        let udev = try Udev()
        self.udev = udev
        do {
            monitorFD = try udev.startMonitor()
            try loop.register(monitorFD, for: .readable) { [unowned self] _ in self.hotplug() }
        } catch {
            logger.warning("no hotplug: \(error)")
        }
        if !Udev.udevdIsRunning {
            logger.notice("udevd is not running: devices are classified from their capabilities, and hotplug uses kernel events")
        }
        for device in udev.inputDevices() { add(device) }
    }

    public func stop() {
        for (node, entry) in open {
            loop?.unregister(entry.device.fileDescriptor)
            if let timer = entry.deadlineTimer { loop?.unregister(timer.fd) }
            open[node] = nil
        }
        if monitorFD >= 0 { loop?.unregister(monitorFD) }
        if let retryTimer { loop?.unregister(retryTimer.fd) }
        retries = [:]
    }

    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        self.layout = layout
        self.tree = tree
        for (node, entry) in open.sorted(by: { $0.key < $1.key }) {
            let match = DeviceMatcher.match(entry.facts, in: layout.devices)
            guard case .matched(_, let spec) = match else {
                logger.warning(
                    "device no longer used after the reload", metadata: ["devnode": "\(node)", "name": "\(entry.facts.name)", "reason": "\(match.explanation)"])
                close(node, reason: match.explanation)
                continue
            }
            do {
                entry.pipeline = try entry.pipeline.remapped(
                    kind: entry.facts.kind, description: entry.device.description, udevProperties: entry.udev.properties, spec: spec, tree: tree)
                entry.match = match
                applyGrab(spec.grab, to: entry, devnode: node)
            } catch {
                logger.error("device \(node) cannot be used with the reloaded layout: \(error)")
                close(node, reason: "\(error)")
            }
        }
        // Devices the old layout ignored may be wanted now.
        if let udev { for device in udev.inputDevices() where open[device.devnode] == nil { add(device) } }
    }

    /// Takes or releases a device's exclusive grab as its (reloaded) layout entry says.
    private func applyGrab(_ wanted: Bool, to entry: OpenDevice, devnode: String) {
        guard wanted != entry.device.isGrabbed else { return }
        if wanted {
            do { try entry.device.grab() } catch { logger.warning("\(error)", metadata: ["devnode": "\(devnode)"]) }
        } else {
            entry.device.ungrab()
        }
        logger.info(wanted ? "device grabbed after the reload" : "device released after the reload", metadata: ["devnode": "\(devnode)"])
    }

    /// Stops using an open device (it stays listed as ignored, with `reason`).
    private func close(_ devnode: String, reason: String) {
        guard let entry = open.removeValue(forKey: devnode) else { return }
        loop?.unregister(entry.device.fileDescriptor)
        ignored[devnode] = (entry.facts, reason)
        sink?(.deviceRemoved(id: entry.pipeline.deviceID))
    }

    public var deviceDescriptions: JSONValue {
        var items: [JSONValue] = open.values.sorted { $0.udev.devnode < $1.udev.devnode }.map { entry in
            .object([
                ("device", .string(entry.pipeline.deviceID)), ("devnode", .string(entry.udev.devnode)), ("name", .string(entry.facts.name)),
                ("kind", .string(entry.facts.kind.rawValue)), ("matched", .string(entry.match.explanation)), ("grabbed", .bool(entry.device.isGrabbed)),
            ])
        }
        for (node, info) in ignored.sorted(by: { $0.key < $1.key }) {
            items.append(.object([("devnode", .string(node)), ("name", .string(info.facts.name)), ("kind", .string(info.facts.kind.rawValue)), ("ignored", .string(info.reason))]))
        }
        return .array(items)
    }

    private func add(_ info: UdevInputDevice, attempt: Int = 1) {
        guard open[info.devnode] == nil, let loop else { return }
        retries[info.devnode] = nil
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: info.devnode)
        } catch {
            openFailed(info, attempt: attempt, error: error)
            return
        }
        if attempt > 1 { logger.notice("opened \(info.devnode) at attempt \(attempt)") }
        let facts = DeviceFacts(description: device.description, udevProperties: info.properties, devnode: info.devnode)
        guard facts.kind != .other else { return }
        let match = DeviceMatcher.match(facts, in: layout.devices)
        guard case .matched(_, let spec) = match else {
            ignored[info.devnode] = (facts, match.explanation)
            logger.info("device ignored", metadata: ["devnode": "\(info.devnode)", "name": "\(facts.name)", "reason": "\(match.explanation)"])
            return
        }
        let stable = StableIdentity.of(
            name: facts.name, vendor: facts.vendor, product: facts.product, properties: info.properties, physicalPath: device.physicalPath)
        // Two identical devices with neither port nor serial (virtual ones, some cheap panels) would
        // share an identity and mix their contacts: the second one present gets "#2", and so on.
        let id = StableIdentity.distinct(stable, from: Set(open.values.map(\.pipeline.deviceID)))
        if id != stable {
            logger.warning(
                "device \(info.devnode) has the same identity as a device already open (no port or serial tells them apart): it is \(id) until it is unplugged",
                metadata: ["devnode": "\(info.devnode)"])
        }
        let pipeline: DevicePipeline
        do {
            pipeline = try DevicePipeline(
                kind: facts.kind, deviceID: id, description: device.description, udevProperties: info.properties, spec: spec, tree: tree)
        } catch {
            logger.error("device \(info.devnode) cannot be used: \(error)")
            return
        }
        if spec.grab {
            do { try device.grab() } catch { logger.warning("\(error)") }
        }
        let entry = OpenDevice(device: device, pipeline: pipeline, facts: facts, match: match, udev: info)
        open[info.devnode] = entry
        ignored[info.devnode] = nil
        do {
            try loop.register(device.fileDescriptor, for: .readable) { [unowned self] _ in self.read(info.devnode) }
        } catch {
            open[info.devnode] = nil
            logger.error("\(error)")
            return
        }
        sink?(.deviceAdded(id: id, description: .object([
            ("devnode", .string(info.devnode)), ("name", .string(facts.name)), ("kind", .string(facts.kind.rawValue)),
            ("matched", .string(match.explanation)),
        ])))
        read(info.devnode)
    }

    /// Logs a node that could not be opened and schedules its next attempt. Nodes that udev does
    /// not say are touch devices (keyboards, mice) are only logged at debug level.
    private func openFailed(_ info: UdevInputDevice, attempt: Int, error: any Error) {
        let mayBeTouch = info.udevKind != nil || !info.isInitialized
        guard let delay = retryPolicy.delay(afterAttempt: attempt) else {
            let text = "cannot open \(info.devnode) after \(attempt) attempts; giving up until it is plugged in again: \(error)"
            if mayBeTouch { logger.warning("\(text)") } else { logger.debug("\(text)") }
            return
        }
        if attempt == 1 {
            let text = "cannot open \(info.devnode): \(error); retrying for up to \(Int(retryPolicy.totalWait.rounded(.up))) s"
            if mayBeTouch { logger.warning("\(text)") } else { logger.debug("\(text)") }
        }
        retries[info.devnode] = (info, attempt, Daemon.monotonicNow() + delay)
        armRetryTimer()
    }

    private func armRetryTimer() {
        guard let next = retries.values.map(\.due).min() else {
            retryTimer?.arm(after: nil)
            return
        }
        if retryTimer == nil, let loop, let timer = try? LoopTimer() {
            retryTimer = timer
            try? loop.register(timer.fd, for: .readable) { [unowned self] _ in
                timer.acknowledge()
                let now = Daemon.monotonicNow()
                for (_, retry) in self.retries.sorted(by: { $0.key < $1.key }) where retry.due <= now {
                    self.add(retry.info, attempt: retry.attempts + 1)
                }
                self.armRetryTimer()
            }
        }
        retryTimer?.arm(after: max(next - Daemon.monotonicNow(), 0.000_001))
    }

    private func read(_ devnode: String) {
        guard let entry = open[devnode] else { return }
        let read = entry.device.readAvailable()
        if !read.drops.isEmpty {
            logger.warning("events were lost (SYN_DROPPED): resynchronising", metadata: ["device": "\(entry.pipeline.deviceID)"])
        }
        var completed: [QueuedEvent] = []
        entry.pipeline.decode(read, into: &completed)
        for output in completed { sink?(.event(output)) }
        if read.isRemoval { remove(devnode) }
        for anomaly in entry.pipeline.takeAnomalies() {
            logger.warning("\(anomaly)", metadata: ["device": "\(entry.pipeline.deviceID)"])
        }
        if open[devnode] != nil { armDeadline(of: entry, devnode: devnode) }
    }

    /// Arms the device's timer for its pipeline's deadline (a shake ends once the accelerometer has
    /// been quiet long enough, and a quiet one sends nothing). Live devices stamp events with
    /// CLOCK_MONOTONIC, the clock the deadline is on.
    private func armDeadline(of entry: OpenDevice, devnode: String) {
        guard let deadline = entry.pipeline.deadline else {
            entry.deadlineTimer?.arm(after: nil)
            return
        }
        if entry.deadlineTimer == nil, let loop {
            do {
                let timer = try LoopTimer()
                try loop.register(timer.fd, for: .readable) { [unowned self] _ in
                    timer.acknowledge()
                    guard let entry = self.open[devnode] else { return }
                    let now = MonotonicClock.now()
                    for event in entry.pipeline.advance(to: now) { self.sink?(.event(event)) }
                    self.armDeadline(of: entry, devnode: devnode)
                }
                entry.deadlineTimer = timer
            } catch {
                logger.error("no timer for \(devnode): \(error); its shakes end only with its next sample")
                return
            }
        }
        entry.deadlineTimer?.arm(after: max(deadline.seconds - Daemon.monotonicNow(), 0.000_001))
    }

    private func remove(_ devnode: String) {
        ignored[devnode] = nil
        retries[devnode] = nil
        guard let entry = open.removeValue(forKey: devnode) else { return }
        loop?.unregister(entry.device.fileDescriptor)
        if let timer = entry.deadlineTimer { loop?.unregister(timer.fd) }
        let now = MonotonicClock.now()
        for event in entry.pipeline.finish(at: now) { sink?(.event(event)) }
        sink?(.deviceRemoved(id: entry.pipeline.deviceID))
    }

    private func hotplug() {
        guard let udev else { return }
        for event in udev.receive() {
            switch event {
            case .added(let info): add(info)
            case .removed(let devnode, _): remove(devnode)
            }
        }
    }
}
