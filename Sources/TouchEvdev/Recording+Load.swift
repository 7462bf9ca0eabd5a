import Foundation

// The only file I/O in TouchEvdev: reading a recording (and its companion description) by path.

extension Recording {
    /// Reads and parses the recording at `path`, detecting its format.
    ///
    /// An events-only evemu file needs a device description: `descriptionPath` when given, else its
    /// companion in the same directory (see ``companionDescriptionPath(forEventsAt:)``).
    ///
    /// - Parameters:
    ///   - path: The recording.
    ///   - descriptionPath: An evemu description file (`.desc`, `.device`, or any evemu file with
    ///     `N:`/`A:` lines) for the device; it replaces whatever `path` describes.
    /// - Throws: ``RecordingError``: `.unreadable` when a file cannot be read, `.missingDescription`
    ///   when an events-only file has no companion, or the parse error of either file.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        let text = try readText(path)
        if let descriptionPath {
            let description = try loadDescription(path: descriptionPath)
            var recording = try parse(text: text, name: path, description: description)
            recording.descriptionSource = .companion(path: descriptionPath)
            return recording
        }
        let format = try detectFormat(text: text, name: path)
        guard format == .evemu else { return try parse(text: text, name: path) }
        let parsed = try EvemuParser(name: path).parse(text)
        if let own = parsed.description {
            return Recording(description: own, events: parsed.events, format: .evemu)
        }
        guard let companion = companionDescriptionPath(forEventsAt: path) else {
            let file = (path as NSString).lastPathComponent
            throw RecordingError(
                file: path,
                kind: .missingDescription(
                    searched: "looked for a .desc or .device file whose name without extension starts '\(file)'"))
        }
        let description = try loadDescription(path: companion)
        return Recording(
            description: description, events: parsed.events, format: .evemu,
            descriptionSource: .companion(path: companion))
    }

    /// The device description in the evemu file at `path`.
    ///
    /// - Throws: ``RecordingError``: the file is unreadable, does not parse, or describes no device.
    public static func loadDescription(path: String) throws(RecordingError) -> DeviceDescription {
        let text = try readText(path, what: "the device description")
        guard let description = try EvemuParser(name: path).parse(text).description else {
            throw RecordingError(
                file: path,
                kind: .unexpected(expected: "a device description ('N:', 'I:', 'P:', 'B:', 'A:' lines)", found: "events only"))
        }
        return description
    }

    /// The description file that belongs to the events-only recording at `path`, or nil.
    ///
    /// The rule: among the `.desc` and `.device` files in the same directory, the one with the
    /// longest name-without-extension (stem) that prefixes the recording's file name and is followed
    /// there by `.`, `-`, `_` or a space. So `N-Trig MultiTouch.2-fingers-touch-release.events`
    /// finds `N-Trig MultiTouch.desc`, `ntrig-xt2-3-tap.event` finds `ntrig-xt2.device`, and
    /// `SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events` finds `SynPS2 Synaptics TouchPad.desc`,
    /// not `SynPS2 Synaptics TouchPad.lenovo-p50.desc`.
    public static func companionDescriptionPath(forEventsAt path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let fileName = url.lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        let stems = entries.compactMap { entry -> (entry: String, stem: String)? in
            guard entry != fileName else { return nil }
            for suffix in [".desc", ".device"] where entry.hasSuffix(suffix) {
                return (entry, String(entry.dropLast(suffix.count)))
            }
            return nil
        }
        return companionName(for: fileName, among: stems)
            .map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
    }

    /// The pure half of ``companionDescriptionPath(forEventsAt:)``: picks among `(entry, stem)` pairs.
    static func companionName(for fileName: String, among candidates: [(entry: String, stem: String)]) -> String? {
        let separators: Set<Character> = [".", "-", "_", " "]
        let matching = candidates.filter { candidate in
            guard !candidate.stem.isEmpty, fileName.hasPrefix(candidate.stem) else { return false }
            let next = fileName.dropFirst(candidate.stem.count).first
            return next.map { separators.contains($0) } ?? false
        }
        let best = matching.max { lhs, rhs in
            lhs.stem.count != rhs.stem.count ? lhs.stem.count < rhs.stem.count : lhs.entry > rhs.entry
        }
        return best?.entry
    }

    private static func readText(_ path: String, what: String = "the recording") throws(RecordingError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RecordingError(file: path, kind: .unreadable(reason: error.localizedDescription, what: what))
        }
        // Invalid UTF-8 (firmware garbage in a device name) becomes U+FFFD rather than failing.
        return String(decoding: data, as: UTF8.self)
    }
}
