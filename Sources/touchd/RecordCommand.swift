import ArgumentParser
import TouchCore
import TouchDevices
import TouchEvdev
import TouchSystem

/// `touchd record`: what one input device sends, as an evemu recording, read straight from its node.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record what an input device sends as an evemu recording, without a daemon (like evemu-record).",
        discussion: """
            DEVICE is the device's node (/dev/input/event5), or its name or identity as `touchd devices` \
            lists them. Recording stops on Ctrl-C (SIGINT) or SIGTERM, after --duration, or when the \
            device goes away; the file is written then, whole: the device's description (evemu's \
            N:, I:, P:, B:, A: lines) and every event with the kernel's timestamps. A running touchd \
            that grabs the device leaves nothing for this command (it says so: it tries a grab for \
            an instant at start, to tell): `touchctl record` asks the daemon instead. The recording replays with `touchd replay`, `touchd --replay` and evemu-play.
            """)

    @Argument(help: "The device: its node, or its name or identity.", completion: Completions.device)
    var device: String

    @Option(name: .long, help: "The recording to write (evemu text).", completion: Completions.recording)
    var out: String

    @Option(name: .long, help: "Stop after this many seconds (default: when stopped).")
    var duration: Double?

    @Flag(name: .long, help: "Grab the device while recording, so that nothing else sees its events.")
    var grab = false

    func validate() throws {
        if let duration, !Limits.captureDuration.contains(duration) {
            throw ValidationError("--duration \(duration): expected \(Limits.captureDuration)")
        }
    }

    func run() throws {
        // Before anything is recorded: a recording that cannot be written is found out now.
        do { try FileWriter.checkWritable(out) } catch { throw CommandFailure("\(error)") }
        let device = try DeviceCapture.open(self.device)
        if grab {
            do { try device.grab() } catch { throw CommandFailure("cannot grab \(device.path): \(error)") }
        } else {
            DeviceCapture.warnIfGrabbed(device, tool: "touchd record")
        }
        var stderr = StandardError()
        print("touchd record: recording \(device.path) \"\(device.description.name)\" to \(out); stop with Ctrl-C", to: &stderr)
        var events: [InputEvent] = []
        var full = false
        let stop = try DeviceCapture.run(device, duration: duration) { read in
            let more = read.recordedEvents
            guard events.count + more.count <= Limits.maximumRecordingEvents else {
                full = true
                return false
            }
            events += more
            return true
        }
        do {
            try FileWriter.write(text: EvemuWriter.text(Recording(description: device.description, events: events)), to: out)
        } catch {
            throw CommandFailure("\(error)")
        }
        let why = full ? "the most a recording holds (\(Limits.maximumRecordingEvents) events) was reached" : stop.rawValue
        print("touchd record: wrote \(out): \(events.count) events (\(why))", to: &stderr)
    }
}
