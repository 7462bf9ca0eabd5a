import TouchCore
import TouchProtocol

/// Who gets a place: of ``ClientLimits/maximumClients``, ``ClientLimits/reservedControlClients``
/// are kept for clients with the control role (the kiosk app), one user may hold at most
/// ``ClientLimits/maximumReadOnlyClientsPerUser`` read-only connections, and a read-only
/// connection without a subscription that makes no request for ``ClientLimits/idleTimeout`` is
/// closed (`goodbye`): it receives nothing and only holds a place. A subscribed connection, and
/// one with the control role, is never closed for being quiet.
extension SocketServer {
    /// Why a client with `role` and `credentials` gets no place now (beyond the limit of all
    /// clients), or `nil` when it may come in.
    func placeRefusal(role: ClientRole, quotaKey: String) -> String? {
        guard role == .readOnly else { return nil }
        var readOnly = 0
        var sameUser = 0
        for client in clients.values where client.role == .readOnly {
            readOnly += 1
            if client.quotaKey == quotaKey { sameUser += 1 }
        }
        let places = limits.maximumClients - limits.reservedControlClients
        if readOnly >= places {
            return "too many read-only clients: \(places) places are theirs, \(limits.reservedControlClients) are kept for control clients"
        }
        if sameUser >= limits.maximumReadOnlyClientsPerUser {
            return "too many read-only connections of \(quotaKey): at most \(limits.maximumReadOnlyClientsPerUser) a user (or WebSocket token)"
        }
        return nil
    }

    /// Whether `client` may be closed for being quiet: read-only and without a subscription.
    func canIdle(_ client: ClientConnection) -> Bool { client.role == .readOnly && client.subscriptions.isEmpty }

    /// Notes that `client` made a request (or connected) now, and watches for its idling.
    func noteActivity(of client: ClientConnection) {
        client.lastActivity = loop.clock.now
        guard client.role == .readOnly, let idleTimer, !idleTimer.isScheduled else { return }
        idleTimer.schedule(after: limits.idleTimeout)
    }

    /// Closes the read-only connections without a subscription that have been quiet for
    /// ``ClientLimits/idleTimeout``; watches for the next one due.
    func closeIdleClients() {
        let now = loop.clock.now
        var next: LoopInstant?
        for client in clients.values.sorted(by: { $0.serial < $1.serial }) where canIdle(client) {
            guard let due = client.lastActivity.advanced(by: limits.idleTimeout) else { continue }
            guard due <= now else {
                next = min(next ?? due, due)
                continue
            }
            statistics.closedIdle += 1
            let reason = "idle: no subscription and no request for \(formatNumber(limits.idleTimeout.seconds)) s"
            _ = end(client, reason: reason)
        }
        if let next { idleTimer?.schedule(at: next) }
    }
}
