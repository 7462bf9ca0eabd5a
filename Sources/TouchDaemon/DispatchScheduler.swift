import TouchCore
import TouchSystem

/// What the ``DispatchScheduler`` asks its owner to do, each when its time has come.
protocol ScheduledDispatch: AnyObject {
    /// The end of a wakeup in which input was queued: dispatch what is due.
    func dispatchDue()
    /// The application's next recognizer deadline passed (a long press, a multi-tap window).
    func gestureDeadlinePassed()
    /// The display tick the waiting moves were held for came.
    func displayTickPassed()
}

/// When the daemon dispatches, on the input's timeline: the last event's time and when it arrived,
/// the dispatch at the end of a wakeup in which input came, and the two timers (the application's
/// next recognizer deadline, the next display tick moves wait for), each set again after anything
/// is dispatched through ``rearm(deadline:displayTick:)``, the one after-dispatch hook.
///
/// Recognizer deadlines and display ticks are in input time, which for a recording is not the
/// loop's clock and passes at the replay's speed: a timer is counted on the loop's clock from the
/// last event's arrival.
final class DispatchScheduler {
    private let loop: EventLoop
    private let input: InputSources
    /// The input's time of the last event, and when (on the loop's clock) it arrived.
    private(set) var lastInputTime: InputTime = 0
    private var lastInputArrival = LoopInstant.origin
    /// Input events noted so far.
    private(set) var framesIn = 0
    private let gestureTimer: TimerHandle
    private let displayTimer: TimerHandle
    /// The input times the gesture and display timers were set for (`nil`: not set).
    private var gestureTimerTime: InputTime?
    private var displayTimerTime: InputTime?
    /// Whether a dispatch at the end of this wakeup is asked for already.
    private var dispatchDeferred = false
    /// The owner's ``ScheduledDispatch/dispatchDue()`` as deferred work, made once (not a closure
    /// per wakeup).
    private let deferredDispatch: () -> Void

    /// A scheduler on `loop`, reading the input's pace from `input`, calling `owner` back.
    init(loop: EventLoop, input: InputSources, owner: any ScheduledDispatch) {
        self.loop = loop
        self.input = input
        gestureTimer = loop.timer { [weak owner] in owner?.gestureDeadlinePassed() }
        displayTimer = loop.timer { [weak owner] in owner?.displayTickPassed() }
        deferredDispatch = { [weak owner] in owner?.dispatchDue() }
    }

    deinit { stop() }

    /// Now, on the input's timeline: the last event's time plus the time since it arrived (scaled
    /// by a replay's speed), or the input sources' time before any event.
    var now: InputTime {
        guard framesIn > 0 else { return input.now ?? loop.clock.now.inputTime }
        return lastInputTime + loop.clock.now.span(since: lastInputArrival) * input.timeScale
    }

    /// An input event with this timestamp arrived now.
    func noteInput(at timestamp: InputTime) {
        framesIn += 1
        lastInputTime = timestamp
        lastInputArrival = loop.clock.now
    }

    /// Asks for ``ScheduledDispatch/dispatchDue()`` once the descriptors of this wakeup are read
    /// (once, however many events came).
    func dispatchAtEndOfWakeup() {
        guard !dispatchDeferred else { return }
        dispatchDeferred = true
        loop.deferWork(deferredDispatch)
    }

    /// The deferred dispatch is running, or everything queued was dispatched already: the next
    /// input asks for a dispatch again.
    func deferredDispatchDone() { dispatchDeferred = false }

    /// The after-dispatch hook: sets the gesture timer for the application's next recognizer
    /// deadline and the display timer for the next display tick moves wait for, or cancels either
    /// for `nil` (the display timer is set only while moves wait: an idle daemon never wakes).
    func rearm(deadline: InputTime?, displayTick: InputTime?) {
        arm(gestureTimer, at: deadline, armed: &gestureTimerTime)
        arm(displayTimer, at: displayTick, armed: &displayTimerTime)
    }

    /// Sets the display timer alone (a wakeup that only added a move to those waiting for a tick).
    func rearmDisplay(displayTick: InputTime?) { arm(displayTimer, at: displayTick, armed: &displayTimerTime) }

    /// When the display timer fires on the loop's clock; `nil` while no move waits.
    var displayTimerDeadline: LoopInstant? { displayTimer.deadline }

    /// Cancels both timers (the daemon stops).
    func stop() {
        gestureTimer.cancel()
        displayTimer.cancel()
    }

    /// Schedules `timer` for `time` on the input's timeline, counted on the loop's clock from the
    /// last event's arrival; cancels it for `nil`. A timer already set for `time` (`armed`) stays
    /// as it is: moving it by each frame's arrival would cost a system call a frame.
    private func arm(_ timer: TimerHandle, at time: InputTime?, armed: inout InputTime?) {
        guard timer.deadline == nil || armed != time else { return }
        armed = time
        guard let time, let due = lastInputArrival.advanced(by: (time - lastInputTime) / input.timeScale) else {
            return timer.cancel()
        }
        timer.schedule(at: due)
    }
}
