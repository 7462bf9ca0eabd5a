import TouchCore
import TouchProtocol
import TouchSystem

/// The watch page's web server, on `touchctl watch`'s event loop: the page, the layout's pictures
/// (`/layout`) and touchd's messages as Server-Sent Events (`/events`, the recent ones first).
///
/// What touchd says is for whoever has the token: `/layout` and `/events` answer
/// `401 Unauthorized` to a request without it (the page and its script, which hold nothing, do
/// not need it). The page takes the token from the address `touchctl watch` printed
/// (`#token=…`: a fragment, which browsers never send) and keeps it in a cookie of this port
/// (``cookieName``, `SameSite=Strict`), so it is in no request line, history or log; a program
/// may send `Authorization: Bearer TOKEN` instead. Every request's `Host` must name this server (its
/// address, `localhost` for a loopback address, an IP address when it listens on every address,
/// or a name given with `--host`), so a page of another site that reaches the port through a
/// name it resolves here (DNS rebinding) gets nothing.
///
/// It never waits for a browser: every socket is non-blocking, at most ``maximumClients`` are
/// served, a connection that has not sent its request's head within ``headTimeout`` or has read
/// nothing of what waits for it for ``idleTimeout`` is closed, and one that leaves more than
/// ``maximumQueuedBytes`` unread is let go (a page reconnects by itself and gets the recent
/// messages again). touchd is a separate process that this one reads as fast as it can, whatever
/// the browsers do.
final class WatchServer {
    /// The most browser connections served at once.
    static let maximumClients = 32
    /// The most bytes waiting for one browser before it is let go.
    static let maximumQueuedBytes = 16 << 20
    /// The most recent messages a page that connects is sent first.
    static let historyLimit = 5_000
    /// Seconds a connection has to send its request's head.
    static let headTimeout: TimeSpan = 10
    /// Seconds a connection may leave bytes waiting without reading any.
    static let idleTimeout: TimeSpan = 30
    /// Seconds between two comments on an event stream that has nothing to say: a browser that
    /// went away is noticed, and one that stopped reading is let go after ``idleTimeout``.
    static let keepAliveInterval: TimeSpan = 15

    private final class Client {
        let fd: Int32
        var head: [UInt8] = []
        var outgoing: [UInt8] = []
        var isStream = false
        var closesWhenWritten = false
        var watchingWrites = false
        /// When it connected, and when it last read or was sent something (on the loop's clock).
        let connected: LoopInstant
        var lastProgress: LoopInstant
        init(fd: Int32, now: LoopInstant) {
            self.fd = fd
            connected = now
            lastProgress = now
        }
    }

    let loop: EventLoop
    let listenFD: Int32
    /// The `Host` headers accepted by name; with ``acceptsAddresses``, any IP address too.
    private let hosts: Set<String>
    /// Whether a `Host` that is an IP address (with this port) is accepted: when listening on every
    /// address, where the browser may use any of the machine's.
    private let acceptsAddresses: Bool
    private let port: UInt16
    /// What `/layout` and `/events` require.
    private let token: [UInt8]
    /// The cookie the page keeps the token in: one for each port.
    let cookieName: String
    /// Closes connections past their head or idle timeout, and keeps streams alive.
    private var sweepTimer: TimerHandle?
    /// Takes the connections of the listening socket.
    private var acceptor: ConnectionAcceptor?
    /// Seconds accepting pauses for when out of descriptors (as the daemon's default).
    static let acceptBackoff: TimeSpan = 1
    private var clients: [Int32: Client] = [:]
    /// The `/layout` body: `{"windows":[{"id":..,"svg":..}|{"id":..,"error":..}]}`.
    var layout: [UInt8] = WatchLayout.document([])
    /// The recent messages, as touchd sent them (JSON lines).
    private var history: [[UInt8]] = []

    /// Listens on `address` (the caller has made the socket) for requests with `token`; `names`
    /// are further host names the `Host` header may give (`--host`).
    init(loop: EventLoop, listenFD: Int32, address: InternetSocketAddress, port: UInt16, token: String, names: [String] = []) throws {
        self.loop = loop
        self.listenFD = listenFD
        self.port = port
        self.token = Array(token.utf8)
        cookieName = "touchctl_watch_\(port)"
        acceptsAddresses = address.host == "0.0.0.0" || address.host == "::"
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        var accepted: Set<String> = ["\(host):\(port)"]
        if address.host == "127.0.0.1" || address.host == "::1" || acceptsAddresses { accepted.insert("localhost:\(port)") }
        for name in names { accepted.insert("\(name.lowercased()):\(port)") }
        hosts = accepted
        sweepTimer = loop.timer { [unowned self] in self.sweep() }
        acceptor = try ConnectionAcceptor(
            listening: listenFD, subject: "the watch page's socket", loop: loop, backoff: Self.acceptBackoff,
            paused: { error in
                printError("touchctl watch: " + (error.map { "\($0)" } ?? "out of descriptors") + ": accepting again in a second")
            },
            accepted: { [unowned self] fd in self.take(fd) })
    }

    /// Whether a request's `Host` names this server.
    func acceptsHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        if hosts.contains(host) { return true }
        guard acceptsAddresses, host.hasSuffix(":\(port)") else { return false }
        let name = String(host.dropLast(":\(port)".utf8.count))
        if name.hasPrefix("[") && name.hasSuffix("]") { return (try? InternetSocketAddress(parsing: "\(name):\(port)")) != nil }
        return name.split(separator: ".", omittingEmptySubsequences: false).count == 4 && (try? InternetSocketAddress(parsing: host)) != nil
    }

    /// Whether `given` is the token, compared in a time that does not depend on where they differ.
    func isToken(_ given: String?) -> Bool {
        guard let given else { return false }
        let bytes = Array(given.utf8)
        guard bytes.count == token.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(bytes, token) { difference |= a ^ b }
        return difference == 0
    }

    /// Closes every connection and the listening socket.
    func close() {
        sweepTimer?.cancel()
        for client in clients.values { drop(client) }
        acceptor?.stop()
        Descriptor.close(listenFD)
    }

    // MARK: - What the pages are told

    /// A message from touchd: kept for later pages, and sent to every open stream.
    func message(_ line: [UInt8]) {
        history.append(line)
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        broadcast(WatchHTTP.event(nil, data: line))
    }

    /// The layout changed (a reload): pages load it again; the old messages are forgotten.
    func layoutChanged() {
        history = []
        broadcast(WatchHTTP.event("layout", data: Array("reload".utf8)))
    }

    private func broadcast(_ bytes: [UInt8]) {
        for client in clients.values where client.isStream { queue(bytes, to: client) }
    }

    // MARK: - Connections

    /// Serves an accepted connection, or closes it when every place is taken.
    private func take(_ fd: Int32) {
        guard clients.count < Self.maximumClients else {
            Descriptor.close(fd)
            return
        }
        let client = Client(fd: fd, now: loop.clock.now)
        if sweepTimer?.isScheduled == false { sweepTimer?.schedule(after: 1) }
        do {
            try loop.register(fd, for: .readable) { [unowned self] readiness in self.ready(client, readiness) }
        } catch {
            Descriptor.close(fd)
            return
        }
        clients[fd] = client
    }

    private func ready(_ client: Client, _ readiness: EventLoop.Readiness) {
        if readiness.contains(.writable) { flush(client) }
        if readiness.contains(.readable) || readiness.contains(.hangup) { read(client) }
    }

    private func read(_ client: Client) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while clients[client.fd] === client {
            let outcome: SystemCall.Outcome
            do {
                outcome = try chunk.withUnsafeMutableBytes { buffer throws(SystemError) in try SocketIO.receive(client.fd, into: buffer, "a browser") }
            } catch {
                return drop(client)
            }
            guard case .done(let n) = outcome else { return }
            guard n > 0 else { return drop(client) }
            client.lastProgress = loop.clock.now
            // A stream's browser sends nothing more; a request's head is all that is read.
            guard !client.isStream, !client.closesWhenWritten else { continue }
            client.head += chunk[0..<n]
            respond(to: client)
        }
    }

    private func respond(to client: Client) {
        switch WatchHTTP.parse(client.head, cookie: cookieName) {
        case .incomplete: return
        case .bad(let status): finish(client, WatchHTTP.response(status: status, type: "text/plain; charset=utf-8", body: Array(status.utf8)))
        case .request(let request): serve(request, to: client)
        }
    }

    private func serve(_ request: WatchHTTP.Request, to client: Client) {
        let text = "text/plain; charset=utf-8"
        guard request.method == "GET" || request.method == "HEAD" else {
            return finish(client, WatchHTTP.response(status: "405 Method Not Allowed", type: text, body: Array("only GET\n".utf8)))
        }
        guard acceptsHost(request.host) else {
            // A page of another site that reached this port through a name it resolves here.
            return finish(client, WatchHTTP.response(status: "421 Misdirected Request", type: text, body: Array("unexpected Host\n".utf8)))
        }
        let head = request.method == "HEAD"
        if request.path == "/layout" || request.path == "/events", !isToken(request.token) {
            let body = "the token is missing or wrong: open the address touchctl watch printed (with its #token=)\n"
            return finish(client, WatchHTTP.response(status: "401 Unauthorized", type: text, body: Array(body.utf8), headOnly: head))
        }
        switch request.path {
        case "/", "/index.html":
            finish(client, WatchHTTP.response(status: "200 OK", type: "text/html; charset=utf-8", body: Array(WatchPage.html.utf8), headOnly: head))
        case "/watch.js":
            finish(client, WatchHTTP.response(status: "200 OK", type: "text/javascript; charset=utf-8", body: Array(WatchPage.script.utf8), headOnly: head))
        case "/layout":
            finish(client, WatchHTTP.response(status: "200 OK", type: "application/json", body: layout, headOnly: head))
        case "/events" where !head:
            client.isStream = true
            queue(WatchHTTP.streamHead + history.flatMap { WatchHTTP.event(nil, data: $0) }, to: client)
        default:
            finish(client, WatchHTTP.response(status: "404 Not Found", type: text, body: Array("not found\n".utf8)))
        }
    }

    /// Sends a whole response, then closes the connection.
    private func finish(_ client: Client, _ bytes: [UInt8]) {
        client.closesWhenWritten = true
        queue(bytes, to: client)
    }

    private func queue(_ bytes: [UInt8], to client: Client) {
        guard client.outgoing.count + bytes.count <= Self.maximumQueuedBytes else { return drop(client) }
        client.outgoing += bytes
        flush(client)
    }

    /// Writes what the socket takes now, and watches for writability while bytes wait.
    private func flush(_ client: Client) {
        while !client.outgoing.isEmpty {
            let outcome: SystemCall.Outcome
            do {
                outcome = try client.outgoing.withUnsafeBytes { bytes throws(SystemError) in try SocketIO.send(client.fd, bytes, "a browser") }
            } catch {
                return drop(client)
            }
            guard case .done(let n) = outcome, n > 0 else { break }
            client.outgoing.removeFirst(n)
            client.lastProgress = loop.clock.now
        }
        if client.outgoing.isEmpty && client.closesWhenWritten { return drop(client) }
        let wanted = !client.outgoing.isEmpty
        guard wanted != client.watchingWrites, clients[client.fd] === client else { return }
        client.watchingWrites = wanted
        loop.modify(client.fd, for: wanted ? [.readable, .writable] : .readable)
    }

    /// Once a second while browsers are connected: a connection without its request's head after
    /// ``headTimeout``, or with bytes waiting and none read for ``idleTimeout``, is closed; a quiet
    /// stream gets a comment every ``keepAliveInterval``.
    private func sweep() {
        let now = loop.clock.now
        for client in Array(clients.values) {
            let waiting = !client.isStream && !client.closesWhenWritten
            if waiting && now.span(since: client.connected) >= Self.headTimeout {
                drop(client)
            } else if !client.outgoing.isEmpty && now.span(since: client.lastProgress) >= Self.idleTimeout {
                drop(client)
            } else if client.isStream && client.outgoing.isEmpty && now.span(since: client.lastProgress) >= Self.keepAliveInterval {
                queue(Array(": keep-alive\n\n".utf8), to: client)
            }
        }
        if !clients.isEmpty { sweepTimer?.schedule(after: 1) }
    }

    private func drop(_ client: Client) {
        guard clients[client.fd] === client else { return }
        clients[client.fd] = nil
        loop.unregister(client.fd)
        Descriptor.close(client.fd)
    }
}
