import TouchSystem
import Foundation
import Testing
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
    /// Lines that were not a JSON object (a cut or garbled line would land here).
    private(set) var brokenLines: [String] = []
    private(set) var closed = false
    /// Bytes read so far.
    private(set) var bytesRead = 0
    /// Bytes queued by ``queue(_:)`` that the socket has not taken yet.
    private var outgoing: [UInt8] = []
    /// Whether ``messages`` keeps every message; without, only the tallies below are kept (for
    /// floods, so that the test's own memory does not hide the daemon's).
    var keepsMessages = true
    /// Messages received, by type; replies by error code (`ok` for success), and their ids.
    private(set) var typeCounts: [String: Int] = [:]
    private(set) var replyCodes: [String: Int] = [:]
    private(set) var replyIDs: [Int] = []
    /// Whether every message's `seq` was the previous one's plus one.
    private(set) var seqsContiguous = true
    private var lastSeq = 0

    init(path: String) throws {
        self.path = path
        fd = try UnixSocketAddress(path: path).connectedStream(nonBlocking: true)
    }

    /// Makes the kernel buffers small, so a client that does not read fills up quickly.
    func shrinkReceiveBuffer() {
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Ends the connection from this side (the descriptor stays open until the client goes).
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Says it has nothing more to send, and goes on reading.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Queues bytes to send however long they take: ``pump()`` writes what the socket takes.
    func queue(_ bytes: [UInt8]) {
        outgoing += bytes
        pump()
    }

    /// Bytes queued and not yet taken by the socket.
    var unsentBytes: Int { outgoing.count }

    /// Writes as much of the queued bytes as the socket takes now.
    func pump() {
        while !outgoing.isEmpty {
            let n = outgoing.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            outgoing.removeFirst(n)
        }
    }

    /// Reads whatever has arrived (at most `maximumBytes`: a slow reader).
    func poll(maximumBytes: Int = .max) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < maximumBytes {
            let want = min(chunk.count, maximumBytes - total)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, want, 0) }
            if n > 0 {
                total += n
                buffer.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 { closed = true }
            break
        }
        bytesRead += total
        var start = 0
        while let i = buffer[start...].firstIndex(of: 10) {
            let line = Data(buffer[start..<i])
            start = i + 1
            if let obj = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                tally(obj)
                if keepsMessages { messages.append(obj) }
            } else {
                brokenLines.append(String(decoding: line, as: UTF8.self))
            }
        }
        buffer.removeFirst(start)
    }

    private func tally(_ message: [String: Any]) {
        let type = message["type"] as? String ?? ""
        typeCounts[type, default: 0] += 1
        if let seq = message["seq"] as? Int {
            if seq != lastSeq + 1 { seqsContiguous = false }
            lastSeq = seq
        }
        guard type == "reply" else { return }
        replyCodes[(message["error"] as? [String: Any])?["code"] as? String ?? "ok", default: 0] += 1
        if let id = message["id"] as? Int { replyIDs.append(id) }
    }

    /// Bytes received after the last complete line: part of a line, when the connection closed.
    var unterminatedBytes: Int { buffer.count }

    func of(type: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == type } }
    var seqs: [Int] { messages.compactMap { $0["seq"] as? Int } }
    func reply(id: Int) -> [String: Any]? { of(type: "reply").first { $0["id"] as? Int == id } }
    /// The error code of the reply to request `id` ("ok" when it succeeded).
    func code(id: Int) -> String? {
        guard let reply = reply(id: id) else { return nil }
        return (reply["error"] as? [String: Any])?["code"] as? String ?? "ok"
    }
}

/// An observer that keeps what it is told, for tests to check.
final class RecordingObserver: DaemonObserver {
    private(set) var anomalies: [String] = []
    private(set) var problems: [String] = []
    private(set) var reloads: [Result<Int, any Error>] = []
    private(set) var reloadsStarted = 0
    private(set) var reloadCauses: [ReloadCause] = []
    private(set) var metricsProblems: [String?] = []
    private(set) var devicesAdded: [String] = []
    private(set) var devicesRemoved: [String] = []

    func anomaly(_ text: String) { anomalies.append(text) }
    func inputProblem(_ text: String) { problems.append(text) }
    func reloadStarted(by cause: ReloadCause) { reloadsStarted += 1 }
    func reloadFinished(_ outcome: Result<Int, any Error>, by cause: ReloadCause, status: String) {
        reloads.append(outcome)
        reloadCauses.append(cause)
    }
    func deviceAdded(id: String) { devicesAdded.append(id) }
    func metricsFileProblem(_ text: String?) { metricsProblems.append(text) }
    func deviceRemoved(id: String) { devicesRemoved.append(id) }
}

/// A daemon on a temporary socket, driven step by step from the test's thread.
final class DaemonHarness {
    let loop: EventLoop
    let daemon: Daemon
    let path: String
    let observer = RecordingObserver()

    init(
        app: Application, limits: ClientLimits = ClientLimits(), policy: PeerPolicy = PeerPolicy(), mode: mode_t = 0o660,
        clock: any TimeSource = MonotonicClock(), sources: [InputSource] = [], layoutFile: String? = nil, sinks: [any ReportSink] = [],
        givesMemoryBack: Bool = false
    ) throws {
        path = NSTemporaryDirectory() + "touchd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        loop = try EventLoop(clock: clock)
        let socket = DaemonSocket(endpoint: try SocketEndpoint.bind(path: path, mode: mode), limits: limits, policy: policy)
        let services = DaemonServices(
            input: InputSources(sources), layoutFile: layoutFile, observer: observer, sinks: sinks, givesMemoryBack: givesMemoryBack)
        daemon = Daemon(app: app, socket: socket, loop: loop, version: "touchd test", services: services)
        try daemon.start()
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
            for c in clients {
                c.pump()
                c.poll()
            }
            total = clients.map(\.bytesRead).reduce(0, +)
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

    /// A client that has only connected (and read its hello).
    func connectBare() throws -> TestClient {
        let client = try TestClient(path: path)
        try settle()
        client.poll()
        return client
    }

    /// Whether the daemon answers a ping from a fresh client: it is alive and serving.
    func answersPing() throws -> Bool {
        let probe = try TestClient(path: path)
        probe.send(#"{"id":"alive","cmd":"ping"}"#)
        for _ in 0..<50 {
            try settle()
            probe.poll()
            if probe.of(type: "reply").contains(where: { $0["id"] as? String == "alive" && $0["ok"] as? Bool == true }) { return true }
        }
        return false
    }
}

/// The test process's resident memory, in bytes (`/proc/self/statm`).
/// A process's resident memory (`VmRSS`, or its peak `VmHWM`), in bytes, from `/proc`.
func residentBytes(of pid: Int32, peak: Bool = false) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let key = peak ? "VmHWM:" : "VmRSS:"
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(key) })
    let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    return kilobytes * 1024
}

extension DaemonHarness {
    /// Checks what an attack made the in-process daemon hold for its clients: the most bytes any
    /// client's send queue held at once, over the whole attack, within the queue's limit (a last
    /// `dropped` notice, `goodbye` or WebSocket close may pass it by a few bytes). The test
    /// process's resident growth since `resident` is printed beside it, never asserted: suites
    /// running beside this one in the same process move it by hundreds of megabytes. A real
    /// daemon's resident memory under attack is asserted where it runs alone
    /// (`DaemonProcessTests`, `touchctl watch`'s own process).
    func expectBoundedMemory(since resident: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let server = daemon.server
        let bound = server.limits.maximumQueuedBytes + 1024
        #expect(server.largestQueuePeak <= bound, "\(what): a client's queue held \(server.largestQueuePeak) bytes", sourceLocation: sourceLocation)
        print("\(what): the largest client queue peaked at \(server.largestQueuePeak) bytes; test process resident \((residentBytes() - resident) >> 10) KiB more")
    }
}

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A deterministic random number generator (SplitMix64): tests print their seed, so a failure
/// can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Input that arrives on a descriptor of the daemon's loop, as a device's would: frames written
/// here are read and queued when the loop next wakes up, in the order the kernel reports them.
final class InputPipe {
    private let readFD: Int32
    private let writeFD: Int32
    private var frames: [InputFrame] = []

    init(_ harness: DaemonHarness) throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else {
            throw SystemError.current("socketpair")
        }
        readFD = fds[0]
        writeFD = fds[1]
        let daemon = harness.daemon
        try harness.loop.register(readFD, for: .readable) { [unowned self] _ in
            var byte: UInt8 = 0
            while read(self.readFD, &byte, 1) == 1 {
                guard !self.frames.isEmpty else { continue }
                daemon.enqueue(.touches(self.frames.removeFirst()))
            }
        }
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes `frame` arrive.
    func send(_ frame: InputFrame) {
        frames.append(frame)
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
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
    daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t), contacts: [InputContact(id: id, phase: .began, location: p)]))
    for m in 0..<moves {
        let q = Point(x: p.x + Double(m % 3), y: p.y)
        daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t + Double(m + 1) / 1000), contacts: [InputContact(id: id, phase: .moved, location: q)]))
    }
    daemon.receive(InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: t + Double(moves + 1) / 1000), contacts: [InputContact(id: id, phase: .ended, location: p)]))
}
