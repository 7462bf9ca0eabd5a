import TouchSystem
import ArgumentParser
import TouchCore
import TouchDevices
import TouchEvdev
import TouchProtocol

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
            emit([
                ("event", "frame"), ("device", .string(device.identity)), ("devnode", device.devnode.map { .string($0) } ?? .null),
                ("time", .double(frame.time.inputTime.seconds)), ("contacts", .array(frame.contacts.map(Self.contactJSON))),
            ])
            frames += 1
            if let count, frames >= count { watcher.stop() }
        }
        let watcher = try DeviceWatcher(grab: grab) { watcher, event in
            switch event {
            case .added(let device):
                assemblers[device.devnode] = FrameAssembler(description: device.description)
                emit([
                    ("event", "added"), ("device", .string(device.identity)), ("devnode", device.devnode.map { .string($0) } ?? .null),
                    ("name", .string(device.description.name)), ("kind", .string(device.classification.kind.rawValue)),
                    ("kind_from", .string(device.classification.description)), ("time", .double(watcher.loop.clock.eventTime.inputTime.seconds)),
                ])
            case .input(let device, let result):
                guard var assembler = assemblers[device.devnode] else { return }
                for dropped in result.drops {
                    emit([("event", "dropped"), ("device", .string(device.identity)), ("time", .double(dropped.time.inputTime.seconds))])
                }
                var produced: [ContactFrame] = []
                assembler.decode(result, into: &produced)
                for anomaly in assembler.takeAnomalies() {
                    emit([("event", "anomaly"), ("device", .string(device.identity)), ("anomaly", .string("\(anomaly)"))])
                }
                assemblers[device.devnode] = assembler
                for frame in produced { frameLine(watcher, device, frame) }
            case .removed(let device):
                if var assembler = assemblers.removeValue(forKey: device.devnode), let frame = assembler.finish(at: watcher.loop.clock.eventTime) {
                    frameLine(watcher, device, frame)
                }
                emit([
                    ("event", "removed"), ("device", .string(device.identity)), ("devnode", device.devnode.map { .string($0) } ?? .null),
                    ("time", .double(watcher.loop.clock.eventTime.inputTime.seconds)),
                ])
            case .openFailed(let info, let error, let attempt, let retryIn):
                guard info.mayBeTouchDevice, watcher.isWorthReporting(error, attempt: attempt, retryIn: retryIn) else { return }
                emitError(devnode: info.devnode, "\(error)")
            case .failed(let devnode, let error): emitError(devnode: devnode, "\(error)")
            case .enumerationFailed(let error): emitError(devnode: nil, "cannot list the input devices present: \(error)")
            }
        }
        if let error = watcher.monitorError {
            emit([("event", "error"), ("error", .string("no hotplug: \(error)"))])
        }
        watcher.start()
        emit([
            ("event", "ready"), ("devices", .int(Int64(watcher.devices.count))),
            ("hotplug", watcher.monitorSource.map { .string($0.rawValue) } ?? .null),
        ])
        _ = try watcher.run(idleTimeout: timeout.map(TimeSpan.init(seconds:)))
    }

    /// An `error` line, about a device node when one is to blame.
    func emitError(devnode: String?, _ error: String) {
        emit([("event", "error"), ("devnode", devnode.map { .string($0) } ?? .null), ("error", .string(error))])
    }

    static func contactJSON(_ contact: DeviceContact) -> JSONValue {
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

/// Prints one NDJSON line and flushes it, so a reader (or a file) sees it at once.
private func emit(_ members: [(String, JSONValue)]) {
    print(JSONValue.object(members).jsonText)
    StandardOutput.flush()
}
