import ArgumentParser
import TouchCore
import TouchDevices
import TouchEvdev
import TouchSystem

/// What stops a command once its arguments were fine (a device that cannot be opened, a file
/// that cannot be written): `Error: <description>` on standard error and exit status 1, without
/// the usage a ``ArgumentParser/ValidationError`` shows.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One input device read straight from its node, without a daemon (`touchd record`, `touchd
/// measure`), until it is stopped: SIGINT or SIGTERM, a given time, or the device going away.
enum DeviceCapture {
    /// Why a capture stopped.
    enum Stop: String {
        case signal = "stopped"
        case duration = "the time was up"
        case removed = "the device went away"
        case enough = "enough was read"
    }

    /// The device a command line names: its node (`/dev/input/event5`), or its name or identity as
    /// `touchd devices` lists them.
    /// - Throws: ``CommandFailure`` when no device (or more than one) answers to it, or the node
    ///   cannot be opened.
    static func open(_ name: String) throws -> EvdevDevice {
        if name.hasPrefix("/") {
            do {
                return try EvdevDevice(path: name)
            } catch {
                throw CommandFailure("cannot open \(name): \(error)")
            }
        }
        let udev = try Udev()
        var found: [(node: String, device: EvdevDevice)] = []
        var seen: [String] = []
        for info in (try? udev.inputDevices()) ?? [] {
            guard let device = try? EvdevDevice(path: info.devnode) else { continue }
            let identity = device.facts(udev: info).identity
            seen.append("\(info.devnode) \"\(device.description.name)\"")
            if device.description.name == name || identity == name { found.append((info.devnode, device)) }
        }
        guard found.count == 1, let only = found.first else {
            let listed = found.isEmpty ? seen : found.map { "\($0.node) \"\($0.device.description.name)\"" }
            let what = found.isEmpty ? "no input device is named" : "\(found.count) input devices are named"
            throw CommandFailure("\(what) \"\(name)\": give its node instead (\(listed.isEmpty ? "none is present" : listed.joined(separator: ", ")))")
        }
        return only.device
    }

    /// Warns on standard error when another reader grabs the device (a running touchd): nothing
    /// would then reach this one.
    static func warnIfGrabbed(_ device: EvdevDevice, tool: String) {
        do {
            try device.grab()
            try device.ungrab()
        } catch where error.isBusy {
            var stderr = StandardError()
            print(
                "\(tool): warning: another reader grabs \(device.path) (a running touchd?): nothing reaches this one; "
                    + "ask the daemon instead (touchctl record, or stop it)", to: &stderr)
        } catch {}
    }

    /// Reads `device` until it is stopped, handing each read to `each`, which returns false once it
    /// has had enough.
    /// - Throws: ``TouchSystem/SystemError`` when the loop or the signals cannot be set up.
    static func run(_ device: EvdevDevice, duration: Double?, each: @escaping (DeviceRead) -> Bool) throws -> Stop {
        let signals = try SignalSource([ProcessSignal.interrupt, ProcessSignal.terminate])
        let loop = try EventLoop()
        var stop: Stop?
        func end(_ reason: Stop) {
            if stop == nil { stop = reason }
            loop.stop()
        }
        try loop.register(signals.fd, for: .readable) { _ in
            _ = try? signals.receive()
            end(.signal)
        }
        try loop.register(device.fileDescriptor, for: .readable) { _ in
            let read = device.readAvailable()
            if !each(read) { end(.enough) }
            if read.isRemoval {
                loop.unregister(device.fileDescriptor)
                end(.removed)
            }
        }
        let timer = duration.map { seconds in loop.schedule(after: TimeSpan(seconds: seconds)) { end(.duration) } }
        defer {
            timer?.cancel()
            loop.unregister(signals.fd)
            loop.unregister(device.fileDescriptor)
        }
        try loop.run()
        return stop ?? .signal
    }
}
