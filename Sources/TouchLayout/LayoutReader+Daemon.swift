import TouchCore
import TouchSystem

/// `[daemon]`: where the socket is and who may use it.
extension LayoutReader {
    static let daemonAliases = [
        "path": "socket", "group": "socket_group", "mode": "socket_mode", "metrics": "metrics_file", "prometheus": "metrics_file",
        "textfile": "metrics_file",
    ]

    func readDaemon(_ fields: Fields) -> DaemonSpec {
        var spec = DaemonSpec()
        if let path = fields.string("socket", expect: "an absolute path for the socket") {
            if !path.hasPrefix("/") {
                log.add(.invalidValue, fields.at("socket"), "\(quote(path)) is relative: expected an absolute path")
            } else if let problem = DaemonSpec.socketPathLengthProblem(path) {
                log.add(.invalidValue, fields.at("socket"), problem)
            } else {
                spec.socket = path
            }
        }
        spec.socketGroup = fields.identifier("socket_group", expect: "a group name or number")
        if let mode = fields.string("socket_mode", expect: "an octal mode such as \"0660\"") {
            if let value = UInt32(mode, radix: 8), value <= 0o777 {
                spec.socketMode = value
            } else {
                log.add(.invalidValue, fields.at("socket_mode"), "\(quote(mode)) is not a mode: expected an octal mode such as \"0660\"")
            }
        }
        if let path = fields.string("metrics_file", expect: "an absolute path for the metrics file") {
            if path.hasPrefix("/") {
                spec.metricsFile = path
            } else {
                log.add(.invalidValue, fields.at("metrics_file"), "\(quote(path)) is relative: expected an absolute path")
            }
        }
        if let interval = fields.number("metrics_interval", in: Limits.metricsInterval) { spec.metricsInterval = interval }
        readWebSocket(fields, into: &spec)
        if let accounts = readAccounts(fields, "allow_users") { spec.allowUsers = accounts }
        if let accounts = readAccounts(fields, "allow_groups") { spec.allowGroups = accounts }
        if let accounts = readAccounts(fields, "control_users") { spec.controlUsers = accounts }
        if let accounts = readAccounts(fields, "control_groups") { spec.controlGroups = accounts }
        fields.rejectUnknownKeys(DaemonSpec.keys, what: "[daemon]", aliases: Self.daemonAliases)
        return spec
    }

    /// `websocket`, `websocket_tokens` and `websocket_origins`.
    private func readWebSocket(_ fields: Fields, into spec: inout DaemonSpec) {
        if let address = fields.string("websocket", expect: "HOST:PORT with an IP address, such as \"127.0.0.1:8765\"") {
            if DaemonSpec.isListenAddress(address) {
                spec.webSocket = address
            } else {
                log.add(.invalidValue, fields.at("websocket"), "\(quote(address)) is not HOST:PORT: expected an IP address and a port, such as \"127.0.0.1:8765\"")
            }
        }
        if let path = fields.string("websocket_tokens", expect: "an absolute path for the tokens file") {
            if path.hasPrefix("/") {
                spec.webSocketTokens = path
            } else {
                log.add(.invalidValue, fields.at("websocket_tokens"), "\(quote(path)) is relative: expected an absolute path")
            }
        }
        guard let node = fields.values["websocket_origins"] else { return }
        guard case .array(let items) = node, items.count <= Limits.maximumLayoutEntries else {
            return fields.wrongType(fields.at("websocket_origins"), node, "an array of at most \(Limits.maximumLayoutEntries) origins")
        }
        let expected = "an origin such as \"http://127.0.0.1:8080\", \"https://kiosk.example\" or \"null\""
        for (index, item) in items.enumerated() {
            let path = fields.at("websocket_origins").appending(index: index)
            guard let origin = fields.checkedString(item, at: path, expect: expected) else { continue }
            guard DaemonSpec.isOrigin(origin) else {
                log.add(.invalidValue, path, "\(quote(origin)) is not an origin: expected \(expected) (a scheme and a host, no path)")
                continue
            }
            spec.webSocketOrigins.append(origin)
        }
    }

    /// An array of users or groups, each a name or a numeric id (``AccountRef``), of at most
    /// ``Limits/maximumLayoutEntries``.
    private func readAccounts(_ fields: Fields, _ key: String) -> [AccountRef]? {
        guard let node = fields.values[key] else { return nil }
        guard case .array(let items) = node else {
            fields.wrongType(fields.at(key), node, "an array of names or ids")
            return nil
        }
        guard items.count <= Limits.maximumLayoutEntries else {
            log.add(.exceedsLimit, fields.at(key), "\(items.count) entries: expected at most \(Limits.maximumLayoutEntries)")
            return nil
        }
        return items.enumerated().compactMap { i, item in
            let path = fields.at(key).appending(index: i)
            switch item {
            case .integer:
                return fields.checkedInteger(item, at: path, in: Limits.unixID, what: "a numeric id").flatMap { UInt32(exactly: $0) }.map { .id($0) }
            case .string(let text):
                guard let account = AccountRef(parsing: text) else {
                    log.add(.invalidValue, path, "\(quote(text)) is not a user or group: expected \(AccountRef.expected)")
                    return nil
                }
                return account
            case .table, .array, .float, .bool, .dateTime:
                fields.wrongType(path, item, AccountRef.expected)
                return nil
            }
        }
    }
}
