import TouchSystem
import TouchCore
import TouchProtocol

extension Request {
    /// Whether the request is costly (a dump of the tree, a picture, a hit-test's walk and trace
    /// through every view of a large layout): one such request is served a turn for all clients.
    var isHeavy: Bool {
        switch self {
        case .tree(.views), .tree(.snapshot), .tree(.hitTest): true
        case .session, .tree, .responders, .daemon, .deviceSession: false
        }
    }

    /// Whether the request's reply may be large (a dump of the tree, a picture): one such reply at
    /// a time per client, and a bound on those unwritten for all clients.
    var hasLargeReply: Bool {
        switch self {
        case .tree(.views), .tree(.snapshot): true
        case .session, .tree, .responders, .daemon, .deviceSession: false
        }
    }
}

/// What every request family's handler returns: the result, or the error to reply.
typealias RequestResult = Result<JSONValue, RequestError>

extension RequestError {
    /// A request the client's role does not allow.
    static func forbidden(_ request: Request, role: ClientRole, credentials: PeerCredentials?) -> RequestError {
        let who = credentials.map { " (\($0))" } ?? ""
        return RequestError(
            .forbidden,
            "\"\(request.command)\" needs the \(request.requiredRole.rawValue) role; this connection\(who) has the \(role.rawValue) role (see [daemon] control_users and control_groups in docs/operations.md)"
        )
    }
}

extension Daemon: SocketServerDelegate {
    /// `hello`, with the daemon's version and the connection's role.
    public func greeting(for role: ClientRole) -> OutboundMessage { MessageEncoder.hello(daemonVersion: version, role: role) }

    /// The status line follows the clients (at most once a second).
    public func clientsChanged() { status.changed() }

    public func acceptingProblem(_ text: String?) { observer.acceptingProblem(text) }

    /// Answers one request line of `client`: parsed and checked against its domains, refused when
    /// the client's role does not allow it, served by its family, its reply bounded in size.
    public func answer(_ line: [UInt8], from client: SocketServer.ClientHandle) -> RequestAnswer {
        // The reply comes after every message about the input that arrived before the request.
        dispatchQueued()
        let (id, parsed) = Request.parse(line)
        let request: Request
        switch parsed {
        case .failure(let error): return .reply(Reply.error(id, error), heavy: false)
        case .success(let value): request = value
        }
        guard let role = server.role(of: client) else { return .reply(Reply.error(id, RequestError(.gone, "the connection ended")), heavy: false) }
        guard role.allows(request.requiredRole) else {
            let error = RequestError.forbidden(request, role: role, credentials: server.credentials(of: client))
            return .reply(Reply.error(id, error), heavy: false)
        }
        if request.isHeavy {
            switch server.admitHeavyRequest(for: client, largeReply: request.hasLargeReply) {
            case .now: break
            case .nextTurn: return .nextTurn
            case .busy(let reason): return .reply(Reply.error(id, RequestError(.busy, reason)), heavy: false)
            }
        }
        return .reply(bounded(reply(to: id, perform(request, for: client))), heavy: request.hasLargeReply)
    }

    /// Serves a request by its family, each in a file of its own (`Daemon+SessionRequests.swift`,
    /// `Daemon+TreeRequests.swift`, `Daemon+ResponderRequests.swift`, `Daemon+DaemonRequests.swift`,
    /// `Daemon+DeviceSessionRequests.swift`).
    func perform(_ request: Request, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .session(let request): perform(request, for: client)
        case .tree(let request): perform(request, for: client)
        case .responders(let request): perform(request)
        case .daemon(let request): perform(request, for: client)
        case .deviceSession(let request): perform(request, for: client)
        }
    }

    private func reply(to id: JSONValue, _ result: RequestResult) -> (id: JSONValue, message: OutboundMessage) {
        switch result {
        case .success(let value): (id, Reply.ok(id, value))
        case .failure(let error): (id, Reply.error(id, error))
        }
    }

    /// The reply, or a `reply_too_large` error in its place when it is longer than
    /// ``ClientLimits/maximumReplyBytes``.
    private func bounded(_ reply: (id: JSONValue, message: OutboundMessage)) -> OutboundMessage {
        let limit = server.limits.maximumReplyBytes
        guard reply.message.bodyCount > limit else { return reply.message }
        return Reply.error(
            reply.id,
            RequestError(
                .replyTooLarge, "the reply would be \(reply.message.bodyCount) bytes; replies are limited to \(limit) bytes (docs/limits.md)"))
    }

    /// Records responder calls and traces hit-tests only while some client subscribes to `calls`
    /// or `hit_tests`: otherwise neither costs anything (no message carries them). Likewise only
    /// the topics and forms of `touch` message some client wants are encoded.
    func updateDiagnostics() {
        let interest = server.interest
        publication.interest = interest
        app.recordsResponderCalls = interest.wants(.calls)
        app.tracesHitTests = interest.wants(.hitTests)
        app.recordsSampleLocationsInView = interest.touchForms.contains(.input)
    }

    /// A client's connection ended: the views it added and that are still in the tree are removed
    /// (their touches cancelled first, as for `remove_view`), unless a reload replaced the tree since.
    public func clientLeft(_ client: SocketServer.ClientHandle) {
        updateDiagnostics()
        endDeviceSessions(of: client)
        let views = viewOwnership.takeViews(of: client.serial)
        guard !views.isEmpty else { return }
        dispatchQueued()
        for view in views where app.tree.kind(of: view) == .view {
            // A view added under another of the client's views may have gone with it already.
            if let report = try? app.removeView(view, timestamp: inputNow()) { publish([report]) }
        }
        publishFirstResponderChanges()
        viewOwnership.removeAll { app.tree.kind(of: $0) != nil }
    }
}
