import TouchCore

extension RequestError {
    /// A field of a request that is not what its domain allows: `"properties.frame[2]": expected
    /// a finite number from 0 to 1000000 (points)`.
    static func badArgument(_ path: String, expected: String) -> RequestError {
        RequestError(.badArgument, "\"\(path)\": expected \(expected)")
    }

    /// A field a command needs and the request lacks.
    static func missing(_ path: String, expected: String) -> RequestError {
        RequestError(.badArgument, "\"\(path)\" is required: expected \(expected)")
    }
}

/// The values of a request's fields, each checked once against its domain (`docs/limits.md`):
/// past these, every number is finite and in range and every string bounded. `path` names the
/// field in messages (`properties.frame[2]`).
enum RequestField {
    /// What an identifier field expects, for messages.
    static let identifierDomain = Identifier.expectation

    /// A number in `domain`.
    static func number(_ value: JSONValue, _ path: String, in domain: NumberDomain) throws(RequestError) -> Double {
        let number: Double
        switch value {
        case .int(let v): number = Double(v)
        case .double(let v): number = v
        case .null, .bool, .string, .array, .object: throw .badArgument(path, expected: domain.description)
        }
        guard domain.contains(number) else { throw .badArgument(path, expected: domain.description) }
        return number
    }

    /// A required number in `domain`.
    static func number(_ value: JSONValue?, _ path: String, in domain: NumberDomain) throws(RequestError) -> Double {
        guard let value else { throw .missing(path, expected: domain.description) }
        return try number(value, path, in: domain)
    }

    /// A required whole number in `domain` (a domain of whole numbers within `Int`'s range).
    static func integer(_ value: JSONValue?, _ path: String, in domain: NumberDomain) throws(RequestError) -> Int {
        guard let whole = Int(exactly: try number(value, path, in: domain)) else { throw .badArgument(path, expected: domain.description) }
        return whole
    }

    /// `count` numbers, one domain for each position.
    static func numbers(_ value: JSONValue, _ path: String, in domains: [NumberDomain], meaning: String) throws(RequestError) -> [Double] {
        guard case .array(let items) = value, items.count == domains.count else {
            throw .badArgument(path, expected: "an array of \(domains.count) numbers (\(meaning))")
        }
        var numbers: [Double] = []
        for (i, item) in items.enumerated() { numbers.append(try number(item, "\(path)[\(i)]", in: domains[i])) }
        return numbers
    }

    static func bool(_ value: JSONValue, _ path: String) throws(RequestError) -> Bool {
        guard case .bool(let flag) = value else { throw .badArgument(path, expected: "true or false") }
        return flag
    }

    /// A string of at most `maximumBytes` bytes of UTF-8, not empty.
    static func string(_ value: JSONValue, _ path: String, maximumBytes: Int = Limits.maximumIdentifierBytes) throws(RequestError) -> String {
        guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= maximumBytes else {
            throw .badArgument(path, expected: "a string of 1 to \(maximumBytes) bytes")
        }
        return text
    }

    /// An identifier (``TouchCore/Identifier``): a name, a view filter.
    static func name(_ value: JSONValue, _ path: String) throws(RequestError) -> String {
        guard case .string(let text) = value, Identifier.problem(in: text) == nil else {
            throw .badArgument(path, expected: identifierDomain)
        }
        return text
    }

    /// A required identifier: a view, window or responder.
    static func identifier(_ value: JSONValue?, _ path: String) throws(RequestError) -> ResponderID {
        guard let value else { throw .missing(path, expected: identifierDomain) }
        return ResponderID(try name(value, path))
    }

    static func optionalIdentifier(_ value: JSONValue?, _ path: String) throws(RequestError) -> ResponderID? {
        guard let value else { return nil }
        return ResponderID(try name(value, path))
    }

    /// An optional list of identifiers (names, view filters), at most
    /// ``Limits/maximumRequestListEntries`` long.
    static func optionalStrings(_ value: JSONValue?, _ path: String) throws(RequestError) -> [String]? {
        guard let value else { return nil }
        guard case .array(let items) = value, items.count <= Limits.maximumRequestListEntries else {
            throw .badArgument(path, expected: "an array of at most \(Limits.maximumRequestListEntries) strings")
        }
        var strings: [String] = []
        for (i, item) in items.enumerated() { strings.append(try name(item, "\(path)[\(i)]")) }
        return strings
    }

    /// The request's `id`, which its reply carries back: absent (`null`), or any JSON scalar, a
    /// number finite, a string at most ``Limits/maximumRequestIDBytes`` long.
    static func requestID(_ value: JSONValue?) throws(RequestError) -> JSONValue {
        guard let value else { return .null }
        switch value {
        case .null, .bool, .int: return value
        case .double(let v) where v.isFinite: return value
        case .string(let text) where text.utf8.count <= Limits.maximumRequestIDBytes: return value
        case .double, .string, .array, .object:
            throw .badArgument(
                "id", expected: "a JSON scalar: null, true, false, a finite number or a string of at most \(Limits.maximumRequestIDBytes) bytes")
        }
    }
}
