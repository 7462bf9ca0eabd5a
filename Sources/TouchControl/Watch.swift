import ArgumentParser
import TouchCore
import TouchProtocol
import TouchSystem

/// `touchctl watch`: a web page of the running layout with its live touches.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a web page showing the running layout and its live touches: paths, hits and actions.",
        discussion: """
            For an installer's laptop (over an SSH tunnel) or the kiosk's own browser: each window as \
            `touchd render` draws it, and on it every touch as it happens, its path and touch-down in \
            the colour of the view that received it, with the actions beside. The page follows \
            touchd's messages (hits, touches, actions, devices) as Server-Sent Events, the recent \
            ones first, and loads the layout again after a reload. It needs the read-only role only, \
            fetches nothing from elsewhere, and binds only where --listen says (an IP address and \
            port; port 0 picks a free one, and the line printed at start says which). What touchd \
            says is served only with a token: a new random one each start, printed in the page's \
            address (after #token=, which the browser never sends), or the one in --token-file. \
            Every request must name this server in its Host header (DNS rebinding gets nothing).
            """)
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: ArgumentHelp("Where to serve the page: an IP address and a port.", valueName: "HOST:PORT"))
    var listen = "127.0.0.1:8080"
    @Flag(
        name: .long, inversion: .prefixedNo,
        help: "When touchd goes away (a restart), keep serving, connect again with growing waits and subscribe again (the default); with --no-reconnect, exit with status 1 instead.")
    var reconnect = true
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A file whose first line is the token the page needs (16 to 256 letters, digits, '-', '_', '.', '~'), instead of a new random one.",
            valueName: "FILE"), completion: .file())
    var tokenFile: String?
    @Option(name: .customLong("host"), help: ArgumentHelp("A further name browsers may reach the page by (its Host header); repeatable.", valueName: "NAME"))
    var hosts: [String] = []

    func validate() throws {
        do {
            _ = try InternetSocketAddress(parsing: listen)
        } catch {
            throw ValidationError("--listen \(listen): expected HOST:PORT with an IP address (127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080 for every address)")
        }
        for name in hosts where name.isEmpty || name.utf8.count > 253 || !name.utf8.allSatisfy(Self.isHostByte) {
            throw ValidationError("--host \(TerminalText.escaped(name)): expected a host name of 1 to 253 letters, digits, '-' and '.'")
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The token: the first line of --token-file, or a new random one (128 bits, hexadecimal).
    func token() throws -> (token: String, generated: Bool) {
        guard let tokenFile else {
            var generator = SystemRandomNumberGenerator()
            let words = [generator.next(), generator.next()].map { String($0, radix: 16) }
            return (words.map { String(repeating: "0", count: 16 - $0.utf8.count) + $0 }.joined(), true)
        }
        let text: String
        do {
            text = try FileReader.readText(tokenFile, limit: 4096)
        } catch {
            throw ConnectionError("--token-file \(tokenFile): \(error)")
        }
        let line = String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmed(of: " \t\r")
        let allowed = line.utf8.allSatisfy { Self.isHostByte($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "~") }
        guard (16...256).contains(line.utf8.count), allowed else {
            throw ConnectionError("--token-file \(tokenFile): expected a first line of 16 to 256 letters, digits, '-', '_', '.' or '~'")
        }
        return (line, false)
    }

    func run() throws {
        try TouchControl.run {
            let signals = try SignalSource([ProcessSignal.interrupt, ProcessSignal.terminate])
            let address = try InternetSocketAddress(parsing: listen)
            // What is wrong here is said before anything else is asked of touchd.
            let (token, generated) = try token()
            let c = try connection.connect(root)
            let loop = try EventLoop()
            let listenFD: Int32
            let port: UInt16
            do {
                listenFD = try address.listeningStream()
                port = try InternetSocketAddress.boundPort(of: listenFD)
            } catch {
                throw ConnectionError("cannot listen on \(listen): \(error)")
            }
            let server = try WatchServer(loop: loop, listenFD: listenFD, address: address, port: port, token: token, names: hosts)
            let feed = WatchFeed(connection: c, server: server)
            try feed.start()
            let shown = address.host.contains(":") ? "[\(address.host)]" : address.host
            if generated {
                print("touchctl watch: serving http://\(shown):\(port)/#token=\(token) (Ctrl-C stops)")
            } else {
                print("touchctl watch: serving http://\(shown):\(port)/ (open it with #token= and the token of \(tokenFile ?? ""); Ctrl-C stops)")
            }
            StandardOutput.flush()
            try loop.register(signals.fd, for: .readable) { _ in
                _ = try? signals.receive()
                loop.stop()
            }
            let link = LoopReconnection(
                loop: loop, tool: "touchctl watch", reconnect: reconnect, connect: { try connection.connect(root) },
                begin: { connection in try feed.restart(on: connection) }, read: { _ in try feed.readAvailable() }, goodbye: { feed.goodbye })
            try link.follow(c)
            try loop.run()
            loop.unregister(signals.fd)
            link.close()
            server.close()
            if let failure = link.failure { throw failure }
        }
    }
}

/// touchd's side of the watch: the subscription, the layout's pictures, and each message passed on.
final class WatchFeed {
    /// The topics a page shows.
    static let topics = ["hits", "touches", "actions", "devices"]
    /// The message types passed on to pages.
    static let shown: Set<String> = ["hit", "touch", "action", "device"]

    private(set) var connection: Connection
    let server: WatchServer
    /// The reason of the last goodbye touchd sent on the current connection, if any.
    private(set) var goodbye: String?

    init(connection: Connection, server: WatchServer) {
        self.connection = connection
        self.server = server
    }

    /// Subscribes and loads the layout.
    func start() throws {
        _ = try connection.request(.subscribe(topics: Self.topics)) { message, line in self.take(message, line) }
        try loadLayout()
    }

    /// Starts again on a new connection (touchd came back): subscribes, loads the layout, and
    /// has the pages load it again.
    func restart(on connection: Connection) throws {
        self.connection = connection
        goodbye = nil
        try start()
        server.layoutChanged()
    }

    /// Takes what touchd sent meanwhile; false once it closed the connection.
    func readAvailable() throws -> Bool {
        guard let messages = try connection.receiveAvailable() else { return false }
        for (message, line) in messages { take(message, line) }
        return true
    }

    private func take(_ message: JSONValue, _ line: [UInt8]) {
        let type = message["type"]?.stringValue ?? ""
        if type == "goodbye" { goodbye = message["reason"]?.stringValue }
        if type == "reload" {
            server.layoutChanged()
            do { try loadLayout() } catch { printError("touchctl watch: cannot load the reloaded layout: \(error)") }
        } else if Self.shown.contains(type) {
            server.message(line)
        }
    }

    /// Each window's picture, without touches (the page draws them live), for `/layout`.
    private func loadLayout() throws {
        let items = try connection.request(.views) { message, line in self.take(message, line) }.arrayValue ?? []
        var windows: [WatchLayout.Window] = []
        for item in items where item["kind"]?.stringValue == "window" {
            guard let id = item["id"]?.stringValue else { continue }
            do {
                let picture = try connection.request(.snapshot(window: id, touches: false)) { message, line in self.take(message, line) }
                windows.append(.picture(id: id, svg: picture["svg"] ?? .null))
            } catch {
                windows.append(.unavailable(id: id, error: "\(error)"))
            }
        }
        server.layout = WatchLayout.document(windows)
    }
}
