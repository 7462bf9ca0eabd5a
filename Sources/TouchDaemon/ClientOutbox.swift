import TouchSystem
import TouchProtocol

/// The lines waiting for one client's socket, numbered, and how they reach it.
///
/// Writing never blocks: what the socket does not take now waits here, within the client's
/// limit; past it, droppable messages (touch moves) are dropped and counted, and the client is
/// later told how many and which sequence numbers. A message that may not be dropped and does not
/// fit ends the connection instead (``abandonBacklog(lost:)``).
///
/// Lines reach the socket whole. Each `send` carries whole lines (at most ``chunkBytes``; only a
/// longer line goes in pieces), and only while the socket's buffer has room for it beyond
/// ``SocketRoom/reserve``: the kernel takes such a send entirely or not at all, so the socket never
/// holds the beginning of a line whose end touchd still has (a line longer than ``chunkBytes``
/// aside), and there is always room for a last `dropped` notice and `goodbye`, even for a client
/// that reads nothing at all.
final class ClientOutbox {
    /// The most bytes given to the socket in one `send`: one buffer of the kernel's, taken whole.
    static let chunkBytes = 16 * 1024
    /// Bytes kept free below the limit for the `dropped` notice and a `goodbye`: droppable messages
    /// are dropped once the queue reaches the limit less this, so the notice always has room.
    static let noticeReserve = 512

    private let fd: Int32
    /// How each message is delimited: a line (the Unix socket) or a WebSocket text frame.
    let framing: ByteQueue.Framing
    private(set) var nextSeq: UInt64 = 1
    /// Queued bytes not yet taken by the socket.
    private let pending = ByteQueue()
    /// Bytes ever written to the socket and ever queued: positions in the stream, independent of
    /// compaction, so queued lines can be told apart from the part already sent.
    private(set) var writtenTotal = 0
    private var queuedTotal = 0
    /// Each queued line's start and end (stream positions) and sequence number, oldest first, from
    /// `lineHead` on. A WebSocket control frame (a pong, a ping, the close) is a line numbered 0:
    /// it is not a message.
    private var lineEnds: [(start: Int, end: Int, seq: UInt64)] = []
    private var lineHead = 0
    /// Dropped messages not yet reported: count and the sequence numbers of the first and last.
    private(set) var dropped: (count: Int, first: UInt64, last: UInt64)?
    private(set) var totalDropped = 0
    /// Where the last `snapshot` or `views` reply ends in the stream (0: none was queued).
    private var heavyReplyEnd = 0
    private var room: SocketRoom

    init(fd: Int32, framing: ByteQueue.Framing = .line) {
        self.fd = fd
        self.framing = framing
        room = SocketRoom(fd: fd)
    }

    var queuedBytes: Int { pending.count }

    /// The most bytes this queue has held at once.
    private(set) var peakQueuedBytes = 0

    /// The bytes of the last `snapshot` or `views` reply not yet taken by the socket.
    var heavyReplyBytesUnwritten: Int { max(0, min(heavyReplyEnd, queuedTotal) - writtenTotal) }

    /// What the socket's buffer still holds unread by the client (the kernel's count, with its
    /// overhead), or `nil` when the kernel does not tell.
    var unreadInSocket: Int? { SocketIO.unsentBytes(fd) }

    /// Queued; dropped (the client is told later); dropped, its `dropped` notice queued at once; or
    /// not queued, though it may not be dropped.
    enum SendOutcome { case queued, dropped, droppedWithNotice, overflow }

    /// The most bytes a line adds to a message's body: `{"seq":N,`, `}` and the newline, or a
    /// WebSocket frame's header.
    static let lineFramingBytes = 42

    /// Numbers `message` and queues it, within `limit` bytes.
    ///
    /// A droppable message is dropped (and counted) when the queue is within ``noticeReserve`` of
    /// the limit, or when its line would take the queue past the limit (a large `hit_test` trace
    /// or move buffer is never queued whole for a client that reads promptly, only to cut it);
    /// one that may not be dropped overflows only at the limit itself. A pending drop notice goes
    /// out first as soon as the queue is below half the limit.
    func send(_ message: OutboundMessage, limit: Int) -> SendOutcome {
        let seq = nextSeq
        nextSeq += 1
        let droppableLimit = max(limit - Self.noticeReserve, limit / 2)
        if message.droppable, queuedBytes < droppableLimit, queuedBytes + message.bodyCount + Self.lineFramingBytes > limit {
            noteDropped(seq)
            guard queuedBytes < limit / 2 else { return .dropped }
            queueDropNotice()
            return .droppedWithNotice
        }
        if queuedBytes >= (message.droppable ? droppableLimit : limit) {
            guard message.droppable else { return .overflow }
            noteDropped(seq)
            return .dropped
        }
        if dropped != nil, queuedBytes < limit / 2 {
            // Room again: tell the client what it missed before anything newer. The message takes
            // the next number, so the notice comes before it in `seq` order too.
            nextSeq -= 1
            queueDropNotice()
            let renumbered = nextSeq
            nextSeq += 1
            append(message, seq: renumbered)
            return .queued
        }
        append(message, seq: seq)
        return .queued
    }

    /// Marks the line just queued as a `snapshot` or `views` reply (``heavyReplyBytesUnwritten``).
    func markLastLineHeavy() { heavyReplyEnd = queuedTotal }

    /// Queues the `dropped` notice when there is one to give and the queue is below half `limit`
    /// (a client that resumes reading learns what it missed without waiting for a new message).
    /// Returns whether something was queued.
    func queueDropNoticeIfRoom(limit: Int) -> Bool {
        guard dropped != nil, queuedBytes < limit / 2 else { return false }
        queueDropNotice()
        return true
    }

    /// Prepares the connection's end: discards every line not yet started on the socket (a line
    /// partly written is kept, to be completed: the client never sees half a message) and reports
    /// everything it will not get, with the messages dropped earlier and `lost` (a message that was
    /// numbered and did not fit), in one `dropped` notice. The caller then queues its last words
    /// (``sendFinal(_:)``), flushes and closes. Returns how many messages were newly lost.
    @discardableResult
    func abandonBacklog(lost: UInt64?) -> Int {
        advanceHead()
        var missed: (first: UInt64, last: UInt64)? = lost.map { ($0, $0) }
        var discarded = 0
        if lineHead < lineEnds.count {
            let keep = lineEnds[lineHead].start < writtenTotal ? lineHead + 1 : lineHead
            let keptEnd = keep > lineHead ? lineEnds[lineHead].end : writtenTotal
            let numbered = lineEnds[keep...].lazy.map(\.seq).filter { $0 != 0 }
            if let first = numbered.first, let last = numbered.reversed().first {
                missed = (min(first, missed?.first ?? first), max(last, missed?.last ?? last))
            }
            discarded = numbered.count
            pending.removeLast(queuedTotal - keptEnd)
            queuedTotal = keptEnd
            lineEnds.removeLast(lineEnds.count - keep)
        }
        let newlyLost = discarded + (lost == nil ? 0 : 1)
        guard let range = missed else {
            queueDropNotice()  // drops not yet reported, if any
            return 0
        }
        // The count is exact; the range spans every message missed (as for any notice, a message
        // that did get through may lie inside it when drops and deliveries interleaved).
        if let d = dropped {
            dropped = (d.count + newlyLost, min(d.first, range.first), max(d.last, range.last))
        } else {
            dropped = (newlyLost, range.first, range.last)
        }
        totalDropped += newlyLost
        queueDropNotice()
        return newlyLost
    }

    /// Queues a message past the limit (a goodbye, a last error): it is small and the connection
    /// is ending.
    func sendFinal(_ message: OutboundMessage) {
        let seq = nextSeq
        nextSeq += 1
        append(message, seq: seq)
    }

    private func noteDropped(_ seq: UInt64) {
        if let d = dropped {
            dropped = (d.count + 1, d.first, seq)
        } else {
            dropped = (1, seq, seq)
        }
        totalDropped += 1
    }

    private func queueDropNotice() {
        guard let d = dropped else { return }
        dropped = nil
        let seq = nextSeq
        nextSeq += 1
        append(MessageEncoder.dropped(count: d.count, firstSeq: d.first, lastSeq: d.last), seq: seq)
    }

    private func append(_ message: OutboundMessage, seq: UInt64) {
        let start = queuedTotal
        let before = pending.count
        pending.append(message, seq: seq, framing: framing)
        queuedTotal += pending.count - before
        lineEnds.append((start, queuedTotal, seq))
        peakQueuedBytes = max(peakQueuedBytes, pending.count)
    }

    /// Queues a WebSocket control frame (a pong, a ping, the closing frame) after what is queued,
    /// past the limit (it is at most 127 bytes). Nothing for a line connection.
    func sendControlFrame(_ frame: [UInt8]) {
        guard framing == .webSocketText, !frame.isEmpty else { return }
        let start = queuedTotal
        frame.withUnsafeBytes { pending.append($0) }
        queuedTotal += frame.count
        lineEnds.append((start, queuedTotal, 0))
        peakQueuedBytes = max(peakQueuedBytes, pending.count)
    }

    enum FlushOutcome { case done, wouldBlock, failed }

    /// Writes what the socket takes now, in whole lines, leaving the room kept for last words
    /// unless `final` (the connection is ending: its last lines may use that room).
    func flush(final: Bool = false) -> FlushOutcome {
        while !pending.isEmpty {
            let size = nextSendSize()
            guard final || room.admits(size) else {
                compact()
                return .wouldBlock
            }
            // The error is dropped inside: a throwing closure here made the call allocate.
            let sent = pending.withQueuedBytes { bytes in
                try? SocketIO.send(fd, UnsafeRawBufferPointer(rebasing: bytes.prefix(size)), "client socket")
            }
            switch sent {
            case .done(let n) where n > 0:
                pending.consume(n)
                writtenTotal += n
                room.spend(n)
            case .wouldBlock:
                compact()
                return .wouldBlock
            case .done, nil:
                return .failed
            }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16)
        lineEnds.removeAll(keepingCapacity: lineEnds.capacity <= 1024)
        lineHead = 0
        return .done
    }

    /// The bytes of the next `send`: the rest of a line partly written (at most ``chunkBytes``),
    /// the next ``chunkBytes`` of a line longer than that, or as many whole lines as fit in
    /// ``chunkBytes``.
    private func nextSendSize() -> Int {
        advanceHead()
        guard lineHead < lineEnds.count else { return pending.count }
        let first = lineEnds[lineHead]
        if first.start < writtenTotal || first.end - first.start > Self.chunkBytes {
            return min(first.end - writtenTotal, Self.chunkBytes)
        }
        var end = first.end
        var next = lineHead + 1
        while next < lineEnds.count, lineEnds[next].end - writtenTotal <= Self.chunkBytes {
            end = lineEnds[next].end
            next += 1
        }
        return end - writtenTotal
    }

    private func advanceHead() {
        while lineHead < lineEnds.count, lineEnds[lineHead].end <= writtenTotal { lineHead += 1 }
    }

    private func compact() {
        advanceHead()
        if lineHead > 1024 {
            lineEnds.removeFirst(lineHead)
            lineHead = 0
        }
    }
}

/// How much of a client socket's send buffer touchd lets its lines take: all of it but
/// ``reserve``, so that a client that reads nothing still has room in its socket for its last
/// words. The kernel takes a send of one buffer (``ClientOutbox/chunkBytes``) whole whenever the
/// buffer is not full, and counts each buffer with its overhead (``cost(_:)``).
///
/// The kernel is asked (SIOCOUTQ) only when the room known from its last answer, less what was
/// sent since, would not take the next send: most sends cost no extra call.
struct SocketRoom {
    /// The room kept free for a connection's last words: a `dropped` notice and a `goodbye`.
    static let reserve = 8 * 1024

    /// The most a send of `n` bytes takes of the socket's buffer: its bytes and the kernel's
    /// overhead per buffer (a page and its bookkeeping).
    static func cost(_ n: Int) -> Int { n + 4096 }

    private let fd: Int32
    /// SO_SNDBUF less ``reserve``; `nil` when unknown or too small to keep a reserve (the kernel
    /// alone decides then).
    private let capacity: Int?
    /// The room known to be left: the kernel's last answer less what was sent since.
    private var credit = 0

    init(fd: Int32) {
        self.fd = fd
        let size = SocketIO.sendBufferSize(fd) ?? 0
        capacity = size >= 64 * 1024 ? size - Self.reserve : nil
    }

    /// Whether a send of `n` bytes leaves the reserve free.
    mutating func admits(_ n: Int) -> Bool {
        guard let capacity else { return true }
        let cost = Self.cost(n)
        if credit >= cost { return true }
        guard let unread = SocketIO.unsentBytes(fd) else { return true }
        credit = capacity - unread
        return credit >= cost
    }

    /// Notes a send of `n` bytes.
    mutating func spend(_ n: Int) { credit -= Self.cost(n) }
}
