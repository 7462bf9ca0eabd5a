import TouchCore
import TouchSystem
import TouchProtocol

/// One connected client: who it is and its role, its subscriptions, the request bytes it sent
/// and not yet served, and its ``ClientOutbox`` of lines not yet written.
///
/// A client of the Unix socket sends request lines and receives lines; a WebSocket client
/// (``ClientTransport/webSocket``) sends each request in a text message and receives each message
/// in a text frame, and its pings are answered here as its frames are read.
final class ClientConnection {
    let fd: Int32
    /// Tells this connection from a later one on the same descriptor number.
    let serial: UInt64
    let credentials: PeerCredentials?
    let role: ClientRole
    let transport: ClientTransport
    var subscriptions: [Subscription] = [] { didSet { interest = SubscriptionSet(subscriptions) } }
    /// ``subscriptions`` as every message is checked against them.
    private var interest = SubscriptionSet()
    var nextSubscriptionID = 1
    let outbox: ClientOutbox
    /// The request bytes received, split into lines (the Unix socket) or read as WebSocket frames
    /// (exactly one of the two is set).
    private var lines: LineSplitter?
    private var frames: WebSocketFrameDecoder?
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
    /// When the client last made a request, or connected.
    var lastActivity = LoopInstant.origin
    /// When the client last sent anything at all (a WebSocket client's pong counts): the keepalive
    /// pings a WebSocket client that has been quiet.
    var lastHeard = LoopInstant.origin
    /// When touchd pinged the (quiet) WebSocket client and has heard nothing since.
    var pingSent: LoopInstant?

    enum InputEnd {
        /// The peer closed its side (for a WebSocket, with a close frame or without).
        case closed
        case lineTooLong
        /// The WebSocket client broke the protocol or a bound: closed with the failure's code.
        case webSocketFailure(WebSocketFailure)
    }

    init(fd: Int32, serial: UInt64, credentials: PeerCredentials?, role: ClientRole, transport: ClientTransport = .unixSocket, maximumLineLength: Int) {
        self.fd = fd
        self.serial = serial
        self.credentials = credentials
        self.role = role
        self.transport = transport
        switch transport {
        case .unixSocket:
            outbox = ClientOutbox(fd: fd)
            lines = LineSplitter(maximumLineLength: maximumLineLength)
        case .webSocket:
            outbox = ClientOutbox(fd: fd, framing: .webSocketText)
            frames = WebSocketFrameDecoder(maximumMessageLength: maximumLineLength)
        }
    }

    /// Who the connection counts as in the per-user quota of read-only connections: its user, or
    /// the WebSocket token it presented (one token stands for one user).
    var quotaKey: String { Self.quotaKey(credentials: credentials, transport: transport) }

    static func quotaKey(credentials: PeerCredentials?, transport: ClientTransport) -> String {
        switch transport {
        case .unixSocket: credentials.map { "user \($0.uid)" } ?? "peers without credentials"
        case .webSocket(let index): "WebSocket token \(index + 1)"
        }
    }

    /// Whether the connection speaks WebSocket.
    var isWebSocket: Bool { if case .webSocket = transport { true } else { false } }

    /// Takes bytes that arrived with the WebSocket handshake (a client may send its first frames
    /// at once).
    func receive(_ bytes: [UInt8]) { append(bytes[...]) }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lines?.append(bytes)
        frames?.append(bytes)
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
        guard lines != nil else { return nextMessage() }
        do {
            if let line = try lines?.nextLine() { return line }
            // The client closed its side: a last request without its newline is served too, as
            // the line it would be with one.
            guard case .closed = inputEnd else { return nil }
            return lines?.finalLine()
        } catch {
            inputEnd = .lineTooLong
            return nil
        }
    }

    /// The next text message of a WebSocket client, as a request line; answers its pings on the way.
    private func nextMessage() -> [UInt8]? {
        while inputEnd == nil {
            do {
                switch try frames?.next() {
                case nil: return nil
                case .text(let message): return message
                case .ping(let payload): outbox.sendControlFrame(WebSocketFrameEncoder.pong(payload))
                case .pong: pingSent = nil
                case .close: inputEnd = .closed
                }
            } catch {
                inputEnd = .webSocketFailure(error)
            }
        }
        return nil
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
                try SocketIO.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes.prefix(want)), "client socket")
            }
            // Nothing more now (would block); or the peer closed (0), or the connection failed.
            guard case .done(let n) = received, n > 0 else {
                if received != .wouldBlock { inputEnd = .closed }
                break
            }
            total += n
            append(chunk[0..<n])
        }
    }
}

/// How a client reached the daemon.
enum ClientTransport {
    /// The Unix socket: lines.
    case unixSocket
    /// The WebSocket listener: text frames; the client presented the token at this place among
    /// the tokens file's tokens, from 0 (one token stands for one user in the per-user quota).
    case webSocket(tokenIndex: Int)
}
