import TouchCore
import TouchProtocol
import TouchSystem

/// How a watching command (`monitor`, `watch`) comes back when touchd goes away (a restart, a
/// stop, an upgrade): it waits, connects again and subscribes again, the waits growing from
/// ``firstDelay`` to ``longestDelay`` while touchd is not there. A goodbye that says the
/// connection is not allowed ends the command instead: connecting again would change nothing.
struct Reconnection {
    /// The first wait after touchd went away.
    static let firstDelay: TimeSpan = 0.25
    /// The longest wait between two attempts.
    static let longestDelay: TimeSpan = 8

    private(set) var delay = Reconnection.firstDelay

    /// The wait before the next attempt; each is twice the one before, up to ``longestDelay``.
    mutating func nextDelay() -> TimeSpan {
        let wait = delay
        delay = min(delay * 2, Self.longestDelay)
        return wait
    }

    /// Connected again: the next loss starts from ``firstDelay``.
    mutating func reset() { delay = Self.firstDelay }

    /// What the end of a connection means, from touchd's goodbye (nil: it said none).
    enum Ending: Equatable {
        /// touchd ended on purpose and will not come back (`input ended`: its replay is over).
        case finished
        /// This connection is not let in (`not allowed`): connecting again changes nothing.
        case refused
        /// touchd went away (a restart, a stop, a crash): worth connecting again.
        case lost
    }

    static func ending(goodbye reason: String?) -> Ending {
        guard let reason else { return .lost }
        if reason == "input ended" { return .finished }
        return reason.hasPrefix("not allowed") ? .refused : .lost
    }

    /// Connects with `connect` until it succeeds, waiting between attempts; says once on standard
    /// error that it waits, naming why the last attempt failed.
    mutating func connectAgain(tool: String, _ connect: () throws -> Connection) -> Connection {
        var told = false
        while true {
            Processor.sleep(for: nextDelay())
            do {
                let connection = try connect()
                reset()
                return connection
            } catch {
                if !told { printError("\(tool): waiting for touchd: \(error)") }
                told = true
            }
        }
    }
}

/// A connection followed on an event loop (`touchctl watch`), connected again on a timer when
/// touchd goes away, so that the loop goes on serving (and Ctrl-C, read by the loop, still stops
/// it) while touchd is not there.
final class LoopReconnection {
    let loop: EventLoop
    let tool: String
    /// Whether to connect again at all (`--no-reconnect` ends the loop with ``failure`` instead).
    let reconnect: Bool
    /// Makes a new connection.
    let connect: () throws -> Connection
    /// Starts on a new connection (subscribes, loads what it needs).
    let begin: (Connection) throws -> Void
    /// Takes what arrived; false once touchd closed the connection.
    let read: (Connection) throws -> Bool
    /// The reason of the last goodbye touchd sent, if any.
    let goodbye: () -> String?
    /// Why the loop was stopped, when it was stopped for an error.
    private(set) var failure: Error?
    private var backoff = Reconnection()
    private var current: Connection?
    private var timer: TimerHandle?
    private var toldWaiting = false

    init(
        loop: EventLoop, tool: String, reconnect: Bool, connect: @escaping () throws -> Connection,
        begin: @escaping (Connection) throws -> Void, read: @escaping (Connection) throws -> Bool, goodbye: @escaping () -> String?
    ) {
        self.loop = loop
        self.tool = tool
        self.reconnect = reconnect
        self.connect = connect
        self.begin = begin
        self.read = read
        self.goodbye = goodbye
    }

    /// Follows `connection` (already begun) on the loop.
    func follow(_ connection: Connection) throws {
        try loop.register(connection.fd, for: .readable) { [unowned self] _ in self.readable(connection) }
        current = connection
    }

    /// Stops following: the connection's descriptor and any pending attempt leave the loop.
    func close() {
        timer?.cancel()
        if let current { loop.unregister(current.fd) }
        current = nil
    }

    private func readable(_ connection: Connection) {
        do {
            if try read(connection) { return }
            lost(connection, nil)
        } catch let error as ConnectionError where error.isLost {
            lost(connection, error.description)
        } catch {
            failure = error
            loop.stop()
        }
    }

    private func lost(_ connection: Connection, _ why: String?) {
        loop.unregister(connection.fd)
        current = nil
        let reason = goodbye() ?? why
        let text = reason.map { " (\($0))" } ?? ""
        let ending = Reconnection.ending(goodbye: goodbye())
        guard reconnect, ending == .lost else {
            if ending != .finished { failure = ConnectionError("touchd closed the connection\(text)") }
            loop.stop()
            return
        }
        printError("\(tool): touchd closed the connection\(text); connecting again (--no-reconnect exits instead)")
        toldWaiting = false
        scheduleAttempt()
    }

    private func scheduleAttempt() {
        timer = loop.schedule(after: backoff.nextDelay()) { [unowned self] in self.attempt() }
    }

    private func attempt() {
        do {
            let connection = try connect()
            try begin(connection)
            try follow(connection)
            backoff.reset()
            printError("\(tool): connected again; subscribed as before")
        } catch {
            if !toldWaiting { printError("\(tool): waiting for touchd: \(error)") }
            toldWaiting = true
            scheduleAttempt()
        }
    }
}
