import TouchSystem
import Foundation
import TouchCore
import TouchDaemon
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A blocking-free test client of the daemon's socket: it writes lines and collects parsed messages.
final class TestClient {
    let fd: Int32
    /// The socket it is connected to.
    let path: String
    private var buffer: [UInt8] = []
    private(set) var messages: [[String: Any]] = []
    private(set) var closed = false

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        if r != 0 { throw SystemError.current("connect", path) }
    }

    /// Makes the kernel buffers small, so a client that does not read fills up quickly.
    func shrinkReceiveBuffer() {
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads whatever has arrived.
    func poll() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 { closed = true }
            break
        }
        while let i = buffer.firstIndex(of: 10) {
            let line = Data(buffer[0..<i])
            buffer.removeFirst(i + 1)
            if let obj = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { messages.append(obj) }
        }
    }

    func of(type: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == type } }
    var seqs: [Int] { messages.compactMap { $0["seq"] as? Int } }
    func reply(id: Int) -> [String: Any]? { of(type: "reply").first { $0["id"] as? Int == id } }
}

/// An observer that keeps what it is told, for tests to check.
final class RecordingObserver: DaemonObserver {
    private(set) var anomalies: [String] = []
    private(set) var problems: [String] = []
    private(set) var reloads: [Result<Int, any Error>] = []
    private(set) var reloadsStarted = 0
    private(set) var devicesAdded: [String] = []
    private(set) var devicesRemoved: [String] = []

    func anomaly(_ text: String) { anomalies.append(text) }
    func inputProblem(_ text: String) { problems.append(text) }
    func reloadStarted() { reloadsStarted += 1 }
    func reloadFinished(_ outcome: Result<Int, any Error>, status: String) { reloads.append(outcome) }
    func deviceAdded(id: String) { devicesAdded.append(id) }
    func deviceRemoved(id: String) { devicesRemoved.append(id) }
}

/// A daemon on a temporary socket, driven step by step from the test's thread.
final class DaemonHarness {
    let loop: EventLoop
    let daemon: Daemon
    let path: String
    let observer = RecordingObserver()

    init(
        app: Application, limits: ClientLimits = ClientLimits(), clock: any TimeSource = MonotonicClock(), sources: [InputSource] = [],
        layoutFile: String? = nil
    ) throws {
        path = NSTemporaryDirectory() + "touchd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        loop = try EventLoop(clock: clock)
        let server = try SocketServer(path: path, loop: loop, limits: limits)
        let services = DaemonServices(input: InputSources(sources), layoutFile: layoutFile, observer: observer)
        daemon = Daemon(app: app, server: server, loop: loop, version: "touchd test", services: services)
        try daemon.startInput()
    }

    deinit { daemon.server.shutdown(reason: "test over") }

    /// Runs the loop until nothing is ready for a moment.
    func settle() throws {
        while try loop.runOnce(timeoutMilliseconds: 20) > 0 {}
    }

    /// Lets the loop and the client exchange everything pending.
    func drain(_ clients: TestClient...) throws {
        var last = -1
        var total = 0
        repeat {
            last = total
            try settle()
            for c in clients { c.poll() }
            total = clients.map(\.messages.count).reduce(0, +)
        } while total != last
    }

    func connect(topics: [String] = ["hits", "actions", "touches"], extra: String = "") throws -> TestClient {
        let client = try TestClient(path: path)
        try settle()
        client.send(#"{"id":0,"cmd":"subscribe","topics":[\#(topics.map { "\"\($0)\"" }.joined(separator: ","))]\#(extra)}"#)
        try settle()
        client.poll()
        return client
    }
}

func kioskTree() -> ViewTree {
    var tree = ViewTree()
    try! tree.addWindow("main", WindowProperties(size: Size(width: 800, height: 480)))
    try! tree.addView("home", parent: "main", ViewProperties(frame: Rect(x: 0, y: 0, width: 800, height: 480)))
    try! tree.addView("home.ok", parent: "home", ViewProperties(frame: Rect(x: 100, y: 100, width: 200, height: 100)))
    try! tree.addView("home.cancel", parent: "home", ViewProperties(frame: Rect(x: 400, y: 100, width: 200, height: 100)))
    return tree
}

func kioskApp() -> Application {
    Application(
        tree: kioskTree(),
        handlers: HandlerTable([
            Handler(responder: "home.ok", trigger: .touchesEnded, action: "ok", passesOn: false),
            Handler(responder: "home.cancel", trigger: .touchesEnded, action: "cancel", passesOn: false),
        ]))
}

func tap(_ daemon: Daemon, id: UInt64, at p: Point, t: Double, moves: Int = 0) {
    daemon.receive(InputFrame(device: "d", window: "main", timestamp: t, contacts: [InputContact(id: id, phase: .began, location: p)]))
    for m in 0..<moves {
        let q = Point(x: p.x + Double(m % 3), y: p.y)
        daemon.receive(InputFrame(device: "d", window: "main", timestamp: t + Double(m + 1) / 1000, contacts: [InputContact(id: id, phase: .moved, location: q)]))
    }
    daemon.receive(InputFrame(device: "d", window: "main", timestamp: t + Double(moves + 1) / 1000, contacts: [InputContact(id: id, phase: .ended, location: p)]))
}
