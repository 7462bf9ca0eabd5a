import TouchCore
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A timer on an ``EventLoop``: an action that runs on the loop once its deadline has passed, at
/// most once per scheduling. Made by ``EventLoop/timer(_:)`` (unscheduled) or
/// ``EventLoop/schedule(after:_:)``; scheduled again, moved or cancelled as often as needed
/// without a new timer or descriptor.
///
/// Deadlines are instants on the loop's ``EventLoop/clock``. A delay of any value is taken
/// (see ``LoopInstant/advanced(by:)``): NaN and infinity leave the timer unscheduled, zero or less fires it at the
/// next wakeup, a hundred years or more is a hundred years.
///
/// The loop holds a scheduled timer (so a one-shot needs no owner); a timer refers to its loop
/// without holding it, so its owner holds the loop. An action that refers to its owner captures
/// it weakly or unowned, or the timer keeps it alive.
public final class TimerHandle {
    /// Unowned: the timer's owner holds the loop (a timer outliving its loop would be a bug).
    unowned let loop: EventLoop
    let action: () -> Void
    /// When the timer fires, on the loop's clock; nil when it is not scheduled.
    public internal(set) var deadline: LoopInstant?

    init(loop: EventLoop, action: @escaping () -> Void) {
        self.loop = loop
        self.action = action
    }

    /// Whether the timer is waiting to fire.
    public var isScheduled: Bool { deadline != nil }

    /// Fires the timer `delay` from now on the loop's clock (replacing any earlier scheduling);
    /// NaN or infinity cancels it.
    public func schedule(after delay: TimeSpan) {
        guard let deadline = loop.clock.now.advanced(by: delay) else { return cancel() }
        loop.schedule(self, at: deadline)
    }

    /// Fires the timer at `deadline` on the loop's clock (a deadline passed fires it at the next
    /// wakeup).
    public func schedule(at deadline: LoopInstant) {
        loop.schedule(self, at: deadline)
    }

    /// Unschedules the timer (nothing happens when it is not scheduled).
    public func cancel() {
        guard deadline != nil else { return }
        loop.unschedule(self)
        deadline = nil
    }
}

extension EventLoop {
    /// A timer that runs `action` on this loop when it fires; not scheduled yet.
    public func timer(_ action: @escaping () -> Void) -> TimerHandle {
        TimerHandle(loop: self, action: action)
    }

    /// Runs `action` once, `delay` from now (see ``TimerHandle/schedule(after:)``).
    @discardableResult
    public func schedule(after delay: TimeSpan, _ action: @escaping () -> Void) -> TimerHandle {
        let handle = timer(action)
        handle.schedule(after: delay)
        return handle
    }

    /// Runs the action of every timer whose deadline has passed on the loop's clock, earliest first,
    /// then arms the descriptor for the next one. The loop calls it when its `timerfd` expires;
    /// tests that move a ``ManualClock`` call it themselves.
    public func runDueTimers() {
        let now = clock.now
        firingTimers = true
        // The earliest due timer, one at a time: an action may cancel, move or add others.
        while let index = indexOfEarliestTimer(dueBy: now) {
            let timer = scheduledTimers.remove(at: index)
            timer.deadline = nil
            timer.action()
        }
        firingTimers = false
        // The descriptor has expired (or is armed for a time passed): arm it afresh.
        armedDeadline = nil
        armForEarliestDeadline(now: now)
    }

    private func indexOfEarliestTimer(dueBy now: LoopInstant) -> Int? {
        var found: (index: Int, deadline: LoopInstant)?
        for (index, timer) in scheduledTimers.enumerated() {
            guard let deadline = timer.deadline, deadline <= now, found.map({ deadline < $0.deadline }) ?? true else { continue }
            found = (index, deadline)
        }
        return found?.index
    }

    func schedule(_ timer: TimerHandle, at deadline: LoopInstant) {
        if timer.deadline == nil { scheduledTimers.append(timer) }
        timer.deadline = deadline
        armForEarliestDeadline()
    }

    func unschedule(_ timer: TimerHandle) {
        guard let index = scheduledTimers.firstIndex(where: { $0 === timer }) else { return }
        scheduledTimers.remove(at: index)
        if scheduledTimers.isEmpty { armForEarliestDeadline() }
    }

    /// The `timerfd` expired: its expirations are consumed, then the due timers run.
    func timerExpired() {
        var expirations: UInt64 = 0
        do {
            _ = try Descriptor.read(timerFD, intoBytesOf: &expirations, "timerfd")
        } catch {
            onError(error)
        }
        runDueTimers()
    }

    /// Arms the `timerfd` for the earliest deadline when that is earlier than what it is armed for,
    /// and disarms it when no timer is left. A deadline that moved later leaves the descriptor armed
    /// for the earlier time: that wakeup finds nothing due and arms it again (cheaper than a system
    /// call each time a recognizer's deadline moves on with every frame).
    func armForEarliestDeadline(now: LoopInstant? = nil) {
        guard !firingTimers, timersUseDescriptor else { return }
        var earliest: LoopInstant?
        for timer in scheduledTimers {
            if let deadline = timer.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        guard let earliest else {
            if armedDeadline != nil { setTimer(microseconds: nil) }
            armedDeadline = nil
            return
        }
        if let armed = armedDeadline, armed <= earliest { return }
        armedDeadline = earliest
        setTimer(microseconds: max(earliest.microseconds(since: now ?? clock.now), 1))
    }

    /// Arms the `timerfd` (one-shot) to expire `delay` microseconds from now; nil disarms it.
    private func setTimer(microseconds delay: Int64?) {
        var value = itimerspec()
        if let delay {
            value.it_value.tv_sec = Int(truncatingIfNeeded: delay / 1_000_000)
            value.it_value.tv_nsec = Int(truncatingIfNeeded: delay % 1_000_000 * 1_000)
        }
        do {
            try SystemCall.require("timerfd_settime") { timerfd_settime(timerFD, 0, &value, nil) }
        } catch {
            armedDeadline = nil
            onError(error)
        }
    }
}
