import TouchCore
import TouchSystem
import TouchProtocol

/// A client being disconnected whose last lines its socket did not take at once.
struct ClosingClient {
    let client: ClientConnection
    /// When it began closing, and when it last read something.
    let started: LoopInstant
    var lastProgress: LoopInstant
    /// What had been written to its socket, and what its socket held unread, when last checked.
    var written: Int
    var unread: Int?
}

/// Ending connections without cutting a line.
///
/// A connection touchd ends (a slow client, a line too long, ``SocketServer/disconnect(_:reason:)``)
/// loses the lines not yet started on its socket: they are reported in a `dropped` notice, then
/// come the last words (`goodbye` with the reason). A line partly written is completed first. Lines
/// reach the socket whole and touchd keeps room in it for these last words
/// (``ClientOutbox``), so they are usually written at once and the connection closes at once;
/// the client reads them from its socket whenever it reads again. When they are not (a line
/// longer than ``ClientOutbox/chunkBytes`` was being written), the connection is kept while the
/// client reads, and closed when all is written, when it has read nothing for
/// ``ClientLimits/closingStallTimeout``, or after ``ClientLimits/maximumClosingTime``.
extension SocketServer {
    /// How often clients being disconnected are checked for progress (seconds).
    static let closingCheckInterval: TimeSpan = 0.5

    /// Ends a client's connection: the lines not yet started are discarded and reported, with
    /// `lost` (a message numbered and never queued), in a `dropped` notice; `before` and a
    /// `goodbye` with `reason` follow (and, for a WebSocket client, a close frame with `code` and
    /// the reason); then the connection closes once they are written. Returns how many messages
    /// were newly lost.
    @discardableResult
    func end(
        _ client: ClientConnection, lost: UInt64? = nil, reason: String, code: WebSocketCloseCode = .policyViolation,
        before: [OutboundMessage] = []
    ) -> Int {
        let newlyLost = client.outbox.abandonBacklog(lost: lost)
        for message in before + [MessageEncoder.goodbye(reason: reason)] { client.outbox.sendFinal(message) }
        client.outbox.sendControlFrame(WebSocketFrameEncoder.close(code, reason: reason))
        finish(client)
        return newlyLost
    }

    /// Closes a client once what is queued for it is written: at once when its socket takes it
    /// all, else as the client reads. It no longer counts as connected and receives nothing else.
    func finish(_ client: ClientConnection) {
        guard clients[client.fd] === client else { return }
        forget(client)
        clientGone(client)
        switch client.outbox.flush(final: true) {
        case .done, .failed:
            loop.unregister(client.fd)
            Descriptor.close(client.fd)
        case .wouldBlock:
            client.watching = .writable
            loop.modify(client.fd, for: .writable)
            let now = loop.clock.now
            closing[client.fd] = ClosingClient(
                client: client, started: now, lastProgress: now, written: client.outbox.writtenTotal, unread: client.outbox.unreadInSocket)
            closingTimer?.schedule(after: Self.closingCheckInterval)
        }
    }

    /// A closing client's socket is writable (or hung up).
    func continueClosing(_ fd: Int32) {
        guard let entry = closing[fd] else { return }
        switch entry.client.outbox.flush(final: true) {
        case .done: closeLingering(fd, stalled: false)
        case .failed: closeLingering(fd, stalled: true)
        case .wouldBlock: noteProgress(of: fd, at: loop.clock.now)
        }
    }

    /// Writes to every closing client what its socket takes, and closes those that are done, that
    /// have read nothing for ``ClientLimits/closingStallTimeout``, or that have had
    /// ``ClientLimits/maximumClosingTime``.
    func checkClosingClients() {
        let now = loop.clock.now
        for fd in closing.keys.sorted() {
            guard let entry = closing[fd] else { continue }
            switch entry.client.outbox.flush(final: true) {
            case .done:
                closeLingering(fd, stalled: false)
                continue
            case .failed:
                closeLingering(fd, stalled: true)
                continue
            case .wouldBlock:
                noteProgress(of: fd, at: now)
            }
            guard let checked = closing[fd] else { continue }
            if now.span(since: checked.lastProgress) >= limits.closingStallTimeout || now.span(since: checked.started) >= limits.maximumClosingTime {
                closeLingering(fd, stalled: true)
            }
        }
        if !closing.isEmpty { closingTimer?.schedule(after: Self.closingCheckInterval) }
    }

    /// Notes whether the client read something since the last check: its socket took more bytes,
    /// or holds fewer unread.
    private func noteProgress(of fd: Int32, at now: LoopInstant) {
        guard var entry = closing[fd] else { return }
        let written = entry.client.outbox.writtenTotal
        let unread = entry.client.outbox.unreadInSocket
        let readMore = unread.flatMap { now in entry.unread.map { now < $0 } } ?? false
        if written > entry.written || readMore { entry.lastProgress = now }
        entry.written = written
        entry.unread = unread
        closing[fd] = entry
    }

    /// Closes a client being disconnected; `stalled` when its last words could not all be written.
    func closeLingering(_ fd: Int32, stalled: Bool) {
        guard let entry = closing.removeValue(forKey: fd) else { return }
        statistics.goneQueuePeak = max(statistics.goneQueuePeak, entry.client.outbox.peakQueuedBytes)
        if stalled { statistics.closedStalled += 1 }
        loop.unregister(fd)
        Descriptor.close(fd)
        if closing.isEmpty { closingTimer?.cancel() }
    }
}
