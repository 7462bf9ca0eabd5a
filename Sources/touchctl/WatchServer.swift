import TouchCore
import TouchProtocol
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The watch page's web server, on `touchctl watch`'s event loop: the page, the layout's pictures
/// (`/layout`) and touchd's messages as Server-Sent Events (`/events`, the recent ones first).
///
/// It never waits for a browser: every socket is non-blocking, at most ``maximumClients`` are
/// served, and one that leaves more than ``maximumQueuedBytes`` unread is let go (a page reconnects
/// by itself and gets the recent messages again). touchd is a separate process that this one reads
/// as fast as it can, whatever the browsers do.
final class WatchServer {
    /// The most browser connections served at once.
    static let maximumClients = 32
    /// The most bytes waiting for one browser before it is let go.
    static let maximumQueuedBytes = 16 << 20
    /// The most recent messages a page that connects is sent first.
    static let historyLimit = 5_000

    private final class Client {
        let fd: Int32
        var head: [UInt8] = []
        var outgoing: [UInt8] = []
        var isStream = false
        var closesWhenWritten = false
        var watchingWrites = false
        init(fd: Int32) { self.fd = fd }
    }

    let loop: EventLoop
    let listenFD: Int32
    /// The `Host` headers accepted (nil: any, when listening on every address).
    private let hosts: Set<String>?
    private var clients: [Int32: Client] = [:]
    /// The `/layout` body: `{"windows":[{"id":..,"svg":..}|{"id":..,"error":..}]}`.
    var layout: [UInt8] = Array(#"{"windows":[]}"#.utf8)
    /// The recent messages, as touchd sent them (JSON lines).
    private var history: [[UInt8]] = []

    /// Listens on `address` (the caller has made the socket).
    init(loop: EventLoop, listenFD: Int32, address: InternetSocketAddress, port: UInt16) throws {
        self.loop = loop
        self.listenFD = listenFD
        let any = address.host == "0.0.0.0" || address.host == "::"
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        var names: Set<String> = ["\(host):\(port)"]
        if address.host == "127.0.0.1" || address.host == "::1" { names.insert("localhost:\(port)") }
        hosts = any ? nil : names
        try loop.register(listenFD, for: .readable) { [unowned self] _ in self.acceptClients() }
    }

    /// Closes every connection and the listening socket.
    func close() {
        for client in clients.values { drop(client) }
        loop.unregister(listenFD)
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

    private func acceptClients() {
        for _ in 0..<16 {
            let accepted: Int32?
            do {
                accepted = try InternetSocketAddress.accept(listenFD)
            } catch {
                printError("touchctl watch: \(error)")
                return
            }
            guard let fd = accepted else { return }
            guard clients.count < Self.maximumClients else {
                Descriptor.close(fd)
                continue
            }
            let client = Client(fd: fd)
            do {
                try loop.register(fd, for: .readable) { [unowned self] readiness in self.ready(client, readiness) }
            } catch {
                Descriptor.close(fd)
                continue
            }
            clients[fd] = client
        }
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
                outcome = try SystemCall.posix("recv", "a browser") { chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) } }
            } catch {
                return drop(client)
            }
            guard case .done(let n) = outcome else { return }
            guard n > 0 else { return drop(client) }
            // A stream's browser sends nothing more; a request's head is all that is read.
            guard !client.isStream, !client.closesWhenWritten else { continue }
            client.head += chunk[0..<n]
            respond(to: client)
        }
    }

    private func respond(to client: Client) {
        switch WatchHTTP.parse(client.head) {
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
        if let hosts, !hosts.contains(request.host ?? "") {
            // A page of another site that reached this port through a name it resolves here.
            return finish(client, WatchHTTP.response(status: "421 Misdirected Request", type: text, body: Array("unexpected Host\n".utf8)))
        }
        let head = request.method == "HEAD"
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
                outcome = try SystemCall.posix("send", "a browser") {
                    client.outgoing.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(truncatingIfNeeded: MSG_NOSIGNAL)) }
                }
            } catch {
                return drop(client)
            }
            guard case .done(let n) = outcome, n > 0 else { break }
            client.outgoing.removeFirst(n)
        }
        if client.outgoing.isEmpty && client.closesWhenWritten { return drop(client) }
        let wanted = !client.outgoing.isEmpty
        guard wanted != client.watchingWrites, clients[client.fd] === client else { return }
        client.watchingWrites = wanted
        loop.modify(client.fd, for: wanted ? [.readable, .writable] : .readable)
    }

    private func drop(_ client: Client) {
        guard clients[client.fd] === client else { return }
        clients[client.fd] = nil
        loop.unregister(client.fd)
        Descriptor.close(client.fd)
    }
}
