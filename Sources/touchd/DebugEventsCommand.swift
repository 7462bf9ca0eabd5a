import ArgumentParser
import TouchCore
import TouchDevices
import TouchEvdev
import TouchProtocol
import TouchSystem

/// `touchd debug-events`: every touch device's contact frames as newline-delimited JSON.
struct DebugEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-events",
        abstract: "Print each touch device's contact frames (and hotplug) as newline-delimited JSON.",
        discussion: """
            Opens every touchscreen and touchpad (without grabbing them unless --grab), follows \
            hotplug, and runs each device's events through the frame assembler the daemon uses. \
            Lines: {"event":"ready"} once the devices present are open; "added" and "removed" \
            for devices; "frame" with the contacts (id, phase, x, y in device units, pressure, \
            size, slot); "dropped" where the kernel lost events and the device was resynchronised; \
            "anomaly" for odd streams; "error" for devices that cannot be read. A removed \
            device's live contacts are cancelled in a frame before its "removed" line.
            """)

    @Option(name: .long, help: "Exit after this many frames.")
    var count: Int?

    @Option(name: .long, help: "Exit after this many seconds without any event.")
    var timeout: Double?

    @Flag(name: .long, help: "Grab the devices exclusively (EVIOCGRAB), so nothing else sees their events.")
    var grab = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        var assemblers: [String?: FrameAssembler] = [:]  // by devnode
        var frames = 0
        func frameLine(_ watcher: DeviceWatcher, _ device: DeviceFacts, _ frame: ContactFrame) {
            // One read can complete several frames: none is printed past the count.
            if let count, frames >= count { return }
            emit(.frame(device, time: frame.time, contacts: frame.contacts))
            frames += 1
            if let count, frames >= count { watcher.stop() }
        }
        let watcher = try DeviceWatcher(grab: grab) { watcher, event in
            switch event {
            case .added(let device):
                assemblers[device.devnode] = FrameAssembler(description: device.description)
                emit(.added(device, time: watcher.loop.clock.eventTime))
            case .input(let device, let result):
                guard var assembler = assemblers[device.devnode] else { return }
                for dropped in result.drops { emit(.dropped(device, time: dropped.time)) }
                var produced: [ContactFrame] = []
                assembler.decode(result, into: &produced)
                for anomaly in assembler.takeAnomalies() { emit(.anomaly(device, "\(anomaly)")) }
                assemblers[device.devnode] = assembler
                for frame in produced { frameLine(watcher, device, frame) }
            case .removed(let device):
                if var assembler = assemblers.removeValue(forKey: device.devnode), let frame = assembler.finish(at: watcher.loop.clock.eventTime) {
                    frameLine(watcher, device, frame)
                }
                emit(.removed(device, time: watcher.loop.clock.eventTime))
            case .openFailed(let info, let error, let attempt, let retryIn):
                guard info.mayBeTouchDevice, watcher.isWorthReporting(error, attempt: attempt, retryIn: retryIn) else { return }
                emit(.deviceError(devnode: info.devnode, error: "\(error)"))
            case .failed(let devnode, let error): emit(.deviceError(devnode: devnode, error: "\(error)"))
            case .enumerationFailed(let error): emit(.deviceError(devnode: nil, error: "cannot list the input devices present: \(error)"))
            }
        }
        if let error = watcher.monitorError { emit(.error("no hotplug: \(error)")) }
        watcher.start()
        emit(.ready(devices: watcher.devices.count, hotplug: watcher.monitorSource?.rawValue))
        _ = try watcher.run(idleTimeout: timeout.map(TimeSpan.init(seconds:)))
    }
}

/// Prints one NDJSON line and flushes it, so a reader (or a file) sees it at once.
private func emit(_ line: DebugEventLine) {
    print(line.text)
    StandardOutput.flush()
}
