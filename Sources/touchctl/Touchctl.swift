import ArgumentParser
import Foundation

/// `touchctl`: talks to a running touchd over its socket.
@main
struct Touchctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchctl",
        abstract: "Watch and control a running touchd.",
        subcommands: [Monitor.self, HitTest.self, SetView.self, Reload.self, Devices.self, Views.self, Stats.self, Ping.self, Snapshot.self, FirstResponder.self])
}

struct SocketOption: ParsableArguments {
    @Option(name: .long, help: "touchd's socket (default: $TOUCHD_SOCKET, else /run/touchd/touchd.sock).")
    var socket: String?

    func connect() throws -> Connection {
        try Connection(path: socket ?? ProcessInfo.processInfo.environment["TOUCHD_SOCKET"] ?? "/run/touchd/touchd.sock")
    }
}

func run(_ body: () throws -> Void) throws {
    do { try body() } catch let error as ConnectionError {
        FileHandle.standardError.write(Data("touchctl: \(error.description)\n".utf8))
        throw ExitCode.failure
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print what touchd sends: hits, actions, touches, gestures, devices.")
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "Topics, comma-separated (default: hits,actions,devices).")
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

    func validate() throws { _ = try filters() }
    @Flag(name: .long, help: "Print the raw JSON lines.")
    var json = false
    @Option(name: .long, help: "Exit after this many messages.")
    var count: Int?

    func run() throws {
        try touchctl.run {
            let c = try connection.connect()
            var request: [String: Any] = ["cmd": "subscribe", "topics": topics.split(separator: ",").map(String.init)]
            let (views, actions) = try filters()
            if let views { request["views"] = views }
            if let actions { request["actions"] = actions }
            _ = try c.request(request)
            var seen = 0
            while let message = try c.receive() {
                let type = message["type"] as? String ?? ""
                if type == "hello" || type == "reply" { continue }
                print(json ? jsonText(message) : MonitorFormat.line(message))
                fflush(nil)
                seen += 1
                if let count, seen >= count { return }
            }
        }
    }
}

/// Readable one-line renderings of touchd's messages.
enum MonitorFormat {
    static func point(_ any: Any?) -> String {
        guard let p = any as? [String: Any], let x = p["x"] as? Double, let y = p["y"] as? Double else { return "-" }
        return "(\(num(x)), \(num(y)))"
    }

    static func num(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.2f", v) }

    static func line(_ m: [String: Any]) -> String {
        let time = (m["time"] as? Double).map { String(format: "%10.3f", $0) } ?? String(repeating: " ", count: 10)
        switch m["type"] as? String ?? "" {
        case "hit":
            let path = (m["path"] as? [String])?.joined(separator: " > ") ?? ""
            let delivered = m["delivered"] as? Bool == true ? "" : " (not delivered: \(m["reason"] ?? ""))"
            return "\(time) hit     touch \(m["touch"] ?? "") → \(m["view"] as? String ?? "nothing") at \(point(m["point"])) tap \(m["tap_count"] ?? "") [\(path)]\(delivered)"
        case "action":
            return "\(time) action  \(m["name"] ?? "") from \(m["responder"] ?? "") on \(m["event"] ?? "") touches \(jsonText(m["touches"] ?? [])) payload \(jsonText(m["payload"] ?? [:]))"
        case "touch":
            return "\(time) touch   \(m["touch"] ?? "") \(m["phase"] ?? "") at \(point(m["location"])) in \(m["view"] as? String ?? "-") \(point(m["location_in_view"])) force \(m["force"] ?? 0)"
        case "device":
            return "\(time) device  \(m["event"] ?? "") \(m["device"] ?? "")"
        case "dropped":
            return "           dropped \(m["count"] ?? "") messages (seq \(m["first_seq"] ?? "")...\(m["last_seq"] ?? ""))"
        case "goodbye":
            return "           goodbye: \(m["reason"] ?? "")"
        default:
            return jsonText(m)
        }
    }
}

struct HitTest: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hit-test", abstract: "Hit-test a point without touching.")
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The window (default: the key window).") var window: String?
    @Flag(name: .long, help: "Print the raw JSON.") var json = false
    @Argument var x: Double
    @Argument var y: Double

    func run() throws {
        try touchctl.run {
            var request: [String: Any] = ["cmd": "hit_test", "x": x, "y": y]
            if let window { request["window"] = window }
            let result = try connection.connect().request(request)
            if json { print(jsonText(result)); return }
            for step in result["trace"] as? [[String: Any]] ?? [] {
                if step["step"] as? String == "enter" {
                    print("→ \(step["view"] ?? "") enter at \(MonitorFormat.point(step["point"]))")
                } else {
                    print("← \(step["view"] ?? "") result: \(step["result"] as? String ?? "nil") (\(step["reason"] ?? ""))")
                }
            }
            print("hit: \(result["view"] as? String ?? "nothing") in \(result["window"] ?? "")")
            print("responder chain: \((result["responder_chain"] as? [String] ?? []).joined(separator: " → "))")
        }
    }
}

struct SetView: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Change a view: hidden=true alpha=0.5 interactive=false frame=x,y,w,h hit_expansion=10 ...")
    @OptionGroup var connection: SocketOption
    @Argument(help: "The view's id.") var view: String
    @Argument(help: "key=value pairs.") var assignments: [String]

    func run() throws {
        var properties: [String: Any] = [:]
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("\"\(assignment)\": expected key=value") }
            let (key, value) = (parts[0], parts[1])
            if value == "true" || value == "false" {
                properties[key] = value == "true"
            } else if value.contains(",") {
                let numbers = value.split(separator: ",").compactMap { Double($0) }
                guard numbers.count == value.split(separator: ",").count else { throw ValidationError("\"\(assignment)\": expected numbers") }
                properties[key] = numbers
            } else if let n = Double(value) {
                properties[key] = n
            } else {
                throw ValidationError("\"\(assignment)\": expected true, false, a number or comma-separated numbers")
            }
        }
        try touchctl.run { _ = try connection.connect().request(["cmd": "set", "view": view, "properties": properties]) }
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Re-read the layout file (a bad file is refused; the old layout keeps running).")
    @OptionGroup var connection: SocketOption
    func run() throws { try touchctl.run { print(jsonText(try connection.connect().request(["cmd": "reload"]))) } }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the daemon's input devices.")
    @OptionGroup var connection: SocketOption
    func run() throws { try touchctl.run { print(jsonText(try connection.connect().requestAny(["cmd": "devices"]))) } }
}

struct Views: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List every responder of the running layout.")
    @OptionGroup var connection: SocketOption
    func run() throws {
        try touchctl.run {
            for item in try connection.connect().requestAny(["cmd": "views"]) as? [[String: Any]] ?? [] { print(jsonText(item)) }
        }
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's counters.")
    @OptionGroup var connection: SocketOption
    func run() throws {
        try touchctl.run {
            let stats = try connection.connect().request(["cmd": "stats"])
            for key in stats.keys.sorted() { print("\(key): \(stats[key]!)") }
        }
    }
}

struct FirstResponder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-responder", abstract: "Make a responder become (or, with --resign, resign) first responder of its window.")
    @OptionGroup var connection: SocketOption
    @Argument(help: "The id of a window, view or view controller.") var responder: String
    @Flag(name: .long, help: "Resign instead of become.") var resign = false

    func run() throws {
        try touchctl.run {
            let cmd = resign ? "resign_first_responder" : "become_first_responder"
            print(jsonText(try connection.connect().request(["cmd": cmd, "responder": responder])))
        }
    }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that touchd answers.")
    @OptionGroup var connection: SocketOption
    func run() throws { try touchctl.run { _ = try connection.connect().request(["cmd": "ping"]); print("pong") } }
}

struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw the running tree with its last touches (SVG, or PNG through rsvg-convert from librsvg2-bin).")
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The picture's file: .svg, or .png.") var out: String
    @Option(name: .long, help: "The window (default: the key window).") var window: String?
    @Flag(name: .long, help: "Draw touch-down density too.") var heatmap = false

    func run() throws {
        try touchctl.run {
            var request: [String: Any] = ["cmd": "snapshot", "heatmap": heatmap]
            if let window { request["window"] = window }
            let result = try connection.connect().request(request)
            guard let svg = result["svg"] as? String else { throw ConnectionError("touchd sent no picture") }
            if out.hasSuffix(".png") {
                let convert = Process()
                convert.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
                guard FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") else {
                    throw ConnectionError("PNG needs rsvg-convert (Debian package librsvg2-bin); write .svg instead")
                }
                convert.arguments = ["--format", "png", "--output", out]
                let input = Pipe()
                convert.standardInput = input
                try convert.run()
                input.fileHandleForWriting.write(Data(svg.utf8))
                try input.fileHandleForWriting.close()
                convert.waitUntilExit()
                guard convert.terminationStatus == 0 else { throw ConnectionError("rsvg-convert failed") }
            } else {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: out))
            }
            print("wrote \(out)")
        }
    }
}
