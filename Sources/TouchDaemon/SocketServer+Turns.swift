import TouchSystem
import TouchProtocol

/// How the request handler answered one request line.
public enum RequestAnswer {
    /// A reply for the client. `heavy` for `snapshot` and `views` (a large reply): it ends the
    /// client's turn.
    case reply(OutboundMessage, heavy: Bool)
    /// The request waits for the client's next turn (this turn's `snapshot`/`views` was served).
    case nextTurn
}

/// Whether a `snapshot` or `views` request may be served now.
public enum HeavyRequestAdmission: Hashable, Sendable {
    case now
    /// Another client's was served this turn: the request waits for the next.
    case nextTurn
    /// Refused (`busy`), with the reason: replies of this kind are still being written.
    case busy(String)
}

/// Serving requests in turns: the loop stays responsive however much clients send.
///
/// A client's readable descriptor only reads its bytes (at most
/// ``ClientLimits/maximumRequestBytesPerTurn``); its requests are served at the end of the wakeup,
/// after the wakeup's input was read and dispatched, in a turn that gives every client with
/// requests waiting at most ``ClientLimits/maximumRequestsPerTurn`` of them (and at most one
/// `snapshot` or `views` for all clients). A client with more waiting keeps its place for the next
/// turn, which an alarm starts at once after the next wakeup's input; its descriptor is not
/// watched for reading meanwhile (nothing is read that cannot be served). A client whose queue of
/// unwritten bytes is over half its limit is not served until it reads: its replies would only
/// pile up.
extension SocketServer {
    /// A connected or closing client's descriptor is ready.
    func handle(fd: Int32, _ readiness: EventLoop.Readiness) {
        if closing[fd] != nil { return continueClosing(fd) }
        guard let client = clients[fd] else { return }
        if readiness.contains(.writable) || readiness.contains(.hangup) {
            guard writeBacklog(of: client) else { return }
        }
        guard readiness.contains(.readable) || readiness.contains(.hangup) else { return }
        if !client.hasLineWaiting {
            client.read(maximumBytes: limits.maximumRequestBytesPerTurn)
            client.lastHeard = loop.clock.now
            client.pingSent = nil
        }
        schedule(client)
    }

    /// Writes a client's queued bytes as its socket takes them; resumes serving it once its queue
    /// is short again. Returns false when the client is gone.
    private func writeBacklog(of client: ClientConnection) -> Bool {
        var outcome = client.outbox.flush()
        // A client reading again learns what it missed, without waiting for a new message.
        if outcome != .failed, client.outbox.queueDropNoticeIfRoom(limit: limits.maximumQueuedBytes) { outcome = client.outbox.flush() }
        guard outcome != .failed else {
            drop(client)
            return false
        }
        if client.queuedBytes <= limits.requestPauseBytes && (client.hasLineWaiting || client.inputEnd != nil) { schedule(client) }
        updateWatching(client)
        return true
    }

    /// Puts a client in the list served at the end of this wakeup.
    func schedule(_ client: ClientConnection) {
        if !client.isScheduled {
            client.isScheduled = true
            ready.append(client)
        }
        scheduleTurn()
    }

    /// Serves the clients in ``ready`` once the current wakeup's descriptors are handled.
    func scheduleTurn() {
        guard !turnScheduled, !ready.isEmpty else { return }
        turnScheduled = true
        loop.deferWork { [weak self] in self?.serveTurn() }
    }

    /// Whether request lines already received wait for a turn that is scheduled: one who drives
    /// the loop step by step (a test, the request fuzzing target) knows that more will be served
    /// though no descriptor is ready (a turn's share may have been spent on empty lines).
    public var hasRequestsWaiting: Bool { turnScheduled || !ready.isEmpty }

    /// One turn: every client in ``ready`` in order; those with requests left keep their place
    /// (those waiting for the `snapshot`/`views` slot first), and an alarm brings the next turn.
    func serveTurn() {
        turnScheduled = false
        heavySlotTaken = false
        let turn = ready
        ready = []
        var waitingForSlot: [ClientConnection] = []
        var more: [ClientConnection] = []
        for client in turn {
            client.isScheduled = false
            guard clients[client.fd] === client else { continue }
            switch serve(client) {
            case .drained: endTurn(of: client)
            case .more: more.append(client)
            case .waitingForHeavySlot: waitingForSlot.append(client)
            case .paused: updateWatching(client)
            case .gone: break
            }
        }
        for client in waitingForSlot + more {
            client.isScheduled = true
            updateWatching(client)
        }
        ready = waitingForSlot + more + ready
        if !ready.isEmpty { turnTimer?.schedule(after: 0) }
    }

    private enum ServeOutcome { case drained, more, waitingForHeavySlot, paused, gone }

    /// Serves one client's requests, within its share of the turn.
    private func serve(_ client: ClientConnection) -> ServeOutcome {
        let handle = ClientHandle(fd: client.fd, serial: client.serial)
        var budget = limits.maximumRequestsPerTurn
        while budget > 0 {
            guard client.queuedBytes <= limits.requestPauseBytes else { return .paused }
            guard let line = client.nextLine() else { return .drained }
            budget -= 1
            guard !line.isEmpty else { continue }
            noteActivity(of: client)
            switch delegate.answer(line, from: handle) {
            case .reply(let message, let heavy):
                statistics.requestsServed += 1
                deliver(message, to: client, heavy: heavy)
                if heavy { budget = 0 }
            case .nextTurn:
                client.hold(line)
                return .waitingForHeavySlot
            }
            guard clients[client.fd] === client else { return .gone }
        }
        return client.hasLineWaiting ? .more : .drained
    }

    /// A client's requests are all served: it is watched for more, or, when its input ended, its
    /// connection ends.
    private func endTurn(of client: ClientConnection) {
        switch client.inputEnd {
        case nil:
            updateWatching(client)
        case .closed:
            // The peer closed its side: what is queued for it is still written (a WebSocket
            // client's close is answered), then the connection closes.
            client.outbox.sendControlFrame(WebSocketFrameEncoder.close(.normal, reason: ""))
            finish(client)
        case .lineTooLong:
            end(
                client, reason: "request line too long", code: .messageTooBig,
                before: [MessageEncoder.lineTooLong(maximumLineLength: limits.maximumLineLength)])
        case .webSocketFailure(let failure):
            statistics.webSocketProtocolErrors += 1
            end(client, reason: failure.reason, code: failure.code)
        }
    }

    /// Whether a costly request (`snapshot`, `views`, `hit_test`) of `handle` may be served now:
    /// one a turn for all clients; for one with a `largeReply` (`snapshot`, `views`), none while
    /// the client's previous one is unwritten, none while such replies of all clients together
    /// exceed ``ClientLimits/maximumHeavyReplyBytesInFlight``.
    public func admitHeavyRequest(for handle: ClientHandle, largeReply: Bool = true) -> HeavyRequestAdmission {
        guard let client = client(handle) else { return .nextTurn }
        guard largeReply else {
            if heavySlotTaken { return .nextTurn }
            heavySlotTaken = true
            return .now
        }
        if client.outbox.heavyReplyBytesUnwritten > 0 {
            return .busy("this connection's last snapshot or views reply is still being written: read it first")
        }
        let inFlight = clients.values.reduce(0) { $0 + $1.outbox.heavyReplyBytesUnwritten }
            + closing.values.reduce(0) { $0 + $1.client.outbox.heavyReplyBytesUnwritten }
        if inFlight >= limits.maximumHeavyReplyBytesInFlight {
            return .busy(
                "\(inFlight) bytes of snapshot and views replies wait for their clients (at most \(limits.maximumHeavyReplyBytesInFlight)): try again later"
            )
        }
        if heavySlotTaken { return .nextTurn }
        heavySlotTaken = true
        return .now
    }
}
