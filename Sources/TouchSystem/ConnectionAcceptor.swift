import TouchCore
/// Accepts the connections of a listening socket on an ``EventLoop``, the one way touchd's
/// listeners do (the daemon's Unix socket, its WebSocket listener, `touchctl watch`'s page).
///
/// At most ``maximumPerWakeup`` connections are taken a wakeup, so that a flood cannot hold the
/// loop (the socket stays readable: the rest come at the next wakeup). When the process or the
/// system is out of descriptors, or `accept` fails otherwise, accepting pauses for `backoff`
/// seconds: the socket is not watched meanwhile, so the level-triggered loop does not spin on a
/// connection it cannot take, and waiting clients stay in the kernel's backlog (as swift-nio's
/// accept backoff does).
public final class ConnectionAcceptor {
    /// The most connections taken in one wakeup.
    public static let maximumPerWakeup = 16

    private let fd: Int32
    private let subject: String
    private let loop: EventLoop
    private let backoff: TimeSpan
    private let accepted: (Int32) -> Void
    private let paused: (SystemError?) -> Void
    private let resumeTimer: TimerHandle

    /// Starts accepting on the listening socket `fd` (named `subject` in errors).
    /// - Parameters:
    ///   - backoff: How long accepting pauses when it cannot go on.
    ///   - paused: Hears each pause, with the error when `accept` failed (`nil`: out of resources).
    ///   - accepted: Takes each connection (non-blocking, closed on exec); it owns the descriptor.
    /// - Throws: ``SystemError`` when the loop cannot watch the socket.
    public init(
        listening fd: Int32, subject: String, loop: EventLoop, backoff: TimeSpan, paused: @escaping (SystemError?) -> Void = { _ in },
        accepted: @escaping (Int32) -> Void
    ) throws(SystemError) {
        self.fd = fd
        self.subject = subject
        self.loop = loop
        self.backoff = backoff
        self.paused = paused
        self.accepted = accepted
        // The timer refers to the loop and the descriptor only: it may outlive the acceptor.
        resumeTimer = loop.timer { [loop] in loop.modify(fd, for: .readable) }
        try loop.register(fd, for: .readable) { [unowned self] _ in self.acceptWaiting() }
    }

    /// Stops accepting: the socket is no longer watched (the caller closes it).
    public func stop() {
        resumeTimer.cancel()
        loop.unregister(fd)
    }

    private func acceptWaiting() {
        for _ in 0..<Self.maximumPerWakeup {
            do {
                switch try SocketIO.accept(fd, subject) {
                case .connection(let connection): accepted(connection)
                case .gaveUp: continue
                case .nothingWaiting: return
                case .outOfResources: return pause(nil)
                }
            } catch {
                return pause(error)
            }
            // The taker may have stopped accepting (a shutdown).
            guard loop.isRegistered(fd) else { return }
        }
    }

    private func pause(_ error: SystemError?) {
        loop.modify(fd, for: [])
        resumeTimer.schedule(after: backoff)
        paused(error)
    }
}
