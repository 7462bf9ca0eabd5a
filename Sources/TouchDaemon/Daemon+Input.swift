import TouchCore
import TouchLayout
import TouchProtocol
import TouchSystem

extension Daemon: ScheduledDispatch {
    // MARK: - Time

    /// Now, on the input's timeline: the last event's time plus the time since it arrived (scaled
    /// by a replay's speed), or the input sources' time before any event. Events touchd makes
    /// itself (cancellations on removal, reload, `remove_view` and shutdown) are stamped with it, so
    /// a replay's cancellation reads in the recording's time and a live one in the kernel's
    /// `CLOCK_MONOTONIC`, like their frames.
    public func inputNow() -> InputTime { scheduler.now }

    /// When the display timer fires on the loop's clock; `nil` while no move waits.
    public var displayTimerDeadline: LoopInstant? { scheduler.displayTimerDeadline }

    /// The one way the daemon dispatches: `body` has the application dispatch, handing on each
    /// report as it is made and a touch-down frame's hit records as soon as its hit-tests are done.
    /// What it produces is published as it comes, each client getting one write for all of it,
    /// but for hits: a touch-down frame's `hit` messages are written at once, behind the reports
    /// before them and ahead of the rest of their frame, whose views, recognizers and controls
    /// are called after. Then the timers follow what the application waits for next.
    func dispatchAndPublish(_ body: (inout Application, _ hitsReady: ([HitRecord]) -> Void, _ dispatched: (DispatchReport) -> Void) -> Void) {
        var hitsSent = false
        server.batch {
            body(
                &app,
                { hits in
                    let messages = publication.hitMessages(hits)
                    guard !messages.isEmpty else { return }
                    server.broadcast(messages)
                    server.flushBatch()
                    // Their readers may share the processor: they read them now.
                    Processor.yield()
                    hitsSent = true
                },
                { report in
                    publish(report, hitsSent: hitsSent)
                    hitsSent = false
                })
        }
        publication.releaseMessages()
        rearmTimers()
    }

    /// Sets the gesture and display timers for the application's next recognizer deadline and
    /// display tick (see ``DispatchScheduler/rearm(deadline:displayTick:)``).
    func rearmTimers() {
        scheduler.rearm(deadline: inPlace { $0.nextDeadline }, displayTick: inPlace { $0.nextDisplayTick })
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
            status.changed()
            publish(MessageEncoder.deviceAdded(id: id, description: description))
        case .deviceRemoved(let id):
            observer.deviceRemoved(id: id)
            status.changed()
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
        scheduler.noteInput(at: event.timestamp)
        if !services.sinks.isEmpty, case .touches(let frame) = event { forwardAhead(frame) }
        var reports: [DispatchReport] = []
        while app.enqueue(event) == .full {
            guard let report = app.dispatchNext() else { break }
            reports.append(report)
        }
        if !reports.isEmpty { publish(reports) }
        scheduler.dispatchAtEndOfWakeup()
    }

    /// Plays on the virtual touchscreens (and TUIO) the steps of `frame`'s forwarded touches that
    /// its dispatch cannot change, as it arrives (``Application/forwardAhead(_:)``): a compositor
    /// behind touchd reads a forwarded finger's move without waiting for the frame's dispatch.
    private func forwardAhead(_ frame: InputFrame) {
        let steps = app.forwardAhead(frame)
        guard !steps.isEmpty else { return }
        for sink in services.sinks { sink.deliverAhead(steps) }
        // Its reader may share the processor: it reads them now, before the dispatch.
        Processor.yield()
    }

    /// Dispatches the queued events that are due by the last event's time and publishes what they
    /// produced, at the end of a wakeup: everything but the moves waiting for a display tick, for
    /// which the display timer is set. (The last event's time, not the clock's: what is dispatched
    /// then depends on the input's timestamps alone, as in a replay.) Then the clients of the
    /// input's rate get the waiting moves' new samples.
    func dispatchDue() {
        scheduler.deferredDispatchDone()
        let time = scheduler.lastInputTime
        // The input's rate first: a move whose tick came with this input (its timer not run yet)
        // still waits, and its new samples go out before the application gets it (whose dispatch
        // then sends nothing twice). A move made due by another event is not waiting: it goes
        // out with its dispatch, in order.
        publishArrivals()
        // Most wakeups at 1 kHz only add a move to the one waiting for its tick.
        if inPlace({ $0.queue.hasEventDue(by: time) }) {
            dispatchAndPublish { app, hitsReady, dispatched in app.dispatchDue(by: time, hitsReady: hitsReady, dispatched: dispatched) }
        } else {
            scheduler.rearmDisplay(displayTick: inPlace { $0.nextDisplayTick })
        }
    }

    /// Sends the samples of the moves waiting for their display tick that no client of the
    /// `input` and `frames` forms has had yet: those forms follow the input's rate, whatever the
    /// window's display rate (the application still gets the moves at the tick).
    private func publishArrivals() {
        guard !publication.interest.touchForms.isDisjoint(with: .atArrival) else { return }
        do {
            let messages = arrivalMessages()
            if !messages.isEmpty { server.batch { server.broadcast(messages) } }
        }
        // Once the list above is gone: the batch's own list is then let go without a copy.
        publication.releaseMessages()
    }

    /// The input-rate messages of the samples waiting moves have that no client had yet: in the
    /// `input` form (with the places in the touches' views) and the `frames` form, as wanted.
    private func arrivalMessages() -> [OutboundMessage] {
        let moves: [[WaitingTouchSamples]]
        do {
            let marks = publication.inputRateMarks  // gone before the marks change: they are not copied
            let inView = publication.interest.touchForms.contains(.input)
            moves = inPlace { $0.waitingMoveSamples(sentThrough: marks.sent, inView: inView) }
        }
        return moves.isEmpty ? [] : publication.arrivalMessages(of: moves)
    }

    /// A recognizer deadline passed: what is due by now is dispatched, then the recognizers waiting
    /// for the time decide.
    func gestureDeadlinePassed() {
        let now = inputNow()
        dispatchAndPublish { app, hitsReady, dispatched in
            app.dispatchDue(by: now, hitsReady: hitsReady, dispatched: dispatched)
            if let report = app.advanceTime(to: now) { dispatched(report) }
        }
    }

    /// A display tick came: the moves waiting for it are dispatched. (The tick it was set for is
    /// never missed for the rounding of the clocks' conversion.)
    func displayTickPassed() {
        let time = max(inputNow(), inPlace { $0.nextDisplayTick } ?? .distantPast)
        dispatchAndPublish { app, hitsReady, dispatched in app.dispatchDue(by: time, hitsReady: hitsReady, dispatched: dispatched) }
    }

    /// Dispatches every queued event, oldest first, the moves waiting for a display tick included,
    /// and publishes what they produced. Called before anything that must see the input that
    /// arrived before it (a request, a device's removal, a reload, shutdown).
    public func dispatchQueued() {
        scheduler.deferredDispatchDone()
        guard inPlace({ $0.queue.count > 0 }) else { return }
        let now = inputNow()
        dispatchAndPublish { app, hitsReady, dispatched in app.flush(at: now, hitsReady: hitsReady, dispatched: dispatched) }
    }

    /// Reads the application in place, for what runs on every frame: reading a property of the
    /// struct through the object that holds it would copy the whole application (a retain of each
    /// of its parts) to keep it steady during the call.
    private func inPlace<T>(_ body: (inout Application) -> T) -> T { body(&app) }

    /// Publishes the first-responder changes the tree made (a first responder hidden or removed).
    func publishFirstResponderChanges() {
        for change in app.takeFirstResponderChanges() { server.broadcast(MessageEncoder.message(for: change)) }
    }

    /// Publishes already-dispatched reports to the clients, and gives their anomalies to the
    /// observer. Each client gets everything in one write.
    public func publish(_ reports: [DispatchReport]) {
        server.batch { for report in reports { publish(report, hitsSent: false) } }
    }

    /// Publishes one report (in the caller's batch); `hitsSent` when its hits went out already.
    private func publish(_ report: DispatchReport, hitsSent: Bool) {
        if !report.anomalies.isEmpty { for anomaly in report.anomalies { observer.anomaly(anomaly) } }
        recentTouches.record(report)
        for sink in services.sinks { sink.deliver(report) }
        server.broadcast(publication.messages(for: report, hitsSent: hitsSent))
    }

    /// Publishes a message that is not about a dispatched event (devices added or removed).
    public func publish(_ message: OutboundMessage) { server.broadcast(message) }

    /// Cancels every touch (before a shutdown or reload), telling the clients.
    public func cancelAllTouches() {
        dispatchQueued()
        if let report = app.cancelAllTouches(timestamp: inputNow()) { publish([report]) }
    }

    /// Cancels every key held down (a reload, a stop): the application that saw it go down will
    /// not see it come up.
    public func cancelAllPresses() {
        dispatchQueued()
        let reports = app.cancelAllPresses(timestamp: inputNow())
        if !reports.isEmpty { publish(reports) }
    }

    /// Cancels one device's touches (it was removed).
    public func cancelTouches(ofDevice device: String) {
        dispatchQueued()
        if let report = app.cancelTouches(ofDevice: device, timestamp: inputNow()) { publish([report]) }
    }
}
