import TouchCore
import TouchProtocol

/// The requests about the connection itself.
enum SessionRequest {
    case ping
    case subscribe(Subscription)
    case unsubscribe(Int)
}

extension Daemon {
    func perform(_ request: SessionRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .ping: .success(ReplyResult.pong)
        case .subscribe(let subscription): subscribe(client, subscription)
        case .unsubscribe(let subscription): unsubscribe(client, subscription)
        }
    }

    /// Adds a subscription (numbered here), within ``ClientLimits/maximumSubscriptionsPerClient``.
    private func subscribe(_ client: SocketServer.ClientHandle, _ subscription: Subscription) -> RequestResult {
        let limit = server.limits.maximumSubscriptionsPerClient
        let id = server.withSubscriptions(of: client) { subs, next -> Int? in
            guard subs.count < limit else { return nil }
            defer { next += 1 }
            var numbered = subscription
            numbered.id = next
            subs.append(numbered)
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
