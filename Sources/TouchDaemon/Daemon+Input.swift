import TouchCore
import TouchLayout
import TouchProtocol
import TouchSystem

extension Daemon {
    // MARK: - Time

    /// Now, on the input's timeline: the last event's time plus the time since it arrived (scaled
    /// by a replay's speed), or the input sources' time before any event. Events touchd makes
    /// itself (cancellations on removal, reload, `remove_view` and shutdown) are stamped with it, so
    /// a replay's cancellation reads in the recording's time and a live one in the kernel's
    /// `CLOCK_MONOTONIC`, like their frames.
    public func inputNow() -> Double {
        guard framesIn > 0 else { return input.now ?? loop.clock.seconds }
        return lastInputTime + Double(TimeSpan.until(loop.clock.microseconds, from: lastInputArrival)) / 1_000_000 * input.timeScale
    }

    /// Schedules the gesture timer for the application's next recognizer deadline, or cancels it.
    func armGestureTimer() { arm(gestureTimer, at: inPlace { $0.nextDeadline }, armed: &gestureTimerTime) }

    /// Schedules the display timer for the next display tick moves wait for, or cancels it: it is
    /// set only while moves wait, so an idle daemon never wakes.
    func armDisplayTimer() { arm(displayTimer, at: inPlace { $0.nextDisplayTick }, armed: &displayTimerTime) }

    /// When the display timer fires (microseconds on the loop's clock); `nil` while no move waits.
    public var displayTimerDeadline: Int64? { displayTimer.deadline }

    /// Schedules `timer` for `time` on the input's timeline, counted on the loop's clock from the
    /// last event's arrival (recognizer deadlines and display ticks are in input time, which for a
    /// recording is not the loop's clock, and passes at the replay's speed); cancels it for `nil`.
    /// A timer already set for `time` (`armed`) stays as it is: moving it by each frame's arrival
    /// would cost a system call a frame.
    private func arm(_ timer: TimerHandle, at time: Double?, armed: inout Double?) {
        guard timer.deadline == nil || armed != time else { return }
        armed = time
        guard let time, let due = TimeSpan.adding((time - lastInputTime) / input.timeScale, to: lastInputArrival) else {
            return timer.cancel()
        }
        timer.schedule(atMicroseconds: due)
    }

    func gestureDeadlinePassed() {
        let now = inputNow()
        publish(app.dispatchDue(by: now))
        if let report = app.advanceTime(to: now) { publish([report]) }
        armGestureTimer()
        armDisplayTimer()
    }

    /// A display tick came: the moves waiting for it are dispatched. (The tick it was set for is
    /// never missed for the rounding of the clocks' conversion.)
    func displayTickPassed() {
        let tick = inPlace { $0.nextDisplayTick } ?? -.infinity
        publish(app.dispatchDue(by: max(inputNow(), tick)))
        armGestureTimer()
        armDisplayTimer()
    }

    // MARK: - Input

    /// Handles what an input source reports: events are queued (and dispatched at the end of the
    /// wakeup), devices are announced on the `devices` topic, a removed device's touches cancelled.
    public func receive(_ event: InputSourceEvent) {
        switch event {
        case .event(let queued):
            enqueue(queued)
        case .deviceAdded(let id, let description):
            observer.deviceAdded(id: id)
            scheduleStatus()
            publish(MessageEncoder.deviceAdded(id: id, description: description))
        case .deviceRemoved(let id):
            observer.deviceRemoved(id: id)
            scheduleStatus()
            cancelTouches(ofDevice: id)
            endDeviceSessions(ofDevice: id, reason: "the device went away")
            publish(MessageEncoder.deviceRemoved(id: id))
        case .anomaly(let text):
            observer.anomaly(text)
        case .problem(let text):
            observer.inputProblem(text)
        case .finished:
            guard input.daemonEndsWithInput else { return }
            observer.inputEnded()
            shutdown(reason: "input ended")
        case .raw(let device, let events):
            publishRaw(device: device, events: events)
        case .heldFrames(let device, let frames):
            calibrationFrames(device: device, frames: frames)
        }
    }

    /// Queues an event (touches, presses, remote control, motion) behind those already waiting,
    /// without dispatching it yet: everything queued during one wakeup of the loop is dispatched once
    /// that wakeup's descriptors are read. Under backlog (many frames from one read, several
    /// devices at once) the application queue's policy then applies: move-only frames merge, every
    /// sample kept as coalesced touches; nothing else is merged, dropped or reordered. When the
    /// queue is full, the oldest events are dispatched first to make room.
    func enqueue(_ event: QueuedEvent) {
        noteInput(event)
        var reports: [DispatchReport] = []
        while app.enqueue(event) == .full {
            guard let report = app.dispatchNext() else { break }
            reports.append(report)
        }
        if !reports.isEmpty { publish(reports) }
        if !dispatchScheduled {
            dispatchScheduled = true
            loop.deferWork(dispatchDueWork)
        }
    }

    /// Dispatches the queued events that are due by the last event's time and publishes what they
    /// produced, at the end of a wakeup: everything but the moves waiting for a display tick, for
    /// which the display timer is set. (The last event's time, not the clock's: what is dispatched
    /// then depends on the input's timestamps alone, as in a replay.)
    func dispatchDue() {
        dispatchScheduled = false
        // Most wakeups at 1 kHz only add a move to the one waiting for its tick.
        guard inPlace({ $0.queue.hasEventDue(by: lastInputTime) }) else { return armDisplayTimer() }
        let reports = app.dispatchDue(by: lastInputTime)
        if !reports.isEmpty { publish(reports) }
        armGestureTimer()
        armDisplayTimer()
    }

    /// Dispatches every queued event, oldest first, the moves waiting for a display tick included,
    /// and publishes what they produced. Called before anything that must see the input that
    /// arrived before it (a request, a device's removal, a reload, shutdown).
    public func dispatchQueued() {
        dispatchScheduled = false
        guard inPlace({ $0.queue.count > 0 }) else { return }
        publish(app.flush(at: inputNow()))
        armGestureTimer()
        armDisplayTimer()
    }

    /// Reads the application in place, for what runs on every frame: reading a property of the
    /// struct through the object that holds it would copy the whole application (a retain of each
    /// of its parts) to keep it steady during the call.
    private func inPlace<T>(_ body: (inout Application) -> T) -> T { body(&app) }

    private func noteInput(_ event: QueuedEvent) {
        framesIn += 1
        lastInputTime = event.timestamp
        lastInputArrival = loop.clock.microseconds
    }

    /// Publishes the first-responder changes the tree made (a first responder hidden or removed).
    func publishFirstResponderChanges() {
        for change in app.takeFirstResponderChanges() { server.broadcast(MessageEncoder.message(for: change)) }
    }

    /// Publishes already-dispatched reports to the clients, and gives their anomalies to the
    /// observer. Each client gets everything in one write.
    public func publish(_ reports: [DispatchReport]) {
        server.batch {
            for report in reports {
                if !report.anomalies.isEmpty { for anomaly in report.anomalies { observer.anomaly(anomaly) } }
                recentTouches.record(report)
                for sink in services.sinks { sink.deliver(report) }
                let messages = MessageEncoder.messages(for: report, interest: interest)
                for message in messages { server.broadcast(message) }
            }
        }
    }

    /// Publishes a message that is not about a dispatched event (devices added or removed).
    public func publish(_ message: OutboundMessage) { server.broadcast(message) }

    /// Cancels every touch (before a shutdown or reload), telling the clients.
    public func cancelAllTouches() {
        dispatchQueued()
        if let report = app.cancelAllTouches(timestamp: inputNow()) { publish([report]) }
    }

    /// Cancels one device's touches (it was removed).
    public func cancelTouches(ofDevice device: String) {
        dispatchQueued()
        if let report = app.cancelTouches(ofDevice: device, timestamp: inputNow()) { publish([report]) }
    }
}
