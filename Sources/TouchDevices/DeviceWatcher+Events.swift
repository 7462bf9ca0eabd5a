import TouchCore
import TouchEvdev
import TouchSystem

extension DeviceWatcher {
    /// Runs the watcher's loop until the handler calls ``stop()`` or nothing happens for
    /// `idleTimeout` (for tools; the daemon runs its own loop).
    ///
    /// Opens the devices present first, unless ``start()`` already did.
    ///
    /// - Parameter idleTimeout: How long without any event (input or hotplug) after which to
    ///   return; nil to run until stopped.
    /// - Returns: Why it returned.
    /// - Throws: ``SystemError`` from `epoll_wait` (not from devices: those are events).
    public func run(idleTimeout: TimeSpan? = nil) throws(SystemError) -> StopReason {
        start()
        if let stopReason { return stopReason }
        if let idleTimeout {
            self.idleTimeout = idleTimeout
            idleTimer = loop.schedule(after: idleTimeout) { [unowned self] in
                self.stopReason = .idle
                self.loop.stop()
            }
        }
        defer { idleTimer?.cancel() }
        try loop.run()
        return stopReason ?? .stopped
    }

    /// Hands `event` to the owner's handler.
    func report(_ event: Event) { handler(self, event) }

    /// Makes ``run(idleTimeout:)`` return once the current event has been handled.
    public func stop() {
        if stopReason == nil { stopReason = .stopped }
        loop.stop()
    }

    /// Something happened: the idle timeout starts again.
    func noteActivity() {
        if let idleTimeout, let idleTimer { idleTimer.schedule(after: idleTimeout) }
    }

    /// Opens a device if it is one the owner wants; one that cannot be opened is tried again as
    /// the retry policy says.
    func add(_ info: UdevInputDevice, attempt: Int = 1) {
        guard open[info.devnode] == nil else { return }
        pending.removeValue(forKey: info.devnode)?.timer.cancel()
        // touchd's own virtual touchscreens are never opened: what it forwards must not come back.
        if info.isVirtualTouchscreen { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: info.devnode)
        } catch {
            openFailed(info, error: error, attempt: attempt)
            return
        }
        let facts = device.facts(udev: info)
        guard accepts(facts) else { return }
        if grabsAll {
            do { try device.grab() } catch {
                report(.failed(devnode: info.devnode, error: error))
                return
            }
        }
        let entry = Entry(device: device, facts: facts)
        do {
            try loop.register(device.fileDescriptor, for: .readable) { [unowned self, unowned entry] _ in self.read(entry) }
        } catch {
            report(.failed(devnode: info.devnode, error: error))
            return
        }
        open[info.devnode] = entry
        report(.added(facts))
        // Events that arrived before the descriptor was registered make it readable: the loop's
        // next wait returns at once.
    }

    private func openFailed(_ info: UdevInputDevice, error: SystemError, attempt: Int) {
        let delay = retryPolicy.delay(afterAttempt: attempt)
        if let delay {
            let devnode = info.devnode
            let timer = loop.schedule(after: delay) { [weak self] in self?.retry(devnode) }
            pending[devnode] = PendingOpen(info: info, attempts: attempt, timer: timer)
        }
        report(.openFailed(info, error: error, attempt: attempt, retryIn: delay))
    }

    private func retry(_ devnode: String) {
        guard let retry = pending.removeValue(forKey: devnode) else { return }
        add(retry.info, attempt: retry.attempts + 1)
    }

    /// Drains one device, reporting what it read, and its removal when it went away or failed.
    func read(_ entry: Entry) {
        guard open[entry.device.path] === entry else { return }
        let result: DeviceRead
        do {
            result = try entry.device.read()
        } catch {
            report(.failed(devnode: entry.device.path, error: error))
            return remove(entry)
        }
        if !result.allEvents.isEmpty || result.isRemoval {
            noteActivity()
            report(.input(entry.facts, result))
        }
        if result.isRemoval { remove(entry) }
    }

    private func remove(_ entry: Entry) {
        guard open[entry.device.path] === entry else { return }
        close(entry.device.path)
        report(.removed(entry.facts))
    }

    /// The monitor is readable: devices plugged in are opened, those unplugged read to their end
    /// and removed.
    func hotplug() {
        guard let monitor else { return }
        for event in monitor.receive() {
            noteActivity()
            switch event {
            case .added(let info):
                add(info)
            case .removed(let devnode, let syspath):
                pending.removeValue(forKey: devnode)?.timer.cancel()
                guard let entry = open[devnode] else { continue }
                // A node reused by another device since (a replug) is not this one's.
                let known = entry.facts.udev?.syspath ?? ""
                guard known.isEmpty || known == syspath else { continue }
                read(entry)
                remove(entry)
            }
        }
    }
}
