import TouchCore

/// A recorded input device: what it is and what it sent.
///
/// Recordings feed the same pipeline as live devices: build a ``FrameAssembler`` from
/// ``description`` and feed it ``events`` in order.
public struct Recording: Hashable, Sendable {
    /// The device, from the file itself, its companion description file, or derived from the events.
    public var description: DeviceDescription
    /// The events in the order the device sent them.
    public var events: [InputEvent]
    /// The format the text was written in.
    public var format: RecordingFormat
    /// Where ``description`` came from.
    public var descriptionSource: DescriptionSource
    /// udev properties the recording carries (libinput-record's `udev.properties`), else empty.
    public var udevProperties: [String: String]

    /// A recording from its parts; the defaults describe an evemu file with its own description.
    public init(
        description: DeviceDescription, events: [InputEvent], format: RecordingFormat = .evemu,
        descriptionSource: DescriptionSource = .embedded, udevProperties: [String: String] = [:]
    ) {
        self.description = description
        self.events = events
        self.format = format
        self.descriptionSource = descriptionSource
        self.udevProperties = udevProperties
    }
}

/// The text formats touchd reads.
public enum RecordingFormat: String, Hashable, Sendable, CaseIterable {
    /// `evemu-record` output (`N:`, `I:`, `P:`, `B:`, `A:` and `E:` lines, `#` comments), any
    /// version from the header-less 2011 files to `# EVEMU 1.3`; also description-only (`.desc`,
    /// `.device`) and events-only (`.events`) files.
    case evemu
    /// `libinput record` YAML, version 1.
    case libinputRecord
    /// Android `getevent -lt` (or `-t`, or plain) text.
    case getevent
}

/// Where a recording's device description came from.
public enum DescriptionSource: Hashable, Sendable {
    /// The recording file describes the device itself.
    case embedded
    /// A companion file (`X.desc`, `X.device`) next to an events-only file, at this path.
    case companion(path: String)
    /// The caller passed it in.
    case given
    /// Nothing describes the device (a getevent trace): axis ranges are the extremes the events
    /// reach (from 0), codes are the ones seen, and a trace with multi-touch positions is assumed to
    /// come from a touchscreen (`INPUT_PROP_DIRECT`). Mapping such a recording is approximate.
    case derivedFromEvents
}

extension Recording {
    /// Parses a recording from text, detecting its format (``RecordingFormat``).
    ///
    /// - Parameters:
    ///   - text: The file's contents (line endings `\n` or `\r\n`).
    ///   - name: The file's name, used in errors.
    ///   - description: The device, for an events-only evemu file; when given it replaces whatever
    ///     the text describes.
    /// - Returns: The recording. A description-only evemu file gives a recording with no events.
    /// - Throws: ``RecordingError`` naming the line at fault and what was expected there, or
    ///   `.missingDescription` for an events-only file without `description`, or `.exceedsLimit`
    ///   for text past a budget of ``TouchCore/Limits`` (its size, its events, its description).
    ///   Never traps, whatever the text.
    public static func parse(
        text: String, name: String, description: DeviceDescription? = nil
    ) throws(RecordingError) -> Recording {
        try RecordingDomains.checkSize(text, file: name)
        return try parse(text: text, name: name, format: detectFormat(text: text, name: name), description: description)
    }

    /// Parses a recording from text known to be in `format`, with that format's parser whatever
    /// the text looks like (as ``parse(text:name:description:)`` does once it has detected it).
    ///
    /// - Throws: ``RecordingError`` as ``parse(text:name:description:)``. Never traps.
    public static func parse(
        text: String, name: String, format: RecordingFormat, description: DeviceDescription? = nil
    ) throws(RecordingError) -> Recording {
        try RecordingDomains.checkSize(text, file: name)
        var recording: Recording
        switch format {
        case .evemu:
            let parsed = try EvemuParser(name: name).parse(text)
            if let description {
                recording = Recording(
                    description: description, events: parsed.events, format: .evemu, descriptionSource: .given)
            } else if let own = parsed.description {
                recording = Recording(description: own, events: parsed.events, format: .evemu)
            } else {
                throw RecordingError(file: name, kind: .missingDescription(searched: "no companion given"))
            }
        case .libinputRecord:
            recording = try LibinputRecordParser(name: name).parse(text)
        case .getevent:
            recording = try GeteventParser(name: name).parse(text)
        }
        if let description, format != .evemu {
            recording.description = description
            recording.descriptionSource = .given
        }
        return recording
    }

    /// Parses a recording whose device may be described by a companion file, as a recording is
    /// read from a path: `companion` is asked for the companion (its path and text, or nil when
    /// there is none) only when the text is an evemu file with events and no description.
    ///
    /// - Throws: ``RecordingError`` as ``parse(text:name:description:)``, for either text; or
    ///   `.missingDescription` when an events-only file has no companion.
    public static func parse(
        text: String, name: String, companion: () throws(RecordingError) -> (path: String, text: String)?
    ) throws(RecordingError) -> Recording {
        try RecordingDomains.checkSize(text, file: name)
        guard try detectFormat(text: text, name: name) == .evemu else { return try parse(text: text, name: name) }
        let parsed = try EvemuParser(name: name).parse(text)
        if let own = parsed.description { return Recording(description: own, events: parsed.events, format: .evemu) }
        guard let (path, descriptionText) = try companion() else {
            let file = name.split(separator: "/").last.map(String.init) ?? name
            throw RecordingError(
                file: name,
                kind: .missingDescription(
                    searched: "looked for a .desc or .device file whose name without extension starts '\(file)'"))
        }
        let description = try parseDescription(text: descriptionText, name: path)
        return Recording(description: description, events: parsed.events, format: .evemu, descriptionSource: .companion(path: path))
    }

    /// The device description in an evemu text (a `.desc` or `.device` file, or any evemu file
    /// with `N:`/`A:` lines).
    ///
    /// - Throws: ``RecordingError``: the text is larger than
    ///   ``TouchCore/Limits/maximumDescriptionBytes``, does not parse, or describes no device.
    public static func parseDescription(text: String, name: String) throws(RecordingError) -> DeviceDescription {
        try RecordingDomains.checkSize(text, file: name, limit: Limits.maximumDescriptionBytes)
        guard let description = try EvemuParser(name: name).parse(text).description else {
            throw RecordingError(
                file: name,
                kind: .unexpected(expected: "a device description ('N:', 'I:', 'P:', 'B:', 'A:' lines)", found: "events only"))
        }
        return description
    }

    /// The description file that belongs to the events-only recording `fileName`, among the
    /// names of the files in its directory, or nil.
    ///
    /// The rule: among the `.desc` and `.device` files, the one with the longest
    /// name-without-extension (stem) that prefixes the recording's file name and is followed
    /// there by `.`, `-`, `_` or a space. So `N-Trig MultiTouch.2-fingers-touch-release.events`
    /// finds `N-Trig MultiTouch.desc`, `ntrig-xt2-3-tap.event` finds `ntrig-xt2.device`, and
    /// `SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events` finds `SynPS2 Synaptics TouchPad.desc`,
    /// not `SynPS2 Synaptics TouchPad.lenovo-p50.desc`.
    public static func companionName(for fileName: String, among entries: [String]) -> String? {
        let candidates = entries.compactMap { entry -> (entry: String, stem: String)? in
            guard entry != fileName else { return nil }
            for suffix in [".desc", ".device"] where entry.hasSuffix(suffix) {
                return (entry, String(entry.dropLast(suffix.count)))
            }
            return nil
        }
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

    /// Which format `text` is in, judged from its first meaningful lines.
    ///
    /// - Throws: `.unrecognisedFormat` for empty text or text in none of the formats.
    public static func detectFormat(text: String, name: String) throws(RecordingError) -> RecordingFormat {
        var sawComment = false
        for (_, line) in TextLines(text) {
            let trimmed = line.trimmingLeadingSpaces()
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("# libinput record") { return .libinputRecord }
            if trimmed.hasPrefix("#") {
                sawComment = true
                continue
            }
            if let first = trimmed.first, first.isUppercaseASCIILetter, trimmed.dropFirst().hasPrefix(":") {
                return .evemu
            }
            if trimmed.hasPrefix("version:") || trimmed.hasPrefix("ndevices:") || trimmed.hasPrefix("devices:")
                || trimmed.hasPrefix("libinput:") || trimmed == "---"
            {
                return .libinputRecord
            }
            if trimmed.hasPrefix("[") || trimmed.hasPrefix("add device") || trimmed.hasPrefix("/dev/")
                || trimmed.hasPrefix("EV_") || trimmed.hasPrefix("could not")
            {
                return .getevent
            }
            break
        }
        if sawComment {
            // Only comments: an evemu file with nothing in it; the evemu parser says so precisely.
            return .evemu
        }
        throw RecordingError(file: name, line: nil, kind: .unrecognisedFormat)
    }
}

extension Character {
    var isUppercaseASCIILetter: Bool { ("A"..."Z").contains(self) }
}
