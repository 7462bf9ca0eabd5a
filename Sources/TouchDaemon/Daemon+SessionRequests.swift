import TouchCore
import TouchProtocol

extension Daemon {
    func perform(_ request: SessionRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .ping: .success(ReplyResult.pong)
        case .subscribe(let topics, let views, let actions, let form):
            subscribe(client, Subscription(id: 0, topics: topics, views: views, actions: actions, touchSamples: form))
        case .unsubscribe(let subscription): unsubscribe(client, subscription)
        }
    }

    /// Adds a subscription (numbered here), within ``ClientLimits/maximumSubscriptionsPerClient``. A
    /// subscription that brings the `devices` topic to the client first tells it of the devices
    /// already present (before the reply).
    private func subscribe(_ client: SocketServer.ClientHandle, _ subscription: Subscription) -> RequestResult {
        let limit = server.limits.maximumSubscriptionsPerClient
        let present = input.presentDevices.map { MessageEncoder.deviceAdded(id: $0.id, description: $0.description, alreadyPresent: true) }
        let outcome = server.withSubscriptions(of: client) { subs, next -> (id: Int, news: [OutboundMessage])? in
            guard subs.count < limit else { return nil }
            defer { next += 1 }
            let before = SubscriptionSet(subs)
            var numbered = subscription
            numbered.id = next
            subs.append(numbered)
            return (next, present.filter { !before.wants($0) && numbered.matches($0) })
        }
        guard let (added, news) = outcome ?? nil else {
            return .failure(
                RequestError(.tooManySubscriptions, "a connection may hold at most \(limit) subscriptions: unsubscribe one first"))
        }
        for message in news { server.send(message, to: client) }
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
        guard removed else { return .failure(RequestError(.unknownSubscription, "no subscription \(subscription) on this connection")) }
        updateDiagnostics()
        return .success(ReplyResult.done)
    }
}
