import ArgumentParser
import TouchCore
import TouchEvdev
import TouchProtocol
import TouchSystem

/// `touchctl record`: the running daemon's device (or every touch device) as evemu recordings.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record what a device of the running daemon sends, as an evemu recording (needs the control role).",
        discussion: """
            touchd grabs its devices, so other recorders see nothing while it runs: this asks the \
            daemon for the events it reads (the `record` request), with the device's description, \
            and writes them when stopped (Ctrl-C, SIGTERM, --duration, or the device going away). \
            Without --device, the one touch device the daemon has; with --all, every touch device, \
            one file each in the directory --out names. The recording replays with `touchd replay`, \
            `touchd --replay` and evemu-play, and gives the messages the live run gave.
            """)
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The recording to write (with --all: an existing directory).", completion: .file()) var out: String
    @Option(name: .long, help: "The device's identity, as `touchctl devices` lists it.") var device: String?
    @Flag(name: .long, help: "Record every touch device, one file each in the --out directory.") var all = false
    @Option(name: .long, help: "Stop after this many seconds (default: when stopped).") var duration: Double?

    func validate() throws {
        if all && device != nil { throw ValidationError("--device and --all: give one of them") }
        if let duration, !Limits.captureDuration.contains(duration) { throw ValidationError("--duration \(duration): expected \(Limits.captureDuration)") }
        if let device { _ = try checked(.record(device: device)) }
    }

    func run() throws {
        try TouchControl.run {
            let signals = try SignalSource([ProcessSignal.interrupt, ProcessSignal.terminate])
            let c = try connection.connect(root)
            var session = RecordingSession(paths: [:])
            let result = try c.request(.record(device: device)) { message, _ in session.take(message) }
            let devices = try session.start(result, all: all, out: out)
            if devices.count > 1 && !all {
                throw ConnectionError("\(devices.count) touch devices are present (\(devices.joined(separator: ", "))): give --device, or --all with a directory")
            }
            printError("touchctl: recording \(devices.joined(separator: ", ")); stop with Ctrl-C")
            let reason = try Self.loop(c, signals: signals, duration: duration, session: &session)
            for line in try session.write() { printError("touchctl: \(line) (\(reason))") }
        }
    }

    /// Reads the daemon's messages until stopped; returns why it stopped.
    private static func loop(_ c: Connection, signals: SignalSource, duration: Double?, session: inout RecordingSession) throws -> String {
        let loop = try EventLoop()
        var reason = "stopped"
        var failure: Error?
        var collected = session
        try loop.register(signals.fd, for: .readable) { _ in
            _ = try? signals.receive()
            loop.stop()
        }
        try loop.register(c.fd, for: .readable) { _ in
            do {
                guard let messages = try c.receiveAvailable() else {
                    reason = "touchd closed the connection"
                    return loop.stop()
                }
                for (message, _) in messages { collected.take(message) }
                if collected.allEnded {
                    reason = "the device went away"
                    loop.stop()
                }
            } catch {
                failure = error
                loop.stop()
            }
        }
        let timer = duration.map { seconds in loop.schedule(after: TimeSpan(seconds: seconds)) { reason = "the time was up"; loop.stop() } }
        try loop.run()
        timer?.cancel()
        loop.unregister(signals.fd)
        loop.unregister(c.fd)
        session = collected
        if let failure { throw failure }
        return reason
    }
}

/// What a recording through the daemon has gathered: each device's description and events, and
/// where each goes.
struct RecordingSession {
    /// The file of each device recorded.
    var paths: [String: String]
    private var descriptions: [String: DeviceDescription] = [:]
    private var events: [String: [InputEvent]] = [:]
    private var ended: Set<String> = []
    private var early: [JSONValue] = []

    init(paths: [String: String]) { self.paths = paths }

    /// Whether every device recorded has gone away.
    var allEnded: Bool { !paths.isEmpty && ended.isSuperset(of: paths.keys) }

    /// The devices of the `record` reply, each with its file: `out` itself, or a file in the
    /// directory `out` with `all`. Returns their identities.
    mutating func start(_ result: JSONValue, all: Bool, out: String) throws -> [String] {
        var ids: [String] = []
        for item in result["devices"]?.arrayValue ?? [] {
            guard let id = item["device"]?.stringValue, let text = item["evemu"]?.stringValue else { continue }
            do {
                descriptions[id] = try Recording.parseDescription(text: text, name: "the description touchd sent of \(id)")
            } catch {
                throw ConnectionError("\(error)")
            }
            let path = all ? out + "/" + Self.fileName(for: id) : out
            // Before anything is recorded: a file that cannot be written is found out now.
            do { try FileWriter.checkWritable(path) } catch { throw ConnectionError("\(error)") }
            paths[id] = path
            ids.append(id)
        }
        for message in early { take(message) }
        early = []
        return ids
    }

    /// Takes a message: a device's raw events, or the end of its recording.
    mutating func take(_ message: JSONValue) {
        guard let id = message["device"]?.stringValue else { return }
        guard paths[id] != nil else { return early.append(message) }
        switch message["type"]?.stringValue {
        case "raw":
            for item in message["events"]?.arrayValue ?? [] {
                guard let f = item.arrayValue?.compactMap(\.intValue), f.count == 5, let type = UInt16(exactly: f[2]), let code = UInt16(exactly: f[3]),
                    let value = Int32(exactly: f[4])
                else { continue }
                events[id, default: []].append(InputEvent(time: EventTime(seconds: f[0], microseconds: f[1]), type: type, code: code, value: value))
            }
        case "recording_ended": ended.insert(id)
        default: break
        }
    }

    /// Writes every device's recording; returns a line per file.
    func write() throws -> [String] {
        try paths.sorted { $0.key < $1.key }.map { id, path in
            guard let description = descriptions[id] else { return "nothing recorded of \(id)" }
            let recorded = events[id] ?? []
            do {
                try FileWriter.write(text: EvemuWriter.text(Recording(description: description, events: recorded)), to: path)
            } catch {
                throw ConnectionError("\(error)")
            }
            return "wrote \(path): \(recorded.count) events of \(id)"
        }
    }

    /// A file name for a device's identity: its characters that are not letters, digits, `.`, `-`
    /// or `_` become `_`.
    static func fileName(for id: String) -> String {
        let safe = id.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return String(safe.prefix(200)) + ".evemu"
    }
}
