import TouchCore
import TouchEvdev

/// One entry of an array of tables, with its index in the file (`view[3]` has index 3).
struct Entry<Spec> {
    var index: Int
    var spec: Spec
}

/// What the reader made of the file: every entry, with placeholders where a value was unusable
/// (the log says why), so the cross-reference checks can still run over all of it.
struct LayoutDraft {
    var version = 1
    var application = ApplicationSpec()
    var settings = ApplicationSettings()
    var windows: [Entry<WindowSpec>] = []
    /// `key` as written in each window (nil when absent), parallel to `windows`.
    var windowKeyFlags: [Bool?] = []
    var controllers: [Entry<ControllerSpec>] = []
    var views: [Entry<ViewSpec>] = []
    var handlers: [Entry<Handler>] = []
    /// `become_first_responder` and `resign_first_responder` as written in each handler, parallel
    /// to `handlers` (a handler keeps one effect; both are checked).
    var handlerFirstResponderKeys: [(become: ResponderID?, resign: ResponderID?)] = []
    var gestures: [Entry<GestureRecognizerSpec>] = []
    var daemon = DaemonSpec()
    var controls: [Entry<ControlSpec>] = []
    var devices: [Entry<DeviceSpec>] = []
    /// Whether `window` was present at all (so a malformed one is not also reported as missing).
    var hasWindowKey = false
}

/// Reads the TOML tree into a ``LayoutDraft``: types, domains, budgets, required and unknown
/// keys. Cross-references are checked afterwards by ``LayoutValidator``.
///
/// The readers of each section are in the `LayoutReader+*.swift` files.
struct LayoutReader {
    let log: IssueLog
    /// The layout file's path as given, for resolving relative `pointercal` paths.
    let file: String

    static let topKeys = [
        "version", "application", "tap", "queue", "window", "controller", "view", "handler", "gesture", "control", "device",
        "daemon",
    ]
    static let applicationKeys = ["id", "delegate", "receives_remote_control"]
    static let applicationAliases = [
        "beginReceivingRemoteControlEvents": "receives_remote_control", "remote_control": "receives_remote_control",
    ]
    static let tapKeys = ["interval", "distance_mm", "max_duration", "slop_mm"]
    static let tapAliases = ["max_distance_mm": "distance_mm", "duration": "max_duration"]
    static let queueKeys = ["capacity"]

    func read(_ root: [String: TOMLNode]) -> LayoutDraft {
        var draft = LayoutDraft()
        let top = Fields(log: log, path: .root, values: root)
        top.rejectUnknownKeys(Self.topKeys, what: "the layout file", aliases: ["windows": "window", "views": "view"])
        readVersion(top, into: &draft)
        if let fields = top.table("application", expect: "an [application] table") {
            draft.application = readApplication(fields)
            if let receives = fields.bool("receives_remote_control") { draft.settings.receivesRemoteControlEvents = receives }
        }
        if let fields = top.table("tap", expect: "a [tap] table") {
            draft.settings.tap = readTap(fields)
        }
        if let fields = top.table("queue", expect: "a [queue] table") {
            if let capacity = fields.integer("capacity", in: Limits.queueCapacity) { draft.settings.queueCapacity = capacity }
            fields.rejectUnknownKeys(Self.queueKeys, what: "[queue]")
        }
        if let fields = top.table("daemon", expect: "a [daemon] table") {
            draft.daemon = readDaemon(fields)
        }
        readResponders(top, into: &draft)
        for (index, fields) in entries("handler", in: top) {
            let (handler, keys) = readHandler(fields)
            draft.handlers.append(Entry(index: index, spec: handler))
            draft.handlerFirstResponderKeys.append(keys)
        }
        for (index, fields) in entries("control", in: top) {
            draft.controls.append(Entry(index: index, spec: readControl(fields)))
        }
        for (index, fields) in entries("gesture", in: top) {
            draft.gestures.append(Entry(index: index, spec: readGesture(fields)))
        }
        for (index, fields) in entries("device", in: top) {
            draft.devices.append(Entry(index: index, spec: readDevice(fields)))
        }
        return draft
    }

    private func readVersion(_ top: Fields, into draft: inout LayoutDraft) {
        guard let node = top.values["version"] else { return }
        switch node {
        case .integer(1): break
        case .integer(let value):
            log.add(.invalidValue, top.at("version"), "version \(value) is not supported: expected 1")
            draft.version = Int(clamping: value)
        default:
            top.wrongType(top.at("version"), node, "the integer 1")
        }
    }

    /// The tables of the array of tables `name` (`[[name]]`, or `[[title]]` in messages), with
    /// their indices: at most `limit` of them (the rest is refused, once).
    func entries(
        _ name: String, in parent: Fields, title: String? = nil, limit: Int = Limits.maximumLayoutEntries
    ) -> [(Int, Fields)] {
        guard let node = parent.values[name] else { return [] }
        let title = title ?? name
        switch node {
        case .array(let items):
            if items.count > limit {
                log.add(
                    .exceedsLimit, parent.at(name).appending(index: limit),
                    "\(items.count) [[\(title)]] entries: expected at most \(limit)")
            }
            var result: [(Int, Fields)] = []
            for (index, item) in items.prefix(limit).enumerated() {
                let path = parent.at(name).appending(index: index)
                if case .table(let values) = item {
                    result.append((index, Fields(log: log, path: path, values: values)))
                } else {
                    parent.wrongType(path, item, "a table (one [[\(title)]] entry)")
                }
            }
            return result
        case .table:
            log.add(
                .wrongType, parent.at(name),
                "expected [[\(title)]] entries (an array of tables), found a single table: write [[\(title)]], not [\(title)]")
            return []
        default:
            parent.wrongType(parent.at(name), node, "[[\(title)]] entries (an array of tables)")
            return []
        }
    }

    /// Reads `id` first so that every later issue of the entry can name it.
    func readID(_ fields: Fields, what: String) -> ResponderID {
        let id = fields.identifier("id", required: true, expect: "a non-empty string, the \(what)'s unique id")
        if let id { log.name(fields.path, id: id) }
        return ResponderID(id ?? "")
    }

    /// A reference to another entry's id: a non-empty identifier.
    func reference(_ fields: Fields, _ key: String, required: Bool = false, expect: String) -> ResponderID? {
        fields.identifier(key, required: required, expect: expect).map { ResponderID($0) }
    }

    private func readApplication(_ fields: Fields) -> ApplicationSpec {
        var spec = ApplicationSpec()
        if let id = reference(fields, "id", expect: "a non-empty string, the application's responder id") { spec.id = id }
        if let id = reference(fields, "delegate", expect: "a non-empty string, the app delegate's responder id") {
            spec.delegate = id
        }
        fields.rejectUnknownKeys(Self.applicationKeys, what: "[application]", aliases: Self.applicationAliases)
        return spec
    }

    private func readTap(_ fields: Fields) -> TapSettings {
        var settings = TapSettings()
        if let n = fields.duration("interval", in: Limits.positiveDuration) { settings.interval = n }
        if let n = fields.length("distance_mm", in: Limits.positiveMillimetres) { settings.distanceMillimetres = n }
        if let n = fields.duration("max_duration", in: Limits.positiveDuration) { settings.maximumDuration = n }
        if let n = fields.length("slop_mm", in: Limits.positiveMillimetres) { settings.slopMillimetres = n }
        fields.rejectUnknownKeys(Self.tapKeys, what: "[tap]", aliases: Self.tapAliases)
        return settings
    }

    /// A relative path resolved against the directory of the layout file.
    func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}

extension TOMLNode {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
