import CLinux
import TouchSystem
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Limits that protect the daemon from its clients.
public struct ClientLimits: Hashable, Sendable {
    /// Bytes a client may have waiting unwritten before droppable messages are dropped for it.
    public var maximumQueuedBytes: Int
    /// The longest request line accepted; a longer one is an error and a disconnect.
    public var maximumLineLength: Int

    public init(maximumQueuedBytes: Int = 256 * 1024, maximumLineLength: Int = 64 * 1024) {
        self.maximumQueuedBytes = maximumQueuedBytes
        self.maximumLineLength = maximumLineLength
    }
}

/// The credentials of a connected peer: SO_PEERCRED's process, user and primary group, and
/// SO_PEERGROUPS's supplementary groups (empty on kernels before 4.13), as they were at `connect`.
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var supplementaryGIDs: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, supplementaryGIDs: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.supplementaryGIDs = supplementaryGIDs
    }

    /// Reads a connected socket's peer credentials; `nil` when the kernel gives none.
    static func of(socket fd: Int32) -> PeerCredentials? {
        var cred = touchd_ucred()
        guard (try? SystemCall.require("getsockopt(SO_PEERCRED)", "client socket") { touchd_peer_credentials(fd, &cred) }) != nil else { return nil }
        var groups = [UInt32](repeating: 0, count: 64)
        func readGroups() -> Int {
            let capacity = Int32(clamping: groups.count)
            // A kernel before 4.13 has no SO_PEERGROUPS: then only the primary group is known.
            return (try? SystemCall.require("getsockopt(SO_PEERGROUPS)", "client socket") { touchd_peer_groups(fd, &groups, capacity) }) ?? 0
        }
        var n = readGroups()
        if n > groups.count {
            groups = [UInt32](repeating: 0, count: n)
            n = readGroups()
        }
        let supplementary = Array(groups.prefix(min(n, groups.count)))
        return PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, supplementaryGIDs: supplementary)
    }
}

/// One connected client: its subscriptions, its numbering, and a bounded queue of unwritten bytes.
///
/// Writing never blocks: what the socket does not take now waits in the queue and goes out when
/// the socket is writable. When the queue is over its limit, droppable messages (touch moves) are
/// dropped and counted, and the client is later told how many and which sequence numbers; a message
/// that may not be dropped (a hit, an action, a reply) closes the connection with a reason instead.
final class ClientConnection {
    let fd: Int32
    let credentials: PeerCredentials?
    var subscriptions: [Subscription] = [] { didSet { interest = SubscriptionSet(subscriptions) } }
    /// ``subscriptions`` as every message is checked against them.
    private var interest = SubscriptionSet()
    var nextSubscriptionID = 1
    private(set) var nextSeq: UInt64 = 1
    /// Queued bytes not yet taken by the socket.
    private let pending = ByteQueue()
    /// Bytes ever written to the socket and ever queued: positions in the stream, independent of
    /// compaction, so queued lines can be told apart from the part already sent.
    private var writtenTotal = 0
    private var queuedTotal = 0
    /// Each queued line's start and end (stream positions) and sequence number, oldest first, from
    /// `lineHead` on: a forced disconnect needs to know which lines never left.
    private var lineEnds: [(start: Int, end: Int, seq: UInt64)] = []
    private var lineHead = 0
    /// The request bytes received, split into lines.
    private var inbound: LineSplitter
    /// Dropped messages not yet reported: count and the sequence numbers of the first and last.
    private(set) var dropped: (count: Int, first: UInt64, last: UInt64)?
    private(set) var totalDropped = 0
    /// Whether the server holds queued bytes back for this client until its batch ends.
    var awaitsFlush = false

    /// Bytes kept free below the limit for the `dropped` notice and a `goodbye`: droppable messages
    /// are dropped once the queue reaches the limit less this, so the notice always has room.
    static let noticeReserve = 512

    init(fd: Int32, credentials: PeerCredentials?, maximumLineLength: Int) {
        self.fd = fd
        self.credentials = credentials
        inbound = LineSplitter(maximumLineLength: maximumLineLength)
    }

    var queuedBytes: Int { pending.count }

    /// Whether any subscription wants `message` (messages without a topic always pass).
    func wants(_ message: OutboundMessage) -> Bool { interest.wants(message) }

    enum SendOutcome { case queued, dropped, overflow }

    /// Numbers `message` and queues it, within `limits`.
    ///
    /// A droppable message is dropped (and counted) when the queue is within ``noticeReserve`` of
    /// the limit; one that may not be dropped overflows only at the limit itself. A pending drop
    /// notice goes out first as soon as the queue is below half the limit.
    func send(_ message: OutboundMessage, limits: ClientLimits) -> SendOutcome {
        let seq = nextSeq
        nextSeq += 1
        let droppableLimit = max(limits.maximumQueuedBytes - Self.noticeReserve, limits.maximumQueuedBytes / 2)
        if queuedBytes >= (message.droppable ? droppableLimit : limits.maximumQueuedBytes) {
            if message.droppable {
                noteDropped(seq...seq)
                return .dropped
            }
            return .overflow
        }
        if dropped != nil, queuedBytes < limits.maximumQueuedBytes / 2 {
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

    /// Queues the `dropped` notice when there is one to give and the queue is below half the limit
    /// (a client that resumes reading learns what it missed without waiting for a new message).
    /// Returns whether something was queued.
    func queueDropNoticeIfRoom(limits: ClientLimits) -> Bool {
        guard dropped != nil, queuedBytes < limits.maximumQueuedBytes / 2 else { return false }
        queueDropNotice()
        return true
    }

    /// Ends the connection after ``send(_:limits:)`` answered `.overflow` for the last message:
    /// discards every line not yet started on the socket (a line partly written is completed, so
    /// the client never sees half a message), reports everything it will not get in one `dropped`
    /// notice, then queues a `goodbye` with `reason`. The caller flushes and closes. Returns how
    /// many messages were newly lost (the backlog and the message that did not fit).
    @discardableResult
    func abandonBacklog(reason: String) -> Int {
        // ``send(_:limits:)`` numbered the message that overflowed before refusing it.
        let overflowSeq = nextSeq - 1
        while lineHead < lineEnds.count, lineEnds[lineHead].end <= writtenTotal { lineHead += 1 }
        var firstMissed = overflowSeq
        var discarded = 0
        if lineHead < lineEnds.count {
            // The line in progress (if any) is kept whole; everything after it goes.
            var keep = lineHead
            if lineEnds[lineHead].start < writtenTotal { keep += 1 }
            let keptEnd = keep > lineHead ? lineEnds[lineHead].end : writtenTotal
            if keep < lineEnds.count { firstMissed = lineEnds[keep].seq }
            discarded = lineEnds.count - keep
            pending.removeLast(queuedTotal - keptEnd)
            queuedTotal = keptEnd
            lineEnds.removeLast(lineEnds.count - keep)
        }
        let alreadyCounted = dropped?.count ?? 0
        if let d = dropped { firstMissed = min(firstMissed, d.first) }
        // The count is exact; the range spans every message missed (as for any notice, a message
        // that did get through may lie inside it when drops and deliveries interleaved).
        let count = alreadyCounted + discarded + 1
        totalDropped += count - alreadyCounted
        dropped = (count, firstMissed, overflowSeq)
        queueDropNotice()
        sendFinal(MessageEncoder.goodbye(reason: reason))
        return count - alreadyCounted
    }

    /// Queues a message past the limit (a goodbye): it is small and the connection is ending.
    func sendFinal(_ message: OutboundMessage) {
        let seq = nextSeq
        nextSeq += 1
        append(message, seq: seq)
    }

    private func noteDropped(_ seqs: ClosedRange<UInt64>) {
        let n = Int(seqs.upperBound - seqs.lowerBound + 1)
        if let d = dropped {
            dropped = (d.count + n, d.first, seqs.upperBound)
        } else {
            dropped = (n, seqs.lowerBound, seqs.upperBound)
        }
        totalDropped += n
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
        pending.appendLine(message, seq: seq)
        queuedTotal += pending.count - before
        lineEnds.append((start, queuedTotal, seq))
    }

    enum FlushOutcome { case done, wouldBlock, failed }

    /// Writes as much as the socket takes now.
    func flush() -> FlushOutcome {
        while !pending.isEmpty {
            let sent = try? pending.withQueuedBytes { bytes throws(SystemError) in
                try SystemCall.posix("send", "client socket") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            }
            switch sent {
            case .done(let n) where n > 0:
                pending.consume(n)
                writtenTotal += n
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

    private func compact() {
        while lineHead < lineEnds.count, lineEnds[lineHead].end <= writtenTotal { lineHead += 1 }
        if lineHead > 1024 {
            lineEnds.removeFirst(lineHead)
            lineHead = 0
        }
    }

    /// What one read gave: the complete request lines, in order, and whether the connection ends
    /// after them (the peer closed it, or sent a line longer than the limit).
    struct ReadOutcome {
        var lines: [[UInt8]] = []
        var end: End?
        enum End { case closed, lineTooLong }
    }

    /// The most bytes read from one client per wakeup: the loop is level-triggered, so the rest
    /// is read at the next one, and a client that never stops writing cannot hold the loop.
    static let maximumBytesPerRead = 256 * 1024

    /// Reads what has arrived (up to ``maximumBytesPerRead``) and splits it into complete lines.
    func readLines() -> ReadOutcome {
        var outcome = ReadOutcome()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < Self.maximumBytesPerRead {
            let received = try? chunk.withUnsafeMutableBytes { bytes throws(SystemError) in
                try SystemCall.posix("recv", "client socket") { recv(fd, bytes.baseAddress, bytes.count, 0) }
            }
            // Nothing more now; or the peer closed (0), or the connection failed.
            guard case .done(let n) = received, n > 0 else {
                if received != .wouldBlock { outcome.end = .closed }
                break
            }
            total += n
            inbound.append(chunk[0..<n])
            do {
                while let line = try inbound.nextLine() { outcome.lines.append(line) }
            } catch {
                outcome.end = .lineTooLong
                return outcome
            }
        }
        return outcome
    }
}
