/// Typed access to the keys of one TOML table, reporting every problem to the log.
///
/// Each accessor returns nil when the key is absent or its value is unusable (after reporting
/// why), so callers substitute the default and carry on: one pass finds every problem.
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

    /// Reports every key not in `known`, suggesting the closest known key.
    func rejectUnknownKeys(_ known: [String], what: String, aliases: [String: String] = [:]) {
        for key in values.keys.sorted() where !known.contains(key) {
            var message = "unknown key \(quote(key)) in \(what)"
            if let suggestion = Suggestions.closest(to: key, among: known, aliases: aliases) {
                message += ": did you mean \(quote(suggestion))?"
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
        guard case .string(let text) = node else {
            wrongType(at(key), node, expect)
            return nil
        }
        if text.isEmpty && !allowEmpty {
            log.add(.invalidValue, at(key), "the string is empty: expected \(expect)")
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

    /// A number written as an integer or a float. `valid` decides the range; `expect` says it.
    /// Non-finite numbers are refused unless `valid` accepts them (it never does here).
    func number(
        _ key: String, required: Bool = false, expect: String = "a finite number",
        valid: (Double) -> Bool = { $0.isFinite }
    ) -> Double? {
        guard let node = values[key] else {
            if required { missing(key, expect) }
            return nil
        }
        return checkedNumber(node, at: at(key), expect: expect, valid: valid)
    }

    func checkedNumber(_ node: TOMLNode, at path: TOMLPath, expect: String, valid: (Double) -> Bool) -> Double? {
        let value: Double
        switch node {
        case .integer(let integer): value = Double(integer)
        case .float(let float): value = float
        default:
            wrongType(path, node, expect)
            return nil
        }
        guard valid(value) else {
            let reason = value.isFinite ? "is out of range" : "is not a finite number"
            log.add(.invalidValue, path, "\(node.shortText) \(reason): expected \(expect)")
            return nil
        }
        return value
    }

    /// An integer (floats are refused, even whole ones).
    func integer(_ key: String, expect: String, valid: (Int64) -> Bool) -> Int? {
        guard let node = values[key] else { return nil }
        guard case .integer(let value) = node else {
            wrongType(at(key), node, expect)
            return nil
        }
        guard valid(value), let result = Int(exactly: value) else {
            log.add(.invalidValue, at(key), "\(value) is out of range: expected \(expect)")
            return nil
        }
        return result
    }

    /// An array of exactly `names.count` finite numbers. `nonNegative` lists the positions that
    /// must also be >= 0. Every bad element is reported at its own path (`frame[2]`).
    func numbers(
        _ key: String, names: [String], nonNegative: Set<Int> = [], required: Bool = false, expect: String
    ) -> [Double]? {
        guard let node = values[key] else {
            if required { missing(key, expect) }
            return nil
        }
        return checkedNumbers(node, at: at(key), names: names, nonNegative: nonNegative, expect: expect)
    }

    func checkedNumbers(
        _ node: TOMLNode, at path: TOMLPath, names: [String], nonNegative: Set<Int>, expect: String
    ) -> [Double]? {
        guard case .array(let items) = node else {
            wrongType(path, node, expect)
            return nil
        }
        guard items.count == names.count else {
            let count = items.count == 1 ? "1 element" : "\(items.count) elements"
            log.add(.invalidValue, path, "\(node.shortText) has \(count): expected \(expect)")
            return nil
        }
        var result: [Double] = []
        for (index, item) in items.enumerated() {
            let name = names[index]
            let elementPath = path.appending(index: index)
            let value: Double
            switch item {
            case .integer(let integer): value = Double(integer)
            case .float(let float): value = float
            default:
                wrongType(elementPath, item, "a number (\(name)) in \(expect)")
                continue
            }
            if !value.isFinite {
                log.add(.invalidValue, elementPath, "\(name) \(item.shortText) is not a finite number: expected \(expect)")
            } else if nonNegative.contains(index) && value < 0 {
                log.add(.invalidValue, elementPath, "\(name) \(item.shortText) is negative: expected \(expect)")
            } else {
                result.append(value)
            }
        }
        return result.count == names.count ? result : nil
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
        var message = "\(quote(text)) is not allowed: expected \(expect)"
        if let hint = Suggestions.didYouMean(text, among: names) { message += "; \(hint)" }
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
