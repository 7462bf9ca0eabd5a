import TouchCore

/// Reads Android `getevent` text: `-lt` (`[   213130.350752] EV_ABS ABS_MT_POSITION_X 0000002b`),
/// `-t`, `-l` or plain (hex types and codes), with or without a `/dev/input/eventN:` prefix.
/// Values are 32-bit hex (`ffffffff` is -1) or, for keys under `-l`, `DOWN`/`UP`/`REPEAT`.
/// `add device N: <path>` and `name: "…"` lines name the devices; `could not …` lines are ignored.
///
/// A trace carries no axis ranges, so the description is derived from the events
/// (``DescriptionSource/derivedFromEvents``). When the trace holds several devices, the one with the
/// most absolute-axis events is kept. Every event is checked against its domain in
/// ``TouchCore/Limits`` as its line is read. The largest `ABS_MT_SLOT` value becomes the derived
/// slot axis's maximum, read as a live device's (``DeviceCapabilities/declaredSlots(_:)``).
struct GeteventParser {
    let name: String

    private struct Device {
        var name: String?
        var events: [InputEvent] = []
        var absEvents = 0
    }

    /// The devices of a trace by path, in the order they appear; changed in place (an event is
    /// appended to its device's array without copying it).
    private struct Devices {
        private(set) var byPath: [String: Device] = [:]
        private(set) var order: [String] = []

        mutating func add(_ path: String) {
            if byPath[path] == nil {
                order.append(path)
                byPath[path] = Device()
            }
        }

        mutating func name(_ path: String, _ name: String) {
            add(path)
            byPath[path]?.name = name
        }

        mutating func append(_ event: InputEvent, to path: String) {
            add(path)
            byPath[path]?.events.append(event)
            if event.type == EventType.abs { byPath[path]?.absEvents += 1 }
        }

        /// The device with the most absolute-axis events (the first of equals).
        var busiest: Device? {
            var best: Device?
            for path in order {
                guard let device = byPath[path], !device.events.isEmpty else { continue }
                if device.absEvents > (best?.absEvents ?? -1) { best = device }
            }
            return best
        }
    }

    func parse(_ text: String) throws(RecordingError) -> Recording {
        var devices = Devices()
        var currentPath = ""
        var lastLine = 0
        var eventCount = 0
        for (number, line) in TextLines(text) {
            let content = line.trimmingSpaces()
            if content.isEmpty || content.hasPrefix("could not") { continue }
            lastLine = number
            if content.hasPrefix("add device") {
                // add device 1: /dev/input/event2
                if let colon = content.firstIndex(of: ":") {
                    currentPath = content[content.index(after: colon)...].trimmingSpaces()
                    devices.add(currentPath)
                }
                continue
            }
            if line.first == " " || line.first == "\t" {
                // Indented details under 'add device' (getevent -p); only the name matters.
                if content.hasPrefix("name:") {
                    let deviceName = content.dropFirst("name:".count).trimmingSpaces().trimmingCharacters(quote: "\"")
                    guard deviceName.utf8.count <= Limits.maximumDeviceNameBytes else {
                        throw unexpected(number, "a device name of at most \(Limits.maximumDeviceNameBytes) bytes", line)
                    }
                    devices.name(currentPath, deviceName)
                }
                continue
            }
            let (path, event) = try readEvent(content, line: number, text: line)
            eventCount += 1
            guard eventCount <= Limits.maximumRecordingEvents else {
                throw RecordingError(file: name, line: number, kind: .exceedsLimit(what: "events", limit: Limits.maximumRecordingEvents))
            }
            devices.append(event, to: path)
        }
        guard let picked = devices.busiest else {
            throw RecordingError(
                file: name, line: lastLine > 0 ? lastLine : nil,
                kind: .unexpected(expected: "at least one '[ seconds ] TYPE CODE VALUE' event line", found: "end of file"))
        }
        let description = Self.derive(name: picked.name ?? "getevent trace \(name)", events: picked.events)
        return Recording(description: description, events: picked.events, format: .getevent, descriptionSource: .derivedFromEvents)
    }

    /// `[ <seconds> ] [<path>:] <type> <code> <value>`.
    private func readEvent(_ content: String, line: Int, text: String) throws(RecordingError) -> (String, InputEvent) {
        let expected = "'[ <seconds> ] [/dev/input/eventN:] <type> <code> <value>' (names or hex)"
        var rest = Substring(content)
        var time = EventTime(microseconds: 0)
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"),
                let parsed = NumberText.time(rest[rest.index(after: rest.startIndex)..<close].trimmingSpaces())
            else {
                throw unexpected(line, expected, text)
            }
            time = parsed
            rest = rest[rest.index(after: close)...]
        }
        var fields = rest.fields()
        var path = ""
        if let first = fields.first, first.hasSuffix(":") {
            path = String(first.dropLast())
            fields.removeFirst()
        }
        guard fields.count == 3, let type = Self.type(fields[0]), let code = Self.code(fields[1], type: type),
            let value = Self.value(fields[2])
        else {
            throw unexpected(line, expected, text)
        }
        try RecordingDomains.checkEvent(type: type, code: code, file: name, line: line, text: text)
        return (path, InputEvent(time: time, type: type, code: code, value: value))
    }

    private static func type(_ field: Substring) -> UInt16? {
        if let named = EventCodes.type(named: String(field)) { return named }
        return NumberText.hex16(field)
    }

    private static func code(_ field: Substring, type: UInt16) -> UInt16? {
        if let named = EventCodes.code(named: String(field), type: type) { return named }
        return NumberText.hex16(field)
    }

    private static func value(_ field: Substring) -> Int32? {
        switch field {
        case "DOWN": return 1
        case "UP": return 0
        case "REPEAT": return 2
        default: return NumberText.hex32(field)
        }
    }

    /// A description from what the events show: each absolute axis spans 0 (or its lowest value)
    /// to its highest value; tracking ids span 0…65535 as the kernel declares them.
    static func derive(name: String, events: [InputEvent]) -> DeviceDescription {
        var description = DeviceDescription(name: name)
        var low: [UInt16: Int32] = [:]
        var high: [UInt16: Int32] = [:]
        description.codes[EventType.syn] = [SynCode.report]
        for event in events {
            description.codes[event.type, default: []].insert(event.code)
            if event.type == EventType.abs {
                low[event.code] = min(low[event.code] ?? 0, event.value)
                high[event.code] = max(high[event.code] ?? event.value, event.value)
            }
        }
        for (code, minimum) in low {
            var maximum = max(high[code] ?? minimum, minimum &+ 1)
            var lowest = minimum
            if code == AbsCode.mtTrackingID {
                lowest = 0
                maximum = 65535
            }
            description.absInfo[code] = AbsInfo(minimum: lowest, maximum: maximum)
        }
        let abs = description.codes[EventType.abs] ?? []
        if abs.contains(AbsCode.mtPositionX) && abs.contains(AbsCode.mtPositionY) {
            description.properties.insert(InputProperty.direct)
        }
        return description
    }

    private func unexpected(_ line: Int, _ expected: String, _ found: String) -> RecordingError {
        RecordingError(file: name, line: line, kind: .unexpected(expected: expected, found: found))
    }
}

extension String {
    /// The string without one pair of `quote` characters around it.
    func trimmingCharacters(quote: Character) -> String {
        guard count >= 2, first == quote, last == quote else { return self }
        return String(dropFirst().dropLast())
    }
}
