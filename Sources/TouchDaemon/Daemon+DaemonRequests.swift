import TouchSystem
import TouchCore
import TouchProtocol

extension Daemon {
    func perform(_ request: DaemonRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .reload: reloadRequested(by: server.credentials(of: client))
        case .devices: .success(describeDevices())
        case .stats: .success(ReplyResult.stats(statsCounters()))
        }
    }

    private func reloadRequested(by credentials: PeerCredentials?) -> RequestResult {
        guard services.layoutFile != nil else { return .failure(RequestError(.unsupported, "this daemon has no layout file to reload")) }
        do {
            return .success(ReplyResult.reloaded(views: try reload(by: .request(credentials))))
        } catch {
            // The observer has logged the refusal (see reload()).
            return .failure(RequestError(.reloadFailed, "\(error)"))
        }
    }

    /// The daemon's figures now: the `stats` reply's and the metrics file's.
    func statsCounters() -> StatsCounters {
        let s = app.statistics
        let server = server.statistics
        var c = StatsCounters()
        c.framesIn = framesIn
        c.eventsDispatched = s.eventsDispatched
        c.touchesBegan = s.touchesBegan
        c.touchesCancelled = s.touchesCancelled
        c.actionsEmitted = s.actionsEmitted
        c.anomalies = s.anomalies
        c.queueHighWaterMark = app.queue.highWaterMark
        c.queueCoalesced = app.queue.coalescedCount
        c.clients = self.server.clientCount
        c.clientsAccepted = server.accepted
        c.clientsRefused = server.refused
        c.clientsRefusedFull = server.refusedFull
        c.acceptBackoffs = server.acceptBackoffs
        c.requestsServed = server.requestsServed
        c.messagesSent = server.sentMessages
        c.messagesDropped = server.droppedMessages
        c.clientQueuePeakBytes = self.server.largestQueuePeak
        c.clientsDisconnectedSlow = server.disconnectedSlow
        c.clientsClosedStalled = server.closedStalled
        c.clientsRefusedPlaces = server.refusedPlaces
        c.clientsClosedIdle = server.closedIdle
        c.websocketHandshakes = server.webSocketHandshakes
        c.websocketRefused = server.webSocketRefused
        c.websocketHandshakeTimeouts = server.webSocketHandshakeTimeouts
        c.websocketProtocolErrors = server.webSocketProtocolErrors
        c.websocketPingTimeouts = server.webSocketPingTimeouts
        c.remoteControlIgnored = s.remoteControlEventsIgnored
        c.activeTouches = app.activeTouches.count
        c.wakeups = loop.wakeups
        c.devices = input.presentDevices.count
        c.reloads = reloads.accepted
        c.reloadsRefused = reloads.refused
        return c
    }
}
