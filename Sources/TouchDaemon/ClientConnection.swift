import CLinux
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

/// The credentials of a connected peer (SO_PEERCRED).
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
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
    var subscriptions: [Subscription] = []
    var nextSubscriptionID = 1
    private(set) var nextSeq: UInt64 = 1
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var inbound: [UInt8] = []
    /// Dropped messages not yet reported: count and the sequence numbers of the first and last.
    private(set) var dropped: (count: Int, first: UInt64, last: UInt64)?
    private(set) var totalDropped = 0
    var closeReason: String?

    init(fd: Int32, credentials: PeerCredentials?) {
        self.fd = fd
        self.credentials = credentials
    }

    var queuedBytes: Int { pending.count - pendingStart }

    /// Whether any subscription wants `message` (messages without a topic always pass).
    func wants(_ message: OutboundMessage) -> Bool {
        guard message.topic != nil else { return true }
        return subscriptions.contains { $0.matches(message) }
    }

    enum SendOutcome { case queued, dropped, overflow }

    /// Numbers `message` and queues it, within `limits`.
    func send(_ message: OutboundMessage, limits: ClientLimits) -> SendOutcome {
        let seq = nextSeq
        nextSeq += 1
        if queuedBytes >= limits.maximumQueuedBytes {
            if message.droppable {
                if let d = dropped {
                    dropped = (d.count + 1, d.first, seq)
                } else {
                    dropped = (1, seq, seq)
                }
                totalDropped += 1
                return .dropped
            }
            return .overflow
        }
        if let d = dropped, queuedBytes < limits.maximumQueuedBytes / 2 {
            // Room again: tell the client what it missed before anything newer.
            dropped = nil
            let notice = OutboundMessage(
                topic: nil, droppable: false,
                members: [("type", "dropped"), ("count", .int(Int64(d.count))), ("first_seq", .int(Int64(d.first))), ("last_seq", .int(Int64(d.last)))])
            append(notice, seq: seq)
            let renumbered = nextSeq
            nextSeq += 1
            append(message, seq: renumbered)
            return .queued
        }
        append(message, seq: seq)
        return .queued
    }

    private func append(_ message: OutboundMessage, seq: UInt64) {
        if pendingStart > 0 && pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        message.appendLine(seq: seq, to: &pending)
    }

    enum FlushOutcome { case done, wouldBlock, failed }

    /// Writes as much as the socket takes now.
    func flush() -> FlushOutcome {
        while pendingStart < pending.count {
            let n = pending.withUnsafeBytes { buf in
                Glibc.send(fd, buf.baseAddress! + pendingStart, buf.count - pendingStart, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                pendingStart += n
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                compact()
                return .wouldBlock
            }
            if n < 0 && errno == EINTR { continue }
            return .failed
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16)
        pendingStart = 0
        return .done
    }

    private func compact() {
        if pendingStart > 1 << 16 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }

    enum ReadOutcome { case lines([String]), closed, tooLong }

    /// Reads what has arrived and splits it into complete lines.
    func readLines(limits: ClientLimits) -> ReadOutcome {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var gotEOF = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                inbound.append(contentsOf: buffer[0..<n])
                if inbound.count > limits.maximumLineLength && !inbound.contains(10) { return .tooLong }
                continue
            }
            if n == 0 { gotEOF = true }
            else if errno == EINTR { continue }
            else if errno != EAGAIN && errno != EWOULDBLOCK { gotEOF = true }
            break
        }
        var lines: [String] = []
        var start = 0
        for i in inbound.indices where inbound[i] == 10 {
            if i - start > limits.maximumLineLength { return .tooLong }
            lines.append(String(decoding: inbound[start..<i], as: UTF8.self))
            start = i + 1
        }
        inbound.removeFirst(start)
        if inbound.count > limits.maximumLineLength { return .tooLong }
        if gotEOF && lines.isEmpty { return .closed }
        if gotEOF { closeReason = "peer closed" }
        return .lines(lines)
    }
}
