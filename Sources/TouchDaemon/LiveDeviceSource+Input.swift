import TouchCore
import TouchDevices
import TouchEvdev
import TouchInput
import TouchLayout
import TouchSystem

extension LiveDeviceSource {
    /// Decodes one drain of a device: its events, a resynchronisation after lost events, or its
    /// last events before it went away (its removal follows).
    func read(_ result: DeviceRead, from device: DeviceFacts) {
        guard let node = device.devnode, let entry = open[node] else { return }
        if !result.drops.isEmpty {
            logger.warning("events were lost (SYN_DROPPED): resynchronising", metadata: ["device": "\(entry.pipeline.deviceID)"])
        }
        // Sessions are rare: a read costs no lookup while there is none.
        if !recorded.isEmpty, recorded.contains(entry.pipeline.deviceID) {
            emit(.raw(device: entry.pipeline.deviceID, events: result.recordedEvents))
        }
        // Decoded in one go (one access to the entry's state, not one per event); what the events
        // completed is passed on after, from the list kept for it (taken out: passing an event on
        // may lead to another read).
        var completed: [QueuedEvent] = []
        swap(&completed, &self.completed)
        entry.pipeline.decode(result, into: &completed)
        for output in completed { emit(.event(output)) }
        completed.removeAll(keepingCapacity: true)
        self.completed = completed
        if !held.isEmpty, held.contains(entry.pipeline.deviceID) { reportHeldFrames(of: entry) }
        for anomaly in entry.pipeline.takeAnomalies() {
            logger.warning("\(anomaly)", metadata: ["device": "\(entry.pipeline.deviceID)"])
        }
        if open[node] === entry { armDeadline(of: entry, at: node) }
    }

    /// Schedules the device's timer for its decoder's deadline (a shake ends once the accelerometer
    /// has been quiet long enough, and a quiet one sends nothing). Live devices stamp events with
    /// `CLOCK_MONOTONIC`, the clock the deadline and the loop's timers are on.
    private func armDeadline(of entry: OpenDevice, at devnode: String) {
        guard let deadline = entry.pipeline.deadline else {
            entry.deadlineTimer?.cancel()
            return
        }
        if entry.deadlineTimer == nil, let loop = watcher?.loop {
            entry.deadlineTimer = loop.timer { [unowned self] in self.deadlinePassed(devnode) }
        }
        entry.deadlineTimer?.schedule(at: LoopInstant(microseconds: deadline.microseconds))
    }

    private func deadlinePassed(_ devnode: String) {
        guard let entry = open[devnode] else { return }
        for event in entry.pipeline.advance(to: clock.eventTime) { emit(.event(event)) }
        armDeadline(of: entry, at: devnode)
    }

    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        devices = layout.devices
        self.tree = tree
        for (node, entry) in open.sorted(by: { $0.key < $1.key }) {
            let match = DeviceMatcher.match(entry.facts, in: devices)
            guard case .matched(_, let spec) = match else {
                logger.warning(
                    "device no longer used after the reload", metadata: ["devnode": "\(node)", "name": "\(entry.facts.name)", "reason": "\(match.explanation)"])
                close(node, reason: match.explanation)
                continue
            }
            do {
                entry.pipeline = try entry.pipeline.remapped(
                    kind: entry.facts.kind, description: entry.facts.description, udevProperties: entry.facts.udevProperties, spec: spec, tree: tree)
                entry.match = match
                entry.deadlineTimer?.cancel()
                applyGrab(spec.grab, devnode: node)
            } catch {
                logger.error("device \(node) cannot be used with the reloaded layout: \(error)")
                close(node, reason: "\(error)")
            }
        }
        // Devices the old layout ignored may be wanted now.
        watcher?.rescan()
    }

    /// Takes or releases a device's exclusive grab as its (reloaded) layout entry says.
    private func applyGrab(_ wanted: Bool, devnode: String) {
        do {
            guard try watcher?.setGrab(wanted, devnode: devnode) == true else { return }
            logger.info(wanted ? "device grabbed after the reload" : "device released after the reload", metadata: ["devnode": "\(devnode)"])
        } catch {
            logger.warning("\(error)", metadata: ["devnode": "\(devnode)"])
        }
    }
}
