import TouchSystem

/// A deadline on the event loop for the socket server: `action` runs on the loop once the alarm
/// is due. The server's one use of the loop's timers, kept here so that the timer facility can
/// change under it in one place.
///
/// The timer's descriptor is made with the alarm, not when it is first armed: the alarm that
/// backs accepting off is armed exactly when no descriptor can be had.
final class LoopAlarm {
    private let loop: EventLoop
    private let timer: LoopTimer
    private var registered = true

    init(loop: EventLoop, action: @escaping () -> Void) throws(SystemError) {
        self.loop = loop
        let timer = try LoopTimer()
        self.timer = timer
        try loop.register(timer.fd, for: .readable) { [unowned timer] _ in
            timer.acknowledge()
            action()
        }
    }

    /// Runs the action after `seconds` (at the loop's next wakeup for 0), replacing any earlier
    /// deadline.
    func arm(after seconds: Double) {
        guard registered else { return }
        timer.arm(after: max(seconds, 0.000_001))
    }

    /// Forgets the deadline.
    func disarm() { timer.arm(after: nil) }

    /// Stops watching the timer (the server is shutting down).
    func close() {
        guard registered else { return }
        registered = false
        loop.unregister(timer.fd)
    }
}
