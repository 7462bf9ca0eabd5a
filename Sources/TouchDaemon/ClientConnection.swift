import TouchSystem
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One connected client: who it is and its role, its subscriptions, the request bytes it sent
/// and not yet served, and its ``ClientOutbox`` of lines not yet written.
final class ClientConnection {
    let fd: Int32
    /// Tells this connection from a later one on the same descriptor number.
    let serial: UInt64
    let credentials: PeerCredentials?
    let role: ClientRole
    var subscriptions: [Subscription] = [] { didSet { interest = SubscriptionSet(subscriptions) } }
    /// ``subscriptions`` as every message is checked against them.
    private var interest = SubscriptionSet()
    var nextSubscriptionID = 1
    let outbox: ClientOutbox
    /// The request bytes received, split into lines.
    private var inbound: LineSplitter
    /// The next complete request line, split off and not yet served.
    private var heldLine: [UInt8]?
    /// Why no more request bytes will come, once known: served after the lines before it.
    private(set) var inputEnd: InputEnd?
    /// Whether the server holds queued bytes back for this client until its batch ends.
    var awaitsFlush = false
    /// Whether the client is in the server's list of clients with requests to serve.
    var isScheduled = false
    /// What the loop watches the descriptor for.
    var watching: EventLoop.Readiness = .readable
    /// When the client last made a request, or connected (seconds on the loop's clock).
    var lastActivity = 0.0

    enum InputEnd { case closed, lineTooLong }

    init(fd: Int32, serial: UInt64, credentials: PeerCredentials?, role: ClientRole, maximumLineLength: Int) {
        self.fd = fd
        self.serial = serial
        self.credentials = credentials
        self.role = role
        outbox = ClientOutbox(fd: fd)
        inbound = LineSplitter(maximumLineLength: maximumLineLength)
    }

    var queuedBytes: Int { outbox.queuedBytes }

    /// Whether any subscription wants `message` (messages without a topic always pass).
    func wants(_ message: OutboundMessage) -> Bool { interest.wants(message) }

    /// Whether a complete request line waits to be served.
    var hasLineWaiting: Bool {
        if heldLine == nil { heldLine = splitLine() }
        return heldLine != nil
    }

    /// The next complete request line, or `nil` when the bytes so far end inside one (or the input
    /// ended: ``inputEnd``).
    func nextLine() -> [UInt8]? {
        if let line = heldLine {
            heldLine = nil
            return line
        }
        return splitLine()
    }

    /// Puts `line` back: it is served first at the client's next turn.
    func hold(_ line: [UInt8]) { heldLine = line }

    private func splitLine() -> [UInt8]? {
        do {
            return try inbound.nextLine()
        } catch {
            inputEnd = .lineTooLong
            return nil
        }
    }

    /// Reads what has arrived, at most `maximumBytes`: the loop is level-triggered, so the rest is
    /// read at a later turn, and a client that never stops writing cannot hold the loop. Notes the
    /// end of the input when the peer closed its side or the socket failed.
    func read(maximumBytes: Int) {
        var chunk = [UInt8](repeating: 0, count: min(16 * 1024, maximumBytes))
        var total = 0
        while total < maximumBytes, inputEnd == nil {
            let want = min(chunk.count, maximumBytes - total)
            let received = try? chunk.withUnsafeMutableBytes { bytes throws(SystemError) in
                try SystemCall.posix("recv", "client socket") { recv(fd, bytes.baseAddress, want, 0) }
            }
            // Nothing more now (would block); or the peer closed (0), or the connection failed.
            guard case .done(let n) = received, n > 0 else {
                if received != .wouldBlock { inputEnd = .closed }
                break
            }
            total += n
            inbound.append(chunk[0..<n])
        }
    }
}
