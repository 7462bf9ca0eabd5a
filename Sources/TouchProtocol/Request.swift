import Foundation
import TouchCore

/// Changes to a view's properties, as a `set` or `add_view` request gives them. Absent = unchanged.
public struct ViewChanges: Hashable, Sendable {
    public var frame: Rect?
    public var boundsOrigin: Point?
    public var isHidden: Bool?
    public var alpha: Double?
    public var isUserInteractionEnabled: Bool?
    public var clipsToBounds: Bool?
    public var isMultipleTouchEnabled: Bool?
    public var isExclusiveTouch: Bool?
    public var hitExpansion: EdgeInsets?

    public init() {}

    /// Applies the changes to `props`.
    public func apply(to props: inout ViewProperties) {
        if let frame { props.frame = frame }
        if let boundsOrigin { props.boundsOrigin = boundsOrigin }
        if let isHidden { props.isHidden = isHidden }
        if let alpha { props.alpha = alpha }
        if let isUserInteractionEnabled { props.isUserInteractionEnabled = isUserInteractionEnabled }
        if let clipsToBounds { props.clipsToBounds = clipsToBounds }
        if let isMultipleTouchEnabled { props.isMultipleTouchEnabled = isMultipleTouchEnabled }
        if let isExclusiveTouch { props.isExclusiveTouch = isExclusiveTouch }
        if let hitExpansion { props.hitExpansion = hitExpansion }
    }
}

/// A client's request. See `docs/protocol.md`.
public enum Request: Hashable, Sendable {
    case ping
    case subscribe(topics: Set<Topic>, views: [String]?, actions: Set<String>?)
    case unsubscribe(subscription: Int)
    case hitTest(point: Point, window: ResponderID?)
    case set(view: ResponderID, changes: ViewChanges)
    case addView(view: ResponderID, parent: ResponderID, changes: ViewChanges)
    case removeView(view: ResponderID)
    case reload
    case devices
    case views
    case stats
    case snapshot(window: ResponderID?, heatmap: Bool)
    /// `becomeFirstResponder()` on a window, view or controller.
    case becomeFirstResponder(responder: ResponderID)
    /// `resignFirstResponder()` on a window, view or controller.
    case resignFirstResponder(responder: ResponderID)
}

/// Why a request was refused: a machine-readable code and a sentence.
public struct RequestError: Error, Hashable, Sendable {
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension Request {
    /// Parses one request line. The request's `id` (any JSON scalar) comes back even when the rest
    /// is wrong, so that the error reply can carry it.
    public static func parse(_ line: String) -> (id: JSONValue, result: Result<Request, RequestError>) {
        guard let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return (.null, .failure(RequestError("malformed_json", "the line is not valid JSON"))) }
        guard let dict = object as? [String: Any] else {
            return (.null, .failure(RequestError("malformed_request", "a request is a JSON object")))
        }
        let id = dict["id"].map(jsonValue) ?? .null
        do {
            return (id, .success(try parse(dict)))
        } catch let error as RequestError {
            return (id, .failure(error))
        } catch {
            return (id, .failure(RequestError("malformed_request", "\(error)")))
        }
    }

    /// The arguments each command takes, besides `id` and `cmd`. A key outside its command's list is
    /// refused (it is usually a typo, and ignoring it would do something other than what was asked).
    static let arguments: [String: Set<String>] = [
        "ping": [], "subscribe": ["topics", "views", "actions"], "unsubscribe": ["subscription"],
        "hit_test": ["x", "y", "window"], "set": ["view", "properties"], "add_view": ["view", "parent", "properties"],
        "remove_view": ["view"], "reload": [], "devices": [], "views": [], "stats": [], "snapshot": ["window", "heatmap"],
        "become_first_responder": ["responder"], "resign_first_responder": ["responder"],
    ]

    static func parse(_ d: [String: Any]) throws -> Request {
        guard let cmd = d["cmd"] as? String else { throw RequestError("malformed_request", "missing \"cmd\" (a string)") }
        // An unknown command falls through to the switch's refusal below.
        for key in d.keys.sorted() where key != "id" && key != "cmd" {
            guard let allowed = arguments[cmd] else { break }
            guard allowed.contains(key) else {
                let expected = allowed.isEmpty ? "no arguments" : allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                throw RequestError("bad_argument", "unknown argument \"\(key)\" for \(cmd): expected \(expected)")
            }
        }
        switch cmd {
        case "ping": return .ping
        case "subscribe":
            let names = try optionalStrings(d, "topics") ?? Topic.allCases.map(\.rawValue)
            var topics: Set<Topic> = []
            for name in names {
                guard let topic = Topic(rawValue: name) else {
                    throw RequestError("bad_argument", "unknown topic \"\(name)\": expected one of \(Topic.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                topics.insert(topic)
            }
            let actions = try optionalStrings(d, "actions").map { Set($0) }
            return .subscribe(topics: topics, views: try optionalStrings(d, "views"), actions: actions)
        case "unsubscribe":
            return .unsubscribe(subscription: try int(d, "subscription"))
        case "hit_test":
            let window = try optionalString(d, "window").map { ResponderID($0) }
            return .hitTest(point: Point(x: try number(d, "x"), y: try number(d, "y")), window: window)
        case "set":
            return .set(view: ResponderID(try string(d, "view")), changes: try changes(d["properties"], field: "properties"))
        case "add_view":
            let changes = try changes(d["properties"], field: "properties")
            guard changes.frame != nil else { throw RequestError("bad_argument", "\"properties.frame\" is required for a new view") }
            return .addView(view: ResponderID(try string(d, "view")), parent: ResponderID(try string(d, "parent")), changes: changes)
        case "remove_view": return .removeView(view: ResponderID(try string(d, "view")))
        case "reload": return .reload
        case "devices": return .devices
        case "views": return .views
        case "stats": return .stats
        case "snapshot":
            let window = try optionalString(d, "window").map { ResponderID($0) }
            var heatmap = false
            if let v = d["heatmap"] { heatmap = try bool(v, "heatmap") }
            return .snapshot(window: window, heatmap: heatmap)
        case "become_first_responder": return .becomeFirstResponder(responder: ResponderID(try string(d, "responder")))
        case "resign_first_responder": return .resignFirstResponder(responder: ResponderID(try string(d, "responder")))
        default:
            throw RequestError("unknown_command", "unknown command \"\(cmd)\": expected ping, subscribe, unsubscribe, hit_test, set, add_view, remove_view, reload, devices, views, stats, snapshot, become_first_responder or resign_first_responder")
        }
    }

    static func changes(_ value: Any?, field: String) throws -> ViewChanges {
        guard let props = value as? [String: Any] else { throw RequestError("bad_argument", "\"\(field)\" must be an object") }
        var c = ViewChanges()
        for (key, v) in props {
            let path = "\(field).\(key)"
            switch key {
            case "frame":
                let n = try numbers(v, path, count: 4)
                guard n[2] >= 0, n[3] >= 0 else { throw RequestError("bad_argument", "\"\(path)\": width and height must be >= 0") }
                c.frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
            case "bounds_origin":
                let n = try numbers(v, path, count: 2)
                c.boundsOrigin = Point(x: n[0], y: n[1])
            case "hidden": c.isHidden = try bool(v, path)
            case "alpha":
                let a = try numberValue(v, path)
                guard (0...1).contains(a) else { throw RequestError("bad_argument", "\"\(path)\" = \(a): expected a number from 0 to 1") }
                c.alpha = a
            case "interactive": c.isUserInteractionEnabled = try bool(v, path)
            case "clips_to_bounds": c.clipsToBounds = try bool(v, path)
            case "multiple_touch": c.isMultipleTouchEnabled = try bool(v, path)
            case "exclusive_touch": c.isExclusiveTouch = try bool(v, path)
            case "hit_expansion":
                if let n = v as? NSNumber, !isBool(n) {
                    guard n.doubleValue >= 0, n.doubleValue.isFinite else { throw RequestError("bad_argument", "\"\(path)\" must be >= 0") }
                    c.hitExpansion = EdgeInsets(all: n.doubleValue)
                } else {
                    let n = try numbers(v, path, count: 4)
                    guard n.allSatisfy({ $0 >= 0 }) else { throw RequestError("bad_argument", "\"\(path)\" values must be >= 0") }
                    c.hitExpansion = EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
                }
            default:
                throw RequestError("bad_argument", "unknown view property \"\(path)\": expected frame, bounds_origin, hidden, alpha, interactive, clips_to_bounds, multiple_touch, exclusive_touch or hit_expansion")
            }
        }
        return c
    }

    /// Whether a number JSONSerialization returned was written `true` or `false` (their `objCType` is "c").
    static func isBool(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    static func string(_ d: [String: Any], _ key: String) throws -> String {
        guard let s = d[key] as? String else { throw RequestError("bad_argument", "\"\(key)\" is required and must be a string") }
        return s
    }

    static func optionalString(_ d: [String: Any], _ key: String) throws -> String? {
        guard let v = d[key] else { return nil }
        guard let s = v as? String else { throw RequestError("bad_argument", "\"\(key)\" must be a string") }
        return s
    }

    static func optionalStrings(_ d: [String: Any], _ key: String) throws -> [String]? {
        guard let v = d[key] else { return nil }
        guard let list = v as? [Any], let strings = list as? [String] else {
            throw RequestError("bad_argument", "\"\(key)\" must be an array of strings")
        }
        return strings
    }

    static func numberValue(_ v: Any, _ path: String) throws -> Double {
        guard let n = v as? NSNumber, !isBool(n), n.doubleValue.isFinite else {
            throw RequestError("bad_argument", "\"\(path)\" must be a finite number")
        }
        return n.doubleValue
    }

    static func number(_ d: [String: Any], _ key: String) throws -> Double {
        guard let v = d[key] else { throw RequestError("bad_argument", "\"\(key)\" is required and must be a number") }
        return try numberValue(v, key)
    }

    static func int(_ d: [String: Any], _ key: String) throws -> Int {
        let n = try number(d, key)
        guard n == n.rounded() else { throw RequestError("bad_argument", "\"\(key)\" must be an integer") }
        return Int(n)
    }

    static func bool(_ v: Any, _ path: String) throws -> Bool {
        guard let n = v as? NSNumber, isBool(n) else { throw RequestError("bad_argument", "\"\(path)\" must be true or false") }
        return n.boolValue
    }

    static func numbers(_ v: Any, _ path: String, count: Int) throws -> [Double] {
        guard let list = v as? [Any], list.count == count else {
            throw RequestError("bad_argument", "\"\(path)\" must be an array of \(count) numbers")
        }
        return try list.map { try numberValue($0, path) }
    }

    /// A Foundation JSON value as a ``JSONValue`` (used for request ids).
    static func jsonValue(_ v: Any) -> JSONValue {
        switch v {
        case let n as NSNumber:
            if isBool(n) { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 1e15 ? .int(Int64(d)) : .double(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.map(jsonValue))
        case let o as [String: Any]: return .object(o.keys.sorted().map { ($0, jsonValue(o[$0]!)) })
        default: return .null
        }
    }
}

/// Reply messages.
public enum Reply {
    public static func ok(_ id: JSONValue, _ result: JSONValue = .object([])) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false, members: [("type", "reply"), ("id", id), ("ok", true), ("result", result)])
    }

    public static func error(_ id: JSONValue, _ error: RequestError) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [("type", "reply"), ("id", id), ("ok", false), ("error", .object([("code", .string(error.code)), ("message", .string(error.message))]))])
    }
}
