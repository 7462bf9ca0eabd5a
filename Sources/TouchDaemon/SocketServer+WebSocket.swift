import TouchCore
import TouchProtocol

/// Keeping WebSocket connections honest: a client quiet for ``ClientLimits/webSocketPingInterval``
/// is pinged, and one that sends nothing (no pong, no request) for as long again is closed with
/// close code 1001 (`goodbye` first): a peer gone without closing its connection (a browser's
/// machine cut off, a half-open TCP connection) does not hold its place. Browsers answer pings by
/// themselves.
extension SocketServer {
    /// Makes sure the keepalive timer runs while WebSocket clients are connected.
    func watchWebSocketKeepalive() {
        guard let keepaliveTimer, !keepaliveTimer.isScheduled else { return }
        keepaliveTimer.schedule(after: limits.webSocketPingInterval / 2)
    }

    func pingQuietWebSocketClients() {
        let now = loop.clock.now
        var any = false
        for client in clients.values.sorted(by: { $0.serial < $1.serial }) where client.isWebSocket {
            any = true
            if let sent = client.pingSent {
                guard now.span(since: sent) >= limits.webSocketPingInterval else { continue }
                statistics.webSocketPingTimeouts += 1
                let reason = "no answer to a ping for \(formatNumber(limits.webSocketPingInterval.seconds)) s"
                end(client, reason: reason, code: .goingAway)
            } else if now.span(since: client.lastHeard) >= limits.webSocketPingInterval {
                client.pingSent = now
                client.outbox.sendControlFrame(WebSocketFrameEncoder.ping(Array("touchd".utf8)))
                flush(client)
            }
        }
        if any { keepaliveTimer?.schedule(after: limits.webSocketPingInterval / 2) }
    }
}
