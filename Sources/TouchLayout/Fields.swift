import TouchCore

/// Typed access to the keys of one TOML table, reporting every problem to the log.
///
/// Each accessor returns nil when the key is absent or its value is unusable (after reporting
/// why), so callers substitute the default and carry on: one pass finds every problem. Numbers
/// are checked here and only here, each against a ``NumberDomain`` of ``Limits`` that the message
/// names when the number is refused.
struct Fields {
    let log: IssueLog
    let path: TOMLPath
    let values: [String: TOMLNode]

    func has(_ key: String) -> Bool { values[key] != nil }

    func at(_ key: String) -> TOMLPath { path.appending(key) }

    func missing(_ key: String, _ expectation: String) {
        log.add(.missingKey, at(key), "missing required key: expected \(expectation)")
    }

    func wrongType(_ path: TOMLPath, _ node: TOMLNode, _ expectation: String) {
        log.add(.wrongType, path, "expected \(expectation), found \(node.foundText)")
    }

    /// Reports every key not in `known`, suggesting the closest known key. An alias whose target
    /// is not a key is a whole setting, suggested as written (`hit_test = "pass-through"` for
    /// `pass_through`).
    func rejectUnknownKeys(_ known: [String], what: String, aliases: [String: String] = [:]) {
        for key in values.keys.sorted() where !known.contains(key) {
            var message = "unknown key \(quote(key)) in \(what)"
            if log.isFull {
                // Not listed: the suggestion is not worth finding.
            } else if let suggestion = Suggestions.closest(to: key, among: known, aliases: aliases) {
                message += ": did you mean \(known.contains(suggestion) ? quote(suggestion) : suggestion)?"
            } else {
                message += ": expected one of " + known.map(quote).joined(separator: ", ")
            }
            log.add(.unknownKey, at(key), message)
        }
    }

    /// A string; empty strings are reported unless `allowEmpty`.
    func string(_ key: String, required: Bool = false, expect: String = "a non-empty string", allowEmpty: Bool = false)
        -> String?
    {
        guard let node = values[key] else {
            if required { missing(key, expect) }
            return nil
        }
        return checkedString(node, at: at(key), expect: expect, allowEmpty: allowEmpty)
    }

    func checkedString(_ node: TOMLNode, at path: TOMLPath, expect: String, allowEmpty: Bool = false) -> String? {
        guard case .string(let text) = node else {
            wrongType(path, node, expect)
            return nil
        }
        if text.isEmpty && !allowEmpty {
            log.add(.invalidValue, path, "the string is empty: expected \(expect)")
            return nil
        }
        return text
    }

    /// An identifier: an id, a reference to one, an action name. A non-empty string of at most
    /// ``Limits/maximumIdentifierBytes`` bytes.
    func identifier(_ key: String, required: Bool = false, expect: String) -> String? {
        guard let node = values[key] else {
            if required { missing(key, expect) }
            return nil
        }
        return checkedIdentifier(node, at: at(key), expect: expect)
    }

    /// `node` as an identifier (``TouchCore/Identifier``: no control characters, at most
    /// ``Limits/maximumIdentifierBytes`` bytes).
    func checkedIdentifier(_ node: TOMLNode, at path: TOMLPath, expect: String) -> String? {
        guard let text = checkedString(node, at: path, expect: expect) else { return nil }
        let bytes = text.utf8.count
        guard bytes <= Limits.maximumIdentifierBytes else {
            log.add(
                .exceedsLimit, path,
                "\(node.shortText) is \(bytes) bytes long: expected \(expect), of at most \(Limits.maximumIdentifierBytes) bytes")
            return nil
        }
        if let problem = Identifier.problem(in: text) {
            log.add(.invalidValue, path, "the string \(problem): expected \(expect), without control characters")
            return nil
        }
        return text
    }

    func bool(_ key: String) -> Bool? {
        guard let node = values[key] else { return nil }
        guard case .bool(let value) = node else {
            wrongType(at(key), node, "a boolean (true or false)")
            return nil
        }
        return value
    }

    /// A number in `domain`, written as an integer or a float.
    func number(_ key: String, in domain: NumberDomain, required: Bool = false) -> Double? {
        guard let node = values[key] else {
            if required { missing(key, domain.description) }
            return nil
        }
        return checkedNumber(node, at: at(key), in: domain)
    }

    /// A span of time in `domain` (whose unit is seconds), written as an integer or a float.
    func duration(_ key: String, in domain: NumberDomain) -> TimeSpan? {
        number(key, in: domain).map(TimeSpan.init(seconds:))
    }

    /// A physical length in `domain` (whose unit is millimetres), written as an integer or a float:
    /// a `_mm` key.
    func length(_ key: String, in domain: NumberDomain) -> Millimetres? {
        number(key, in: domain).map(Millimetres.init(_:))
    }

    /// A number in `domain` that is 0 or at least `minimum` (a rate: 0 turns it off, and the least
    /// other rate bounds the work and memory of one period).
    func number(_ key: String, in domain: NumberDomain, zeroOrAtLeast minimum: Double) -> Double? {
        guard let value = number(key, in: domain) else { return nil }
        guard value == 0 || value >= minimum else {
            let unit = domain.unit.isEmpty ? "" : " (\(domain.unit))"
            let expected = "0 or a finite number from \(formatNumber(minimum)) to \(formatNumber(domain.range.upperBound))\(unit)"
            log.add(.invalidValue, at(key), "\(values[key]?.shortText ?? "") is out of range: expected \(expected)")
            return nil
        }
        return value
    }

    /// `node` as a number in `domain`; `name` (`"height"`) prefixes the value in messages.
    func checkedNumber(_ node: TOMLNode, at path: TOMLPath, in domain: NumberDomain, name: String? = nil) -> Double? {
        let value: Double
        switch node {
        case .integer(let integer): value = Double(integer)
        case .float(let float): value = float
        default:
            wrongType(path, node, name.map { "\($0): \(domain)" } ?? domain.description)
            return nil
        }
        guard domain.contains(value) else {
            let reason = value.isFinite ? "is out of range" : "is not a finite number"
            let shown = name.map { "\($0) \(node.shortText)" } ?? node.shortText
            log.add(.invalidValue, path, "\(shown) \(reason): expected \(domain)")
            return nil
        }
        return value
    }

    /// A whole number in `domain`, written as a TOML integer (floats are refused, even whole ones).
    func integer(_ key: String, in domain: NumberDomain) -> Int? {
        guard let node = values[key] else { return nil }
        return checkedInteger(node, at: at(key), in: domain)
    }

    /// `node` as a whole number in `domain`; `what` (`"a numeric id"`) names it in messages.
    func checkedInteger(_ node: TOMLNode, at path: TOMLPath, in domain: NumberDomain, what: String? = nil) -> Int? {
        let expect = (what.map { "\($0): " } ?? "") + "\(domain), written as an integer"
        guard case .integer(let value) = node else {
            wrongType(path, node, expect)
            return nil
        }
        guard domain.contains(Double(value)), let result = Int(exactly: value) else {
            log.add(.invalidValue, path, "\(value) is out of range: expected \(expect)")
            return nil
        }
        return result
    }

    /// An array of exactly `elements.count` numbers, each in its own domain. Every bad element
    /// is reported at its own path (`frame[2]`); `expect` describes the whole array.
    func numbers(_ key: String, _ elements: [NumberElement], required: Bool = false, expect: String) -> [Double]? {
        guard let node = values[key] else {
            if required { missing(key, expect) }
            return nil
        }
        return checkedNumbers(node, at: at(key), elements, expect: expect)
    }

    func checkedNumbers(_ node: TOMLNode, at path: TOMLPath, _ elements: [NumberElement], expect: String) -> [Double]? {
        guard case .array(let items) = node else {
            wrongType(path, node, expect)
            return nil
        }
        guard items.count == elements.count else {
            let count = items.count == 1 ? "1 element" : "\(items.count) elements"
            log.add(.invalidValue, path, "\(node.shortText) has \(count): expected \(expect)")
            return nil
        }
        var result: [Double] = []
        for (index, (item, element)) in zip(items, elements).enumerated() {
            let elementPath = path.appending(index: index)
            if let value = checkedNumber(item, at: elementPath, in: element.domain, name: element.name) {
                result.append(value)
            }
        }
        return result.count == elements.count ? result : nil
    }

    /// One of a fixed set of strings, with a suggestion for near misses.
    func choice<T>(_ key: String, _ options: [(String, T)]) -> T? {
        guard let node = values[key] else { return nil }
        let names = options.map(\.0)
        let expect = "one of " + names.map(quote).joined(separator: ", ")
        guard case .string(let text) = node else {
            wrongType(at(key), node, expect)
            return nil
        }
        if let match = options.first(where: { $0.0 == text }) { return match.1 }
        var message = "\(node.shortText) is not allowed: expected \(expect)"
        if !log.isFull, let hint = Suggestions.didYouMean(text, among: names) { message += "; \(hint)" }
        log.add(.invalidValue, at(key), message)
        return nil
    }

    /// A nested table, e.g. `match`.
    func table(_ key: String, expect: String) -> Fields? {
        guard let node = values[key] else { return nil }
        guard case .table(let entries) = node else {
            wrongType(at(key), node, expect)
            return nil
        }
        return Fields(log: log, path: at(key), values: entries)
    }
}

/// One element of a fixed-length array of numbers (`frame`, `size`, `region`, ...): its name in
/// messages and its domain.
struct NumberElement {
    var name: String
    var domain: NumberDomain

    init(_ name: String, _ domain: NumberDomain) {
        self.name = name
        self.domain = domain
    }

    /// `[x, y, width, height]`: a position and a size in points.
    static let rectangle = [
        NumberElement("x", Limits.coordinate), NumberElement("y", Limits.coordinate),
        NumberElement("width", Limits.length), NumberElement("height", Limits.length),
    ]
    /// `[x, y, width, height]` of an area touches map onto (a device's `region`): its sides are
    /// positive, since a side of 0 would put every touch on one line.
    static let area = [
        NumberElement("x", Limits.coordinate), NumberElement("y", Limits.coordinate),
        NumberElement("width", Limits.windowLength), NumberElement("height", Limits.windowLength),
    ]
    /// `[x, y]`: a position in points.
    static let point = [NumberElement("x", Limits.coordinate), NumberElement("y", Limits.coordinate)]
}
