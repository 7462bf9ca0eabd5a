import TouchCore

extension Request {
    /// Parses one request line (without its newline). The request's `id` comes back even when
    /// the rest is wrong, so that the error reply can carry it (`null` when the line is not a JSON
    /// object or the `id` itself is refused).
    public static func parse(_ line: [UInt8]) -> (id: JSONValue, result: Result<Request, RequestError>) {
        let value: JSONValue
        do {
            value = try JSONReader.read(line)
        } catch {
            return (.null, .failure(RequestError(.malformedJSON, "the line is not valid JSON: \(error)")))
        }
        return parse(value)
    }

    /// Parses one request line given as text.
    public static func parse(_ line: String) -> (id: JSONValue, result: Result<Request, RequestError>) {
        parse(Array(line.utf8))
    }

    /// Parses a request already read as JSON: every field is checked against its domain
    /// (`docs/limits.md`), as for a line. `touchctl` checks what it is about to send with it.
    public static func parse(_ value: JSONValue) -> (id: JSONValue, result: Result<Request, RequestError>) {
        guard case .object(let members) = value else {
            return (.null, .failure(RequestError(.malformedRequest, "a request is a JSON object")))
        }
        var fields: [String: JSONValue] = [:]
        for (key, value) in members { fields[key] = fields[key] ?? value }
        let id: JSONValue
        do {
            id = try RequestField.requestID(fields["id"])
        } catch {
            return (.null, .failure(error))
        }
        do {
            return (id, .success(try command(fields)))
        } catch {
            return (id, .failure(error))
        }
    }

    /// Every command, by family (``RequestFamily``) in the order `docs/protocol.md` lists them,
    /// with the arguments it takes besides `id` and `cmd`.
    static let commands: [(name: String, arguments: Set<String>)] =
        SessionRequest.commands + TreeRequest.commands + ResponderRequest.commands + DaemonRequest.commands
        + DeviceSessionRequest.commands

    /// ``commands`` by name.
    static let arguments: [String: Set<String>] = Dictionary(commands.map { ($0.name, $0.arguments) }, uniquingKeysWith: { first, _ in first })

    /// The commands' names as the `unknown_command` error lists them: "a, b or c".
    static let commandList: String = {
        let names = commands.map(\.name)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }()

    /// The request a line's fields give: its `cmd` known, every key one its command takes, then
    /// parsed by the command's family.
    static func command(_ d: [String: JSONValue]) throws(RequestError) -> Request {
        guard case .string(let cmd) = d["cmd"] else { throw RequestError(.malformedRequest, "missing \"cmd\" (a string)") }
        guard let allowed = arguments[cmd] else { throw unknownCommand(cmd) }
        for key in d.keys.sorted() where key != "id" && key != "cmd" && !allowed.contains(key) {
            let expected = allowed.isEmpty ? "no arguments" : allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            throw RequestError(.badArgument, "unknown argument \"\(excerpt(key))\" for \(cmd): expected \(expected)")
        }
        if let request = try SessionRequest.parse(cmd, d) { return .session(request) }
        if let request = try TreeRequest.parse(cmd, d) { return .tree(request) }
        if let request = try ResponderRequest.parse(cmd, d) { return .responders(request) }
        if let request = try DaemonRequest.parse(cmd, d) { return .daemon(request) }
        if let request = try DeviceSessionRequest.parse(cmd, d) { return .deviceSession(request) }
        throw unknownCommand(cmd)
    }

    /// The error for an unknown command, with the nearest one when it looks like a typo of it.
    static func unknownCommand(_ cmd: String) -> RequestError {
        let suggestion = Spelling.closest(to: cmd, among: commands.map(\.name)).map { "did you mean \"\($0)\"? " } ?? ""
        return RequestError(.unknownCommand, "unknown command \"\(excerpt(cmd))\": \(suggestion)expected \(commandList)")
    }
}

extension ViewChanges {
    /// The changes a `set` or `add_view` request's `properties` object gives, each property checked
    /// against its domain.
    init(_ value: JSONValue?, field: String) throws(RequestError) {
        guard case .object(let properties) = value else { throw .badArgument(field, expected: "an object of view properties") }
        self.init()
        for (key, v) in properties { try set(key, v, path: "\(field).\(key)") }
    }

    private mutating func set(_ key: String, _ v: JSONValue, path: String) throws(RequestError) {
        switch key {
        case "frame":
            let n = try RequestField.numbers(
                v, path, in: [Limits.coordinate, Limits.coordinate, Limits.length, Limits.length], meaning: "x, y, width, height")
            frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        case "bounds_origin":
            let n = try RequestField.numbers(v, path, in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
            boundsOrigin = Point(x: n[0], y: n[1])
        case "hidden": isHidden = try RequestField.bool(v, path)
        case "alpha": alpha = try RequestField.number(v, path, in: Limits.alpha)
        case "interactive": isUserInteractionEnabled = try RequestField.bool(v, path)
        case "clips_to_bounds": clipsToBounds = try RequestField.bool(v, path)
        case "multiple_touch": isMultipleTouchEnabled = try RequestField.bool(v, path)
        case "exclusive_touch": isExclusiveTouch = try RequestField.bool(v, path)
        case "hit_expansion":
            if case .array = v {
                let n = try RequestField.numbers(v, path, in: Array(repeating: Limits.length, count: 4), meaning: "top, left, bottom, right")
                hitExpansion = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
            } else {
                hitExpansion = EdgeInsets(all: try RequestField.number(v, path, in: Limits.length))
            }
        case "transform": transform = try Self.transform(v, path: path)
        default:
            let names = Self.settableProperties
            let suggestion = Spelling.closest(to: key, among: names).map { "did you mean \"\($0)\"? " } ?? ""
            throw RequestError(
                .badArgument,
                "unknown view property \"\(excerpt(path))\": \(suggestion)expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
    }

    /// The properties a `set` or `add_view` request may give, in the order messages list them.
    static let settableProperties = [
        "frame", "bounds_origin", "hidden", "alpha", "interactive", "clips_to_bounds", "multiple_touch", "exclusive_touch", "hit_expansion",
        "transform",
    ]

    /// `{"translate": [x, y], "rotate": degrees, "scale": s or [sx, sy]}`, each part optional (an
    /// empty object is the identity); the scale is never zero, so the transform has an inverse.
    static func transform(_ v: JSONValue, path: String) throws(RequestError) -> ViewTransform {
        guard case .object(let parts) = v else {
            throw .badArgument(path, expected: #"an object {"translate": [x, y], "rotate": degrees, "scale": s or [sx, sy]}"#)
        }
        var translation = Point.zero
        var rotation = 0.0
        var scale = (1.0, 1.0)
        for (key, value) in parts {
            let at = "\(path).\(key)"
            switch key {
            case "translate":
                let n = try RequestField.numbers(value, at, in: [Limits.coordinate, Limits.coordinate], meaning: "x, y")
                translation = Point(x: n[0], y: n[1])
            case "rotate": rotation = try RequestField.number(value, at, in: Limits.degrees)
            case "scale":
                if case .array = value {
                    let n = try RequestField.numbers(value, at, in: [Limits.transformScale, Limits.transformScale], meaning: "sx, sy")
                    scale = (n[0], n[1])
                } else {
                    let s = try RequestField.number(value, at, in: Limits.transformScale)
                    scale = (s, s)
                }
            default:
                throw RequestError(.badArgument, "unknown transform part \"\(excerpt(at))\": expected translate, rotate or scale")
            }
        }
        return ViewTransform(translation: translation, rotation: rotation, scaleX: scale.0, scaleY: scale.1)
    }
}
