import TouchCore
import TouchProtocol
import TouchSystem

/// Request lines written to a live daemon (``FuzzDaemon``) by up to three clients at once: the
/// socket server's framing, turns and roles, and every request family dispatched against the
/// running application of a bundled layout, with touches arriving in between.
///
/// The bytes: the first picks the layout (`config/kiosk.toml`, `media-kiosk.toml`,
/// `seed-experiment.toml`) and the pattern in which the stream is cut into writes (from one byte
/// to a few kilobytes, the loop running between writes). The rest is what the clients write, but
/// for five control bytes, which no request line holds (JSON text has no raw control characters):
/// - `0x1E` passes the stream to the next client: a control client, a read-only client (root
///   connects it as `nobody`), another control client, in turn;
/// - `0x04` makes the current client hang up without reading (a later write connects a new one);
/// - `0x01 x y` puts a finger down at (x, y) in 255ths of the first window, `0x02` lifts every
///   finger, `0x03` lets a second pass on the daemon's clock (gesture and tap timers).
///
/// Checked (``ReplyCheck``): every line the daemon writes is strict JSON (finite numbers, valid
/// UTF-8) with a documented `type`; `seq` starts at 1 with `hello` and only grows; `hello` names
/// the role the client's credentials give; every request line gets one reply, in order, carrying
/// its `id` (fewer only after a `goodbye` or a hang-up); a refused request gets `ok: false` with a
/// documented error code and a message, the code its parse gave when it did not parse; a request
/// the read-only role may not make is `forbidden`; and after it all a new client still gets its
/// `pong`.
public enum RequestFuzzing {
    /// The bundled layouts, in `config/` (or `$TOUCHD_FUZZ_CONFIG`).
    static let layouts = ["kiosk.toml", "media-kiosk.toml", "seed-experiment.toml"]
    static let roles: [ClientRole] = [.control, .readOnly, .control]

    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        var input = FuzzBytes(bytes)
        let options = input.byte()
        let directory = ProcessContext.environment("TOUCHD_FUZZ_CONFIG") ?? "config"
        var session = try FuzzSession(layout: directory + "/" + layouts[Int(options & 3) % layouts.count], chunkSeed: options >> 2)
        while !input.isAtEnd {
            let byte = input.byte()
            switch byte {
            case 0x1E: try session.nextClient()
            case 0x04: try session.hangUp()
            case 0x01: try session.touchDown(x: input.byte(), y: input.byte())
            case 0x02: try session.liftFingers()
            case 0x03: try session.advanceClock()
            default: try session.write(byte)
            }
        }
        try session.finish()
    }
}

/// One input's run of the request target: the daemon, its clients and the fingers down.
struct FuzzSession {
    let harness: FuzzDaemon
    private var clients: [FuzzClient?] = [nil, nil, nil]
    /// Every client connected, in order (hung-up ones included), for the checks at the end.
    private var everyClient: [FuzzClient] = []
    private var current = 0
    private var pending: [UInt8] = []
    private var chunks: ChunkSizes
    private var fingers: [UInt64: Point] = [:]
    private var nextFinger: UInt64 = 1
    private var time: InputTime

    init(layout: String, chunkSeed: UInt8) throws(FuzzViolation) {
        harness = try FuzzDaemon(layout: layout)
        chunks = ChunkSizes(seed: chunkSeed)
        time = harness.clock.now.inputTime
    }

    private var live: [FuzzClient] { clients.compactMap { $0 } }

    mutating func write(_ byte: UInt8) throws(FuzzViolation) {
        pending.append(byte)
        if pending.count >= chunks.current { try flush() }
    }

    /// Writes what the current client has pending, and lets the daemon serve it.
    private mutating func flush() throws(FuzzViolation) {
        guard !pending.isEmpty else { return }
        let client = try connected(current)
        client.write(pending[...])
        pending = []
        chunks.advance()
        try harness.settle(live)
    }

    private mutating func connected(_ index: Int) throws(FuzzViolation) -> FuzzClient {
        if let client = clients[index] { return client }
        let client = try FuzzClient(path: harness.path, role: RequestFuzzing.roles[index])
        clients[index] = client
        everyClient.append(client)
        try harness.settle(live)
        return client
    }

    mutating func nextClient() throws(FuzzViolation) {
        try flush()
        current = (current + 1) % clients.count
    }

    mutating func hangUp() throws(FuzzViolation) {
        try flush()
        clients[current]?.hangUp()
        clients[current] = nil
        try harness.settle(live)
    }

    mutating func touchDown(x: UInt8, y: UInt8) throws(FuzzViolation) {
        try flush()
        let size = harness.windowSize
        let point = Point(x: size.width * Double(x) / 255, y: size.height * Double(y) / 255)
        fingers[nextFinger] = point
        try send(InputContact(id: nextFinger, phase: .began, location: point))
        nextFinger += 1
    }

    mutating func liftFingers() throws(FuzzViolation) {
        try flush()
        for (id, point) in fingers.sorted(by: { $0.key < $1.key }) {
            try send(InputContact(id: id, phase: .moved, location: Point(x: point.x + 4, y: point.y)))
            try send(InputContact(id: id, phase: .ended, location: Point(x: point.x + 4, y: point.y)))
        }
        fingers = [:]
    }

    private mutating func send(_ contact: InputContact) throws(FuzzViolation) {
        time += 0.008
        harness.daemon.receive(.event(.touches(InputFrame(device: "fuzz", window: harness.window, timestamp: time, contacts: [contact]))))
        try harness.settle(live)
    }

    mutating func advanceClock() throws(FuzzViolation) {
        try flush()
        time += 1
        harness.advance(by: 1)
        try harness.settle(live)
    }

    /// Every client says it is done and reads its replies; then everything is checked, and a new
    /// client must still be answered.
    mutating func finish() throws(FuzzViolation) {
        try flush()
        for client in live { client.finishSending() }
        try harness.settle(live)
        for client in everyClient {
            try ReplyCheck.check(client)
        }
        let probe = try FuzzClient(path: harness.path, role: .readOnly)
        probe.write(Array(#"{"id":"alive","cmd":"ping"}"#.utf8 + [10])[...])
        try harness.settle([probe])
        try require(
            probe.messages.contains { $0["id"] == .string("alive") && $0["ok"] == .bool(true) },
            "a new client got no pong after the input: \(probe.messages)")
    }
}

/// The sizes of the writes the stream is cut into: a cycle picked by a seed, from one byte to
/// more than a request line may hold (most often large: every write costs a turn of the loop).
struct ChunkSizes {
    private static let sizes = [1, 3, 16, 61, 256, 1000, 4096, 4096]
    private var state: UInt32

    init(seed: UInt8) { state = UInt32(seed) &* 2_654_435_761 | 1 }

    var current: Int { Self.sizes[Int(state >> 16) % Self.sizes.count] }

    mutating func advance() { state = state &* 1_103_515_245 &+ 12345 }
}
