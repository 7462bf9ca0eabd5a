import TouchCore
import TouchProtocol

/// The requests about the connection itself.
enum SessionRequest {
    case ping
    case subscribe(topics: Set<Topic>, views: [String]?, actions: Set<String>?)
    case unsubscribe(Int)
}

extension Daemon {
    func perform(_ request: SessionRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .ping: .success(ReplyResult.pong)
        case .subscribe(let topics, let views, let actions): subscribe(client, topics: topics, views: views, actions: actions)
        case .unsubscribe(let subscription): unsubscribe(client, subscription)
        }
    }

    /// Adds a subscription, within ``ClientLimits/maximumSubscriptionsPerClient``.
    private func subscribe(_ client: SocketServer.ClientHandle, topics: Set<Topic>, views: [String]?, actions: Set<String>?) -> RequestResult {
        let limit = server.limits.maximumSubscriptionsPerClient
        let id = server.withSubscriptions(of: client) { subs, next -> Int? in
            guard subs.count < limit else { return nil }
            defer { next += 1 }
            subs.append(Subscription(id: next, topics: topics, views: views, actions: actions))
            return next
        }
        guard let added = id ?? nil else {
            return .failure(
                RequestError("too_many_subscriptions", "a connection may hold at most \(limit) subscriptions: unsubscribe one first"))
        }
        loop.deferWork { [weak self] in self?.input.subscriberArrived() }
        updateDiagnostics()
        return .success(ReplyResult.subscribed(added))
    }

    private func unsubscribe(_ client: SocketServer.ClientHandle, _ subscription: Int) -> RequestResult {
        let removed =
            server.withSubscriptions(of: client) { subs, _ -> Bool in
                let before = subs.count
                subs.removeAll { $0.id == subscription }
                return subs.count < before
            } ?? false
        guard removed else { return .failure(RequestError("unknown_subscription", "no subscription \(subscription) on this connection")) }
        updateDiagnostics()
        return .success(ReplyResult.done)
    }
}
