import TouchCore

/// Reads `libinput record` YAML (format version 1): a device's `evdev` description (`name`, `id`,
/// `codes`, `absinfo`, `properties`), its `udev.properties`, and the `evdev` event lists
/// (`[sec, usec, type, code, value]`). Of several devices (`libinput record --multiple`), the one
/// with the most absolute-axis events is read. Unknown keys and `libinput` event entries are ignored,
/// as the format asks of its readers.
///
/// The text is measured before it is composed (``YAMLBudget``: aliases expanded, nesting), and
/// every number is checked against its domain in ``TouchCore/Limits`` as it is read.
struct LibinputRecordParser {
    let name: String

    func parse(_ text: String) throws(RecordingError) -> Recording {
        do {
            return try read(text)
        } catch {
            // Errors carry the YAML reader's lines until here.
            var located = error
            located.line = error.line.map { YAMLLines.line(ofYAMLLine: $0, in: text) }
            throw located
        }
    }

    private func read(_ text: String) throws(RecordingError) -> Recording {
        try YAMLBudget.check(text, file: name)
        let composed: YAMLNode?
        do {
            composed = try YAMLComposer.compose(text)
        } catch {
            throw RecordingError(file: name, line: error.line, kind: .invalidYAML(problem: error.problem))
        }
        guard let root = composed else {
            // Nothing but comments: the error is at the end of the file.
            let lastLine = YAMLLines.yamlLine(ofByte: text.utf8.count, in: text)
            throw RecordingError(
                file: name, line: lastLine, kind: .unexpected(expected: "a libinput-record document", found: "empty document"))
        }

        let rootMap = try mapping(root, "the top-level mapping with 'version' and 'devices'")
        guard let versionNode = rootMap["version"] else {
            throw unexpected(root, "a 'version' key", "no 'version'")
        }
        guard versionNode.int == 1 else {
            throw unexpected(versionNode, "version 1", versionNode.string ?? "a non-scalar")
        }
        guard let devicesNode = rootMap["devices"] else {
            throw unexpected(root, "a 'devices' key", "no 'devices'")
        }
        // Several devices (`libinput record --multiple`): the one with the most absolute-axis
        // events is replayed (the first of equals), as a getevent trace's is.
        var picked: (node: YAMLNode, map: [YAMLPair], events: [InputEvent])?
        var pickedAxisEvents = -1
        for node in try sequence(devicesNode, "a list of devices") {
            let map = try mapping(node, "a device mapping with 'evdev' and 'events'")
            let events = try readEvents(map["events"])
            let axisEvents = events.count { $0.type == EventType.abs }
            if axisEvents > pickedAxisEvents { (picked, pickedAxisEvents) = ((node, map, events), axisEvents) }
        }
        guard let (device, deviceMap, events) = picked else {
            throw unexpected(devicesNode, "at least one device", "an empty list")
        }
        guard let evdev = deviceMap["evdev"] else {
            throw unexpected(device, "an 'evdev' key", "no 'evdev'")
        }
        let description = try readDescription(evdev)
        let udev = try readUdevProperties(deviceMap["udev"])
        return Recording(
            description: description, events: events, format: .libinputRecord, descriptionSource: .embedded,
            udevProperties: udev)
    }

    private func readDescription(_ node: YAMLNode) throws(RecordingError) -> DeviceDescription {
        let map = try mapping(node, "the 'evdev' mapping")
        var name = ""
        if let nameNode = map["name"] {
            guard case .scalar(let scalar) = nameNode else { throw unexpected(nameNode, "'name:' with the device's name as text", describe(nameNode)) }
            guard scalar.text.utf8.count <= Limits.maximumDeviceNameBytes else {
                throw unexpected(nameNode, "a device name of at most \(Limits.maximumDeviceNameBytes) bytes", "a longer one")
            }
            name = scalar.text
        }
        var description = DeviceDescription(name: name)
        if let idNode = map["id"] {
            let ids = try sequence(idNode, "'id: [bus, vendor, product, version]'")
            let values = ids.compactMap { Self.uint16($0) }
            guard ids.count == 4, values.count == 4 else {
                throw unexpected(
                    idNode, "'id: [bus, vendor, product, version]' with 16-bit numbers",
                    found(in: ids, count: 4) { _, item in Self.uint16(item) != nil })
            }
            (description.bus, description.vendor, description.product, description.version) = (values[0], values[1], values[2], values[3])
        }
        if let codesNode = map["codes"] { try readCodes(codesNode, into: &description) }
        if let absNode = map["absinfo"] { try readAxes(absNode, into: &description) }
        if let propertiesNode = map["properties"] {
            for propertyNode in try sequence(propertiesNode, "a list of input property numbers") {
                guard let property = Self.uint16(propertyNode), Limits.inputProperty.contains(property) else {
                    throw unexpected(propertyNode, "an input property number from 0 to 31", propertyNode.string ?? "?")
                }
                description.properties.insert(property)
            }
        }
        return description
    }

    /// `codes: {type: [code, ...]}`.
    private func readCodes(_ node: YAMLNode, into description: inout DeviceDescription) throws(RecordingError) {
        for pair in try mapping(node, "'codes: {type: [codes]}'") {
            let (typeNode, listNode) = (pair.key, pair.value)
            guard let type = Self.uint16(typeNode), Limits.eventType.contains(type) else {
                throw unexpected(typeNode, "an event type number from 0 to 31", typeNode.string ?? "?")
            }
            var set = Set<UInt16>()
            for codeNode in try sequence(listNode, "a list of event codes") {
                guard let code = Self.uint16(codeNode), Limits.eventCode.contains(code) else {
                    throw unexpected(codeNode, "an event code number from 0 to 767 (KEY_MAX)", codeNode.string ?? "?")
                }
                set.insert(code)
            }
            description.codes[type] = set
        }
    }

    /// `absinfo: {code: [min, max, fuzz, flat, resolution]}`.
    private func readAxes(_ node: YAMLNode, into description: inout DeviceDescription) throws(RecordingError) {
        for pair in try mapping(node, "'absinfo: {code: [min, max, fuzz, flat, resolution]}'") {
            let (codeNode, infoNode) = (pair.key, pair.value)
            guard let code = Self.uint16(codeNode), Limits.absoluteAxisCode.contains(code) else {
                throw unexpected(codeNode, "an absolute axis code from 0 to 63", codeNode.string ?? "?")
            }
            let items = try sequence(infoNode, "'[min, max, fuzz, flat, resolution]'")
            let values = items.compactMap { Self.int32($0) }
            guard items.count == 5, values.count == 5 else {
                throw unexpected(
                    infoNode, "'[min, max, fuzz, flat, resolution]' as 5 integers",
                    found(in: items, count: 5) { _, item in Self.int32(item) != nil })
            }
            let info = AbsInfo(minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3], resolution: values[4])
            description.absInfo[code] = info
            description.codes[EventType.abs, default: []].insert(code)
        }
    }

    private func readUdevProperties(_ node: YAMLNode?) throws(RecordingError) -> [String: String] {
        guard let node, let list = try mapping(node, "the 'udev' mapping")["properties"] else { return [:] }
        var result: [String: String] = [:]
        for item in try sequence(list, "a list of 'KEY=value' strings") {
            guard let text = item.string, let equals = text.firstIndex(of: "=") else {
                throw unexpected(item, "a 'KEY=value' string", item.string ?? "a non-scalar")
            }
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return result
    }

    private func readEvents(_ node: YAMLNode?) throws(RecordingError) -> [InputEvent] {
        guard let node else { return [] }
        if case .scalar = node { return [] }  // `events:` with nothing after it
        var events: [InputEvent] = []
        for entry in try sequence(node, "a list of event entries ('- evdev: [...]')") {
            let entryMap = try mapping(entry, "an event entry mapping ('evdev:' or 'libinput:')")
            guard let evdevList = entryMap["evdev"] else { continue }
            for eventNode in try sequence(evdevList, "a list of '[sec, usec, type, code, value]'") {
                guard events.count < Limits.maximumRecordingEvents else {
                    throw RecordingError(
                        file: name, line: eventNode.line, kind: .exceedsLimit(what: "events", limit: Limits.maximumRecordingEvents))
                }
                events.append(try readEvent(eventNode))
            }
        }
        return events
    }

    /// `[sec, usec, type, code, value]`.
    private func readEvent(_ node: YAMLNode) throws(RecordingError) -> InputEvent {
        let items = try sequence(node, "'[sec, usec, type, code, value]'")
        let numbers = items.compactMap(\.int)
        guard items.count == 5, numbers.count == 5, let type = UInt16(exactly: numbers[2]), let code = UInt16(exactly: numbers[3]),
            let value = Int32(exactly: numbers[4])
        else {
            throw unexpected(
                node, "'[sec, usec, type, code, value]' as 5 integers in range",
                found(in: items, count: 5) { i, item in
                    guard let n = item.int else { return false }
                    switch i {
                    case 2, 3: return UInt16(exactly: n) != nil
                    case 4: return Int32(exactly: n) != nil
                    default: return true  // the time's own domain is checked next
                    }
                })
        }
        guard Limits.eventSeconds.contains(numbers[0]), Limits.eventMicroseconds.contains(numbers[1]) else {
            throw unexpected(
                node, "a time of \(Limits.eventSeconds) and \(Limits.eventMicroseconds)", "[\(numbers[0]), \(numbers[1]), …]")
        }
        try RecordingDomains.checkEvent(type: type, code: code, file: name, line: node.line, text: "[\(numbers[2]), \(numbers[3])]")
        return InputEvent(
            time: EventTime(seconds: Int64(numbers[0]), microseconds: Int64(numbers[1])), type: type, code: code, value: value)
    }

    // MARK: Node access with errors that name the line

    /// A scalar node's integer, when it fits 16 bits unsigned.
    private static func uint16(_ node: YAMLNode) -> UInt16? { node.int.flatMap { UInt16(exactly: $0) } }

    /// A scalar node's integer, when it fits 32 bits signed.
    private static func int32(_ node: YAMLNode) -> Int32? { node.int.flatMap { Int32(exactly: $0) } }

    private func mapping(_ node: YAMLNode, _ expected: String) throws(RecordingError) -> [YAMLPair] {
        guard let map = node.mapping else { throw unexpected(node, expected, describe(node)) }
        return map
    }

    private func sequence(_ node: YAMLNode, _ expected: String) throws(RecordingError) -> [YAMLNode] {
        guard let list = node.sequence else { throw unexpected(node, expected, describe(node)) }
        return list
    }

    /// What a list of `count` numbers held instead: its length when that is wrong, else its first
    /// item `fits` (given the item's place) refuses.
    private func found(in items: [YAMLNode], count: Int, fits: (Int, YAMLNode) -> Bool) -> String {
        guard items.count == count else { return "\(items.count) items" }
        for (i, item) in items.enumerated() where !fits(i, item) { return "item \(i + 1), '\(describe(item))'" }
        return "\(items.count) items"
    }

    private func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): return scalar.text
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    private func unexpected(_ node: YAMLNode, _ expected: String, _ found: String) -> RecordingError {
        RecordingError(file: name, line: node.line, kind: .unexpected(expected: expected, found: found))
    }
}
