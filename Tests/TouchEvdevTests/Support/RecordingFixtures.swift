import Foundation
import Testing
import TouchEvdev

/// The shared recordings at `../shared/recordings` beside the package root, and their INDEX.tsv.
enum RecordingFixtures {
    /// The package root: the first directory above this file that holds Package.swift.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    }()

    static let directory = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/recordings")

    static let isAvailable = FileManager.default.fileExists(atPath: directory.appendingPathComponent("INDEX.tsv").path)

    static let isCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// Every INDEX.tsv row, or none when the recordings are absent.
    static let rows: [IndexRow] = {
        guard isAvailable,
            let text = try? String(contentsOf: directory.appendingPathComponent("INDEX.tsv"), encoding: .utf8)
        else { return [] }
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { IndexRow(header: header, values: $0) }
    }()

    /// The rows whose file holds events.
    static let rowsWithEvents = rows.filter { ($0["n_events"].flatMap(Int.init) ?? 0) > 0 }

    static func path(_ row: IndexRow) -> String { directory.appendingPathComponent(row.path).path }

    /// Reads and parses the recording at `path`, with its companion description when it has only
    /// events, as the daemon's loader does (TouchEvdev parses text; reading files is the shell's).
    static func load(path: String) throws -> Recording {
        let text = try text(at: path)
        return try Recording.parse(text: text, name: path) { () throws(RecordingError) -> (path: String, text: String)? in
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard let name = Recording.companionName(for: url.lastPathComponent, among: entries) else { return nil }
            let companion = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: companion) else {
                throw RecordingError(file: companion, kind: .unreadable(reason: "cannot be read", what: "the device description"))
            }
            return (companion, String(decoding: data, as: UTF8.self))
        }
    }

    /// A file's text; bytes that are not UTF-8 become U+FFFD, as the daemon reads them.
    static func text(at path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }
}

/// One INDEX.tsv row, read by column name.
struct IndexRow: Sendable, CustomTestStringConvertible {
    let columns: [String: String]

    init(header: [String], values: [String]) {
        var columns: [String: String] = [:]
        for (index, name) in header.enumerated() where index < values.count {
            columns[name] = values[index]
        }
        self.columns = columns
    }

    subscript(_ column: String) -> String? { columns[column] }

    var path: String { columns["path"] ?? "" }

    var testDescription: String { path }

    /// A column that is a plain integer.
    func integer(_ column: String) -> Int? { columns[column].flatMap { Int($0) } }

    /// `"0..799"` or `"0..32767 res 55"` as (min, max, resolution?).
    func range(_ column: String) -> (min: Int32, max: Int32, resolution: Int32?)? {
        guard let text = columns[column] else { return nil }
        let parts = text.split(separator: " ")
        guard let bounds = parts.first?.split(separator: ".", omittingEmptySubsequences: true), bounds.count == 2,
            let low = Int32(bounds[0]), let high = Int32(bounds[1])
        else { return nil }
        let resolution = parts.count == 3 && parts[1] == "res" ? Int32(parts[2]) : nil
        return (low, high, resolution)
    }
}

/// A recording replayed through a FrameAssembler, with the numbers the tests check.
struct Replay {
    let recording: Recording
    let frames: [ContactFrame]
    let anomalies: [DeviceAnomaly]
    let capabilities: DeviceCapabilities
    let kind: DeviceKind

    init(path: String) throws {
        recording = try RecordingFixtures.load(path: path)
        var assembler = FrameAssembler(description: recording.description)
        var frames = assembler.feed(recording.events)
        if let last = assembler.finish(at: recording.events.last?.time ?? EventTime(microseconds: 0)) {
            frames.append(last)
        }
        self.frames = frames
        anomalies = assembler.anomalies
        capabilities = assembler.capabilities
        kind = DeviceClassification(description: recording.description, udevProperties: recording.udevProperties).kind
    }

    var begins: Int { frames.reduce(0) { $0 + $1.contacts.filter { $0.phase == .began }.count } }

    var maximumLive: Int { frames.map(\.liveContacts.count).max() ?? 0 }

    /// Periods with at least one contact down.
    var sequences: Int {
        var count = 0
        var previous = 0
        for frame in frames {
            let live = frame.liveContacts.count
            if previous == 0 && live > 0 { count += 1 }
            previous = live
        }
        return count
    }

    /// Problems with the contact life cycle: every id begins once, then moves or stays, then ends or
    /// is cancelled exactly once, and never appears again; ids only grow.
    func lifecycleProblems() -> [String] {
        var problems: [String] = []
        var live = Set<UInt64>()
        var finished = Set<UInt64>()
        var highest: UInt64 = 0
        for frame in frames {
            for contact in frame.contacts {
                let id = contact.id
                if finished.contains(id) {
                    problems.append("\(frame.time): id \(id) \(contact.phase) after it finished")
                    continue
                }
                switch contact.phase {
                case .began:
                    if live.contains(id) { problems.append("\(frame.time): id \(id) began twice") }
                    if id <= highest { problems.append("\(frame.time): id \(id) is not new") }
                    highest = max(highest, id)
                    live.insert(id)
                case .moved, .stationary:
                    if !live.contains(id) { problems.append("\(frame.time): id \(id) \(contact.phase) before it began") }
                case .ended, .cancelled:
                    if live.remove(id) == nil { problems.append("\(frame.time): id \(id) \(contact.phase) but was not live") }
                    finished.insert(id)
                }
            }
        }
        if !live.isEmpty { problems.append("still live after finish: \(live.sorted())") }
        return problems
    }
}
