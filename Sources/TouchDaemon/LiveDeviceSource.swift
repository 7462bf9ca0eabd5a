import TouchSystem
import Logging
import TouchCore
import TouchDevices
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

/// The real touchscreens, touchpads, key devices and accelerometers: found, opened, retried and
/// read by a ``DeviceWatcher`` on the daemon's loop, each matched to its layout entry and decoded
/// through its own ``DevicePipeline`` into the application.
///
/// A device unplugged mid-touch has its touches cancelled; plugged back in, it comes back under
/// the same stable identity (its port, serial, ids and name; not its event number).
public final class LiveDeviceSource: InputSource {
    /// A device in use: its description, and what the source made of it.
    final class OpenDevice {
        let facts: DeviceFacts
        var pipeline: DevicePipeline
        var match: DeviceMatch
        /// For an accelerometer: fires at its shake's deadline, when the device may have gone quiet.
        var deadlineTimer: TimerHandle?

        init(facts: DeviceFacts, pipeline: DevicePipeline, match: DeviceMatch) {
            self.facts = facts
            self.pipeline = pipeline
            self.match = match
        }
    }

    /// The layout's device entries, which devices are matched with: the rest of the document is
    /// the application's, built already, and not kept (with a large layout it is most of it).
    var devices: [DeviceSpec]
    var tree: ViewTree
    let logger: Logger
    let clock: any TimeSource
    /// How nodes that cannot be opened are retried.
    public let retryPolicy: OpenRetryPolicy
    /// What the source has once started: its watcher, and where its events go.
    struct Running {
        let watcher: DeviceWatcher
        let sink: (InputSourceEvent) -> Void
    }

    /// Nil until ``start(on:sink:)``.
    var running: Running?
    /// The watcher, once started.
    var watcher: DeviceWatcher? { running?.watcher }
    var open: [String: OpenDevice] = [:]  // by devnode
    /// The devices in use, by event node.
    var openInOrder: [OpenDevice] { open.sorted { $0.key < $1.key }.map(\.value) }
    /// Devices seen but not used, with the reason (for `devices`).
    var ignored: [String: (facts: DeviceFacts, reason: String)] = [:]
    /// The attempt at which each node that could not be opened last failed.
    var failedAttempts: [String: Int] = [:]
    /// The devices whose reads are reported raw too (a recording session), by identity.
    var recorded: Set<String> = []
    /// The devices held out of dispatch (a calibration session), by identity.
    var held: Set<String> = []
    /// The events a read completed, emptied after each read (its room kept for the next).
    var completed: [QueuedEvent] = []
    /// Whether another source (a replayed recording) feeds the layout too: then no live device at
    /// start is no problem worth a warning.
    public var besideOtherInput = false

    /// A source matching devices to `layout`'s entries and mapping them into `tree`; `clock` (the
    /// loop's: the kernel's monotonic clock, which evdev stamps events with) stamps what it makes
    /// itself and paces shake deadlines.
    public init(layout: LayoutDocument, tree: ViewTree, logger: Logger, clock: any TimeSource, retryPolicy: OpenRetryPolicy = OpenRetryPolicy()) {
        devices = layout.devices
        self.tree = tree
        self.logger = logger
        self.clock = clock
        self.retryPolicy = retryPolicy
    }

    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        let watcher = try DeviceWatcher(
            loop: loop, accepts: { $0.kind != .other }, retryPolicy: retryPolicy
        ) { [unowned self] _, event in self.handle(event) }
        running = Running(watcher: watcher, sink: sink)
        if !Udev.udevdIsRunning {
            logger.notice("udevd is not running: devices are classified from their capabilities, and hotplug uses kernel events")
        }
        watcher.start()
        if let error = watcher.monitorError { logger.warning("no hotplug: \(error)") }
        if open.isEmpty {
            // Beside a replay, the replayed device is the input: only the debug log says none is live.
            logger.log(level: besideOtherInput ? .debug : .warning, "\(noDeviceMatches)")
        }
    }

    /// Why no device is in use at start: none present, or each present one ignored (with its
    /// reason), and what touchd does next.
    var noDeviceMatches: String {
        let wait = "touchd waits for one to be plugged in (`touchd devices --config FILE` lists what it sees, and why each is ignored)"
        guard !devices.isEmpty else { return "the layout has no [[device]] entry: no input device is used" }
        guard !ignored.isEmpty else { return "no input device matches the layout's [[device]] entries: no touch, key or accelerometer device is present; " + wait }
        let seen = ignored.sorted { $0.key < $1.key }
        let shown = seen.prefix(5).map { "\($0.key) \"\($0.value.facts.name)\" (\($0.value.reason))" }
        let more = seen.count > shown.count ? "; and \(seen.count - shown.count) more" : ""
        return "no input device matches the layout's [[device]] entries: \(seen.count) present, ignored: "
            + shown.joined(separator: "; ") + more + "; " + wait
    }

    /// Hands `event` to the daemon (once started).
    func emit(_ event: InputSourceEvent) { running?.sink(event) }

    public func stop() {
        for entry in open.values { entry.deadlineTimer?.cancel() }
        open = [:]
        watcher?.closeAll()
        failedAttempts = [:]
    }

    /// The source's time: the kernel's monotonic clock, which live events are stamped with.
    public var now: InputTime { clock.now.inputTime }

    public var deviceDescriptions: [DeviceListing] {
        var items = open.sorted { $0.key < $1.key }.map { node, entry in
            Self.listing(of: entry, grabbed: watcher?.isGrabbed(node) ?? false)
        }
        for (_, info) in ignored.sorted(by: { $0.key < $1.key }) {
            items.append(DeviceListing(info.facts, use: .ignored(reason: info.reason)))
        }
        return items
    }

    public var presentDevices: [(id: String, description: DeviceListing)] {
        openInOrder.map { ($0.pipeline.deviceID, Self.listing(of: $0, grabbed: nil)) }
    }

    /// An open device as the protocol shows it (`grabbed` only where it is listed).
    static func listing(of entry: OpenDevice, grabbed: Bool?) -> DeviceListing {
        DeviceListing(entry.facts, use: .used(id: entry.pipeline.deviceID, matched: entry.match.explanation, grabbed: grabbed))
    }

    private func handle(_ event: DeviceWatcher.Event) {
        switch event {
        case .added(let device): added(device)
        case .input(let device, let result): read(result, from: device)
        case .removed(let device): if let node = device.devnode { removed(node) }
        case .openFailed(let info, let error, let attempt, let retryIn): openFailed(info, error: error, attempt: attempt, retryIn: retryIn)
        case .failed(let devnode, let error): logger.error("\(error)", metadata: ["devnode": "\(devnode)"])
        case .enumerationFailed(let error): logger.error("cannot list the input devices present: \(error); hotplug still adds new ones")
        }
    }

    /// Matches a device just opened to the layout: ignored (and closed) when no entry takes it,
    /// else decoded from now on, grabbed when its entry says so, and announced.
    private func added(_ facts: DeviceFacts) {
        guard let node = facts.devnode else { return }  // the watcher's devices all have one
        if let attempt = failedAttempts.removeValue(forKey: node) { logger.notice("opened \(node) at attempt \(attempt + 1)") }
        let match = DeviceMatcher.match(facts, in: devices)
        guard case .matched(_, let spec) = match else {
            ignored[node] = (facts, match.explanation)
            logger.info("device ignored", metadata: ["devnode": "\(node)", "name": "\(facts.name)", "reason": "\(match.explanation)"])
            watcher?.close(node)
            return
        }
        // Two identical devices with neither port nor serial (virtual ones, some cheap panels) would
        // share an identity and mix their contacts: the second one present gets "#2", and so on.
        let id = StableIdentity.distinct(facts.identity, from: Set(open.values.map(\.pipeline.deviceID)))
        if id != facts.identity {
            logger.warning(
                "device \(node) has the same identity as a device already open (no port or serial tells them apart): it is \(id) until it is unplugged",
                metadata: ["devnode": "\(node)"])
        }
        let pipeline: DevicePipeline
        do {
            pipeline = try DevicePipeline(
                kind: facts.kind, deviceID: id, description: facts.description, udevProperties: facts.udevProperties, spec: spec, tree: tree)
        } catch {
            logger.error("device \(node) cannot be used: \(error)")
            watcher?.close(node)
            return
        }
        if spec.grab {
            do { try watcher?.setGrab(true, devnode: node) } catch { logger.warning("\(error)", metadata: ["devnode": "\(node)"]) }
        }
        let entry = OpenDevice(facts: facts, pipeline: pipeline, match: match)
        open[node] = entry
        ignored[node] = nil
        emit(.deviceAdded(id: id, description: Self.listing(of: entry, grabbed: nil)))
    }

    /// Logs a node that could not be opened (the watcher retries it). Nodes that udev does not say
    /// are touch devices (keyboards, mice) are only logged at debug level.
    private func openFailed(_ info: UdevInputDevice, error: SystemError, attempt: Int, retryIn: TimeSpan?) {
        let level: Logger.Level = info.mayBeTouchDevice ? .warning : .debug
        guard retryIn != nil else {
            failedAttempts[info.devnode] = nil
            logger.log(level: level, "cannot open \(info.devnode) after \(attempt) attempts; giving up until it is plugged in again: \(error)")
            return
        }
        failedAttempts[info.devnode] = attempt
        if attempt == 1 {
            let total = Int(rounding: retryPolicy.totalWait.seconds, .up, clampedTo: 0...Int.max)
            logger.log(level: level, "cannot open \(info.devnode): \(error); retrying for up to \(total) s")
        }
    }

    /// Stops using an open device (it stays listed as ignored, with `reason`).
    func close(_ devnode: String, reason: String) {
        guard let entry = open.removeValue(forKey: devnode) else { return }
        entry.deadlineTimer?.cancel()
        watcher?.close(devnode)
        ignored[devnode] = (entry.facts, reason)
        emit(.deviceRemoved(id: entry.pipeline.deviceID))
    }

    private func removed(_ devnode: String) {
        ignored[devnode] = nil
        guard let entry = open.removeValue(forKey: devnode) else { return }
        held.remove(entry.pipeline.deviceID)
        entry.deadlineTimer?.cancel()
        for event in entry.pipeline.finish(at: clock.eventTime) { emit(.event(event)) }
        emit(.deviceRemoved(id: entry.pipeline.deviceID))
    }
}
