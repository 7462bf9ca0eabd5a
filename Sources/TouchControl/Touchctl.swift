import ArgumentParser
import TouchCore
import TouchProtocol
import TouchSystem

/// `touchctl`: talks to a running touchd over its socket. Its own executable in development; the
/// installed `touchctl` is `touchd` invoked under that name.
public struct Touchctl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "touchctl",
        abstract: "Watch and control a running touchd.",
        discussion: "--socket may come before the command (touchctl --socket PATH ping) or after it.",
        version: ReleaseVersion.of("touchctl"),
        subcommands: [
            Monitor.self, HitTest.self, SetView.self, SetControl.self, AddView.self, RemoveView.self, Reload.self, Devices.self, Views.self,
            Stats.self, Ping.self, Snapshot.self, FirstResponder.self, Record.self, Calibrate.self, Watch.self,
        ])

    @Option(name: .long, help: "touchd's socket (default: $TOUCHD_SOCKET, else /run/touchd/touchd.sock).")
    var socket: String?

    public init() {}

    /// Runs the command line as ArgumentParser does (parsing, help, exit codes), every error told
    /// in one style, `touchctl: MESSAGE`, as touchd tells its own (ArgumentParser's is `Error:`).
    public static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            guard code != .success, !(error is ExitCode), text.hasPrefix("Error: ") else { Self.exit(withError: error) }
            printError("touchctl: " + text.dropFirst("Error: ".count))
            Self.exit(withError: code)
        }
    }
}

/// The socket option of every command, which may also be given before the command.
struct SocketOption: ParsableArguments {
    @Option(name: .long, help: "touchd's socket (default: $TOUCHD_SOCKET, else /run/touchd/touchd.sock).", completion: .file())
    var socket: String?

    /// Connects to the socket given after the command, else before it (`root`), else
    /// `$TOUCHD_SOCKET` (unless empty, as an unset variable often is), else the default.
    func connect(_ root: Touchctl) throws -> Connection {
        let environment = ProcessContext.environment("TOUCHD_SOCKET").flatMap { $0.isEmpty ? nil : $0 }
        return try Connection(path: socket ?? root.socket ?? environment ?? "/run/touchd/touchd.sock")
    }
}

/// `request`, checked against the protocol's domains exactly as touchd checks it: a bad argument
/// is refused here, with touchd's message, before anything is sent.
func checked(_ request: ClientRequest) throws -> ClientRequest {
    if let problem = request.problem { throw ValidationError(problem) }
    return request
}

/// A command that makes one request of the daemon, built from its arguments and checked
/// (``checked(_:)``) when they are parsed, so a bad argument is refused before anything is sent.
protocol RequestCommand: ParsableCommand {
    var root: Touchctl { get }
    var connection: SocketOption { get }
    /// The request the arguments make, checked.
    func request() throws -> ClientRequest
}

extension RequestCommand {
    func validate() throws { _ = try request() }

    /// Connects, sends the request and returns the daemon's reply.
    func reply() throws -> JSONValue { try connection.connect(root).request(try request()) }
}

/// One line on standard error.
func printError(_ line: String) {
    var standardError = StandardError()
    print(line, to: &standardError)
}

func run(_ body: () throws -> Void) throws {
    do { try body() } catch let error as ConnectionError {
        printError("touchctl: \(error.description)")
        throw ExitCode.failure
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print what touchd sends: hits, actions, touches, gestures, devices.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "Topics, comma-separated.", completion: .custom { _, _, prefix in Topic.listCompletions(prefix) })
    var topics: String = "hits,actions,devices"
    @Option(name: .long, help: "Only messages about these views (comma-separated; a trailing * is a prefix).")
    var views: String?
    @Option(name: .long, help: "Only these actions (comma-separated names).")
    var actions: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A filter, repeatable: view=ID (a trailing * makes a prefix) or action=NAME; several values of one kind widen it.",
            valueName: "KIND=VALUE"))
    var filter: [String] = []

    /// The view and action filters from --views, --actions and every --filter.
    func filters() throws -> (views: [String]?, actions: [String]?) {
        var views = self.views.map { $0.split(separator: ",").map(String.init) }
        var actions = self.actions.map { $0.split(separator: ",").map(String.init) }
        for entry in filter {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--filter \"\(entry)\": expected view=ID, view=PREFIX* or action=NAME")
            }
            switch parts[0] {
            case "view", "views": views = (views ?? []) + [parts[1]]
            case "action", "actions": actions = (actions ?? []) + [parts[1]]
            default: throw ValidationError("--filter \"\(entry)\": unknown kind \"\(parts[0])\": expected view or action")
            }
        }
        return (views, actions)
    }

    @Flag(name: .long, help: "Print the raw JSON lines.")
    var json = false
    @Option(name: .long, help: "Exit after this many messages.")
    var count: Int?
    @Flag(
        name: .long, inversion: .prefixedNo,
        help: "When touchd goes away (a restart), connect again with growing waits and subscribe again (the default); with --no-reconnect, exit with status 1 instead.")
    var reconnect = true

    /// The `subscribe` request, checked.
    func request() throws -> ClientRequest {
        let (views, actions) = try filters()
        return try checked(.subscribe(topics: topics.split(separator: ",").map(String.init), views: views, actions: actions))
    }

    func validate() throws {
        if topics.split(separator: ",").isEmpty {
            throw ValidationError("--topics: no topic given: expected one or more of \(Topic.names)")
        }
        _ = try request()
        if let count, count < 1 { throw ValidationError("--count \(count): expected at least 1") }
    }

    func run() throws {
        // Ctrl-C or a stop is how a monitor ends: status 0, every line printed already flushed.
        ProcessSignal.stopsQuietly()
        try TouchControl.run {
            var c = try connection.connect(root)
            var seen = 0
            var backoff = Reconnection()
            while true {
                var said: String?
                var goodbye: String?
                do {
                    if try follow(c, seen: &seen, goodbye: &said) { return }
                    goodbye = said
                } catch let error as ConnectionError where error.isLost {
                    goodbye = said ?? error.description
                }
                let why = goodbye.map { " (\($0))" } ?? ""
                let ending = Reconnection.ending(goodbye: said)
                if ending == .finished { return }
                guard reconnect, ending == .lost else { throw ConnectionError("touchd closed the connection\(why)") }
                printError("touchctl monitor: touchd closed the connection\(why); connecting again (--no-reconnect exits instead)")
                c = backoff.connectAgain(tool: "touchctl monitor") { try connection.connect(root) }
                printError("touchctl monitor: connected again; subscribed as before")
            }
        }
    }

    /// Subscribes on `c` and prints what comes until `--count` messages were printed (true) or
    /// touchd closed the connection (false, with its goodbye's reason when it said one).
    private func follow(_ c: Connection, seen: inout Int, goodbye: inout String?) throws -> Bool {
        var counted = seen
        var reason: String?
        defer {
            seen = counted
            goodbye = reason
        }
        /// Prints a message; false once `--count` messages have been printed.
        func show(_ message: JSONValue, _ line: [UInt8]) -> Bool {
            let type = message["type"]?.stringValue ?? ""
            if type == "goodbye" { reason = message["reason"]?.stringValue }
            guard type != "hello" && type != "reply" else { return true }
            print(json ? String(decoding: line, as: UTF8.self) : MonitorFormat.line(message))
            StandardOutput.flush()
            counted += 1
            return count.map { counted < $0 } ?? true
        }
        // The devices present come before the reply to the subscription.
        var more = true
        _ = try c.request(try request()) { message, line in if more { more = show(message, line) } }
        guard more else { return true }
        while let (message, line) = try c.receive() {
            guard show(message, line) else { return true }
        }
        return false
    }
}

struct HitTest: RequestCommand {
    static let configuration = CommandConfiguration(commandName: "hit-test", abstract: "Hit-test a point without touching.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The window (default: the key window).") var window: String?
    @Flag(name: .long, help: "Print the raw JSON.") var json = false
    @Argument(help: "The point's x in window points.") var x: Double
    @Argument(help: "The point's y in window points.") var y: Double

    func request() throws -> ClientRequest { try checked(.hitTest(x: x, y: y, window: window)) }

    func run() throws {
        try TouchControl.run {
            let result = try reply()
            if json { print(result.jsonText); return }
            for line in ReplyFormat.hitTest(result) { print(line) }
        }
    }
}

struct SetView: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a view: hidden=true alpha=0.5 interactive=false frame=x,y,w,h hit_expansion=10 translate=x,y rotate=30 scale=2 ...")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Argument(help: "The view's id.") var view: String
    @Argument(help: "key=value pairs.") var assignments: [String]

    /// A value as written after `=`: true, false, a number, or comma-separated numbers.
    static func value(_ text: String, in assignment: String) throws -> ClientRequest.Value {
        if text == "true" || text == "false" { return .bool(text == "true") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == parts.count else {
            throw ValidationError("\"\(assignment)\": expected true, false, a number or comma-separated numbers")
        }
        return parts.count == 1 ? .number(numbers[0]) : .numbers(numbers)
    }

    /// `key=value` pairs as a request's `properties`, in order (the request makes `translate`,
    /// `rotate` and `scale` the view's transform).
    static func properties(_ assignments: [String]) throws -> [(String, ClientRequest.Value)] {
        var properties: [(String, ClientRequest.Value)] = []
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("\"\(assignment)\": expected key=value") }
            guard !properties.contains(where: { $0.0 == parts[0] }) else { throw ValidationError("\"\(parts[0])\" is given twice") }
            properties.append((parts[0], try Self.value(parts[1], in: assignment)))
        }
        return properties
    }

    func request() throws -> ClientRequest { try checked(.set(view: view, properties: try Self.properties(assignments))) }

    func run() throws { try TouchControl.run { _ = try reply() } }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-read the layout file (a bad file is refused; the old layout keeps running) and say what changed.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Flag(name: .long, help: "Print the reply and the reload message as touchd sent them.") var json = false
    func run() throws {
        try TouchControl.run {
            var message: JSONValue?
            let result = try connection.connect(root).request(.reload) { other, _ in if other["type"] == "reload" { message = other } }
            if json {
                if let message { print(message.jsonText) }
                print(result.jsonText)
                return
            }
            for line in ReplyFormat.reload(result, message: message) { print(line) }
        }
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the daemon's input devices and the layout entry each matched.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Flag(name: .long, help: "Print the reply's JSON.") var json = false
    func run() throws {
        try TouchControl.run {
            let devices = try connection.connect(root).request(.devices)
            if json { print(devices.jsonText); return }
            for line in ReplyFormat.devices(devices) { print(line) }
        }
    }
}

struct Views: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every responder of the running layout, as a tree.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Flag(name: .long, help: "Print one JSON object a responder, as touchd sent them.") var json = false
    func run() throws {
        try TouchControl.run {
            let items = try connection.connect(root).request(.views).arrayValue ?? []
            if json { for item in items { print(item.jsonText) }; return }
            for line in ReplyFormat.views(items) { print(line) }
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's counters.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    func run() throws {
        try TouchControl.run {
            guard case .object(let counters) = try connection.connect(root).request(.stats) else { return }
            for (key, value) in counters.sorted(by: { $0.0 < $1.0 }) { print("\(key): \(value.plainText)") }
        }
    }
}

struct FirstResponder: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-responder", abstract: "Make a responder become (or, with --resign, resign) first responder of its window.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Argument(help: "The id of a window, view or view controller.") var responder: String
    @Flag(name: .long, help: "Resign instead of become.") var resign = false

    func request() throws -> ClientRequest { try checked(.firstResponder(responder, resign: resign)) }

    func run() throws { try TouchControl.run { print(try reply().jsonText) } }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that touchd answers.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    func run() throws { try TouchControl.run { _ = try connection.connect(root).request(.ping); print("pong") } }
}

struct Snapshot: RequestCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the running tree with its last touches (SVG, or PNG through rsvg-convert from librsvg2-bin).")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The picture's file: .svg, or .png.", completion: .file(extensions: ["svg", "png"])) var out: String
    @Option(name: .long, help: "The window (default: the key window).") var window: String?
    @Flag(name: .long, help: "Draw touch-down density too.") var heatmap = false

    func request() throws -> ClientRequest { try checked(.snapshot(window: window, heatmap: heatmap)) }

    func run() throws {
        try TouchControl.run {
            let result = try reply()
            guard let svg = result["svg"]?.stringValue else { throw ConnectionError("touchd sent no picture") }
            do {
                try PictureFile.write(svg: svg, to: out)
            } catch {
                throw ConnectionError("\(error)")
            }
            print("wrote \(out)")
        }
    }
}
