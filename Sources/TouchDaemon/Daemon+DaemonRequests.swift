import TouchCore
import TouchProtocol

/// The requests about the daemon: its layout, devices and counters.
enum DaemonRequest {
    case reload
    case devices
    case stats
}

extension Daemon {
    func perform(_ request: DaemonRequest) -> RequestResult {
        switch request {
        case .reload: reloadRequested()
        case .devices: .success(describeDevices())
        case .stats: .success(ReplyResult.stats(statsCounters()))
        }
    }

    private func reloadRequested() -> RequestResult {
        guard services.layoutFile != nil else { return .failure(RequestError("unsupported", "this daemon has no layout file to reload")) }
        do {
            return .success(ReplyResult.reloaded(views: try reload()))
        } catch {
            // The observer has logged the refusal (see reload()).
            return .failure(RequestError("reload_failed", "\(error)"))
        }
    }

    private func statsCounters() -> StatsCounters {
        let s = app.statistics
        let srv = server.statistics
        return StatsCounters(
            framesIn: framesIn, eventsDispatched: s.eventsDispatched, touchesBegan: s.touchesBegan, touchesCancelled: s.touchesCancelled,
            actionsEmitted: s.actionsEmitted, anomalies: s.anomalies, queueHighWaterMark: app.queue.highWaterMark,
            queueCoalesced: app.queue.coalescedCount, clients: server.clientCount, messagesSent: srv.sentMessages,
            messagesDropped: srv.droppedMessages, clientsDisconnectedSlow: srv.disconnectedSlow, activeTouches: app.activeTouches.count,
            wakeups: loop.wakeups)
    }
}
