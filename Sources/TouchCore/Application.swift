/// Settings of the application object.
public struct ApplicationSettings: Hashable, Sendable {
    public var tap: TapSettings
    public var queueCapacity: Int
    /// How many events must wait before move-only frames are merged.
    public var coalescingThreshold: Int
    /// Whether the application receives remote-control events from the start, as if it had called
    /// `beginReceivingRemoteControlEvents()`. UIKit's default is no.
    public var receivesRemoteControlEvents: Bool

    public init(
        tap: TapSettings = TapSettings(), queueCapacity: Int = 1024, coalescingThreshold: Int = 8, receivesRemoteControlEvents: Bool = false
    ) {
        self.tap = tap
        self.queueCapacity = queueCapacity
        self.coalescingThreshold = coalescingThreshold
        self.receivesRemoteControlEvents = receivesRemoteControlEvents
    }
}

/// Counters of what the application has done.
public struct ApplicationStatistics: Hashable, Sendable {
    public var eventsDispatched = 0
    public var touchesBegan = 0
    public var touchesCancelled = 0
    public var actionsEmitted = 0
    public var unhandledCalls = 0
    public var anomalies = 0
    /// Remote-control events that arrived while the application was not receiving them.
    public var remoteControlEventsIgnored = 0
}

/// The application object (the counterpart of `UIApplication`): it owns the view tree, the handlers,
/// the live touches and the FIFO event queue, and dispatches events one at a time.
///
/// Pure and deterministic: time comes only from the events (the kernel's timestamps), and every
/// effect comes back as a ``DispatchReport`` value.
public struct Application: Sendable {
    /// A contact of a device: what a live touch is found by.
    struct TouchKey: Hashable, Sendable {
        var device: String
        var contact: UInt64
    }

    struct LiveTouch: Sendable {
        var touch: Touch
        /// The farthest the touch got from where it landed, in points (for tap detection).
        var farthestDistance: Double
        /// Where its view was in the tree when last looked up (-1 before): tried first the next
        /// time (``ViewTree/nodeIndex(of:hint:)``).
        var viewIndexHint: Int32 = -1
    }

    public internal(set) var tree: ViewTree
    public internal(set) var handlers: HandlerTable
    public let settings: ApplicationSettings
    public internal(set) var queue: ApplicationEventQueue
    public internal(set) var statistics = ApplicationStatistics()
    /// Whether dispatch reports list every responder call: ``DispatchReport/calls``,
    /// ``DispatchReport/log``, ``DispatchReport/unhandled`` and the event's ``Event/allTouches``.
    /// On by default: the calls are what UIKit's responders would see, the record the seed logs and
    /// the core's tests read. The daemon, `touchd replay` and `touchd render` turn it off, since no
    /// message carries them and recording them is most of a frame's dispatch cost. Hits, changed
    /// touches, actions, gestures and everything else that becomes a message are reported either way.
    public var recordsResponderCalls = true
    /// Whether each touch-down's hit-test is traced into its ``HitRecord/trace`` (every view
    /// visited and why it answered as it did). Off by default: tracing asks every subview, without
    /// the subview index, and allocates the trace.
    public var tracesHitTests = false
    /// Whether each coalesced sample of a dispatched touch gets its location in the touch's view
    /// (``TouchSample/locationInView``), as the touch itself does. On by default; the daemon turns
    /// it off unless a client asks for one `touch` message per input frame, the only message that
    /// says where a sample is in its view.
    public var recordsSampleLocationsInView = true
    var live = LiveTouches()
    /// The contacts whose touches touchd cancelled while the finger stayed down (a view removed,
    /// a device's touches cancelled), oldest first, until the device lifts them or they land
    /// again: their later moves and lift are no fault of the device. At most
    /// ``cancelledKeptAtMost`` (past it, the oldest is let go).
    var cancelledContacts: [TouchKey] = []
    /// The most contacts, and the most keys, remembered as cancelled while down.
    static let cancelledKeptAtMost = 64
    /// Lists each dispatch fills and empties, kept with their room (``DispatchScratch``).
    var scratch = DispatchScratch()
    /// The input time through which display ticks were dispatched (``dispatchDue(by:)``): a move
    /// stamped before it waits for the next tick.
    var ticksDispatched = InputTime.distantPast
    var nextTouchID: TouchID = 1
    var taps: TapTracker
    var gestures = GestureArena()
    var controls: [ResponderID: ControlState] = [:]
    /// What goes on to the windows' virtual touchscreens (`Forwarding/Application+Forwarding.swift`).
    var forwarding = ForwardingState()
    /// Each window's first responder, by window.
    var firstResponders: [ResponderID: ResponderID] = [:]
    var responderTraits: [ResponderID: FirstResponderTraits] = [:]
    var pendingFirstResponderChanges: [FirstResponderChange] = []
    /// Whether remote-control events are dispatched (between `beginReceivingRemoteControlEvents()`
    /// and `endReceivingRemoteControlEvents()`).
    public internal(set) var isReceivingRemoteControlEvents: Bool
    /// Keys held down, by device and key code.
    var livePresses: [PressKey: Press] = [:]
    /// Keys whose presses were cancelled while they stayed down (a reload, a stop), oldest first,
    /// until they come up or go down again: their release is no fault of the device. At most
    /// ``cancelledKeptAtMost``.
    var cancelledPresses: [PressKey] = []
    var nextPressID: PressID = 1

    struct PressKey: Hashable, Sendable {
        var device: String
        var keyCode: UInt16
    }

    /// - Parameters:
    ///   - firstResponderTraits: the responders that may become first responder (and whether they resign).
    ///   - initialFirstResponders: responders made first responder of their windows at once, in order.
    /// - Precondition: every recognizer's and control's view is a view of `tree`. A layout's
    ///   validation guarantees it; anything else is a programming error, which stops the program
    ///   rather than leaving a recognizer or control out.
    public init(
        tree: ViewTree, handlers: HandlerTable = HandlerTable(), gestureRecognizers: [GestureRecognizerSpec] = [],
        controls: [ControlSpec] = [], settings: ApplicationSettings = ApplicationSettings(),
        firstResponderTraits: [FirstResponderTraits] = [], initialFirstResponders: [ResponderID] = []
    ) {
        self.tree = tree
        self.handlers = handlers
        self.settings = settings
        self.queue = ApplicationEventQueue(
            capacity: settings.queueCapacity, coalescingThreshold: settings.coalescingThreshold)
        self.taps = TapTracker(settings: settings.tap)
        self.isReceivingRemoteControlEvents = settings.receivesRemoteControlEvents
        for spec in gestureRecognizers {
            do { try addGestureRecognizer(spec) } catch { preconditionFailure("gesture recognizer \(spec.id): \(error)") }
        }
        for spec in controls {
            do { try addControl(spec) } catch { preconditionFailure("control: \(error)") }
        }
        for traits in firstResponderTraits { setFirstResponderTraits(traits) }
        for responder in initialFirstResponders { _ = try? becomeFirstResponder(responder, cause: .layout) }
    }

    /// The touches currently down, in the order they began.
    public var activeTouches: [Touch] { live.inBeganOrder }

    // MARK: - Queue

    /// Offers an input frame to the event queue (see ``ApplicationEventQueue`` for the policy).
    public mutating func enqueue(_ frame: InputFrame) -> EnqueueOutcome { enqueue(.touches(frame)) }

    /// Offers any event (touches, presses, remote control, motion) to the one FIFO queue. A
    /// move-only frame of a window with a refresh rate waits for the window's next display tick
    /// (``displayTick(for:)``); everything else is due at once.
    public mutating func enqueue(_ event: QueuedEvent) -> EnqueueOutcome { queue.enqueue(event, dueAt: displayTick(for: event)) }

    /// When `event` is due: a move-only frame of a window whose refresh rate f is above 0 at the
    /// first tick at or after its time (ticks at whole multiples of 1/f seconds on the input's
    /// clock), or, when that tick's moves were dispatched already (the frame was read after its
    /// tick), at the first tick after them; every other event at once (``InputTime/distantPast``).
    public func displayTick(for event: QueuedEvent) -> InputTime {
        guard case .touches(let frame) = event, frame.isMoveOnly else { return .distantPast }
        let rate = tree.refreshRate(of: frame.window)
        guard rate > 0 else { return .distantPast }
        let tick = InputTime(seconds: (frame.timestamp.seconds * rate).rounded(.up) / rate)
        guard tick <= ticksDispatched else { return tick }
        return InputTime(seconds: ((ticksDispatched.seconds * rate).rounded(.down) + 1) / rate)
    }

    /// When the next display tick with moves waiting for it is (input time), for the
    /// daemon's timer; `nil` when no move waits.
    public var nextDisplayTick: InputTime? { queue.nextTick }

    /// Dispatches the oldest queued event, due or not, or returns `nil` when the queue is empty.
    public mutating func dispatchNext() -> DispatchReport? {
        guard let event = queue.dequeue() else { return nil }
        return dispatch(event, hitsReady: { _ in })
    }

    /// Dispatches one event; a touch-down frame's hit records go to `hitsReady` as soon as its
    /// hit-tests are done, before any view, recognizer or control hears of it.
    private mutating func dispatch(_ event: QueuedEvent, hitsReady: ([HitRecord]) -> Void) -> DispatchReport {
        switch event {
        case .touches(let frame): dispatchTouches(frame, hitsReady: hitsReady)
        case .presses(let input): dispatchPresses(input)
        case .remoteControl(let input): dispatchRemoteControl(input)
        case .motion(let input): dispatchMotion(input)
        }
    }

    /// Dispatches every queued event, oldest first, moves waiting for their tick included.
    public mutating func dispatchAll() -> [DispatchReport] {
        var reports: [DispatchReport] = []
        while let report = dispatchNext() { reports.append(report) }
        return reports
    }

    /// Dispatches the queued events due by `time` (input time), oldest first: moves whose
    /// display tick has come, and everything queued before an event due at once. Recognizer timers
    /// due before a move's tick fire before it, at their own times.
    public mutating func dispatchDue(by time: InputTime) -> [DispatchReport] {
        var reports: [DispatchReport] = []
        dispatchDue(by: time, hitsReady: { _ in }, dispatched: { reports.append($0) })
        return reports
    }

    /// Dispatches the queued events due by `time`, as ``dispatchDue(by:)`` does, handing each
    /// report to `dispatched` as soon as it is made, and a touch-down frame's hit records to
    /// `hitsReady` as soon as its hit-tests are done (after the reports before it, before its
    /// views, recognizers and controls are called): a caller can send the hits ahead of the rest.
    public mutating func dispatchDue(
        by time: InputTime, hitsReady: ([HitRecord]) -> Void, dispatched: (DispatchReport) -> Void
    ) {
        dispatch(dueBy: time, at: time, hitsReady: hitsReady, dispatched: dispatched)
    }

    /// Dispatches every queued event at input time `time`, moves waiting for their tick included:
    /// what must see all the input so far (a request, a removal, a reload). Recognizer timers due
    /// by a waiting move's tick, or by `time` if that comes first, fire before it.
    public mutating func flush(at time: InputTime) -> [DispatchReport] {
        var reports: [DispatchReport] = []
        flush(at: time, hitsReady: { _ in }, dispatched: { reports.append($0) })
        return reports
    }

    /// Dispatches every queued event at input time `time`, as ``flush(at:)`` does, handing each
    /// report and the hit records of touch-down frames on as ``dispatchDue(by:hitsReady:dispatched:)``
    /// does.
    public mutating func flush(at time: InputTime, hitsReady: ([HitRecord]) -> Void, dispatched: (DispatchReport) -> Void) {
        dispatch(dueBy: .distantFuture, at: time, hitsReady: hitsReady, dispatched: dispatched)
    }

    private mutating func dispatch(
        dueBy limit: InputTime, at time: InputTime, hitsReady: ([HitRecord]) -> Void, dispatched: (DispatchReport) -> Void
    ) {
        if limit < .distantFuture { ticksDispatched = max(ticksDispatched, limit) }
        while let (event, due) = queue.take(dueBy: limit) {
            if due > .distantPast, let report = advanceTime(to: min(due, time)) { dispatched(report) }
            dispatched(dispatch(event, hitsReady: hitsReady))
        }
    }

    /// Fires every recognizer timer still pending (a replay's end), at its own time.
    public mutating func flushTimers() -> DispatchReport? { advanceTime(to: .distantFuture) }

    /// Queues `frame` and dispatches what is due by its time, making room first if the queue is full.
    public mutating func send(_ frame: InputFrame) -> [DispatchReport] { send(.touches(frame)) }

    /// Advances input time to `event`'s and queues it, as a replay steps: the moves whose display
    /// tick came before it are dispatched first, then the event is queued (room made first if the
    /// queue is full) and what is due by its time dispatched. A move waits for its tick, until a
    /// later `send`, ``dispatchDue(by:)`` or ``dispatchAll()``; everything else is dispatched now.
    public mutating func send(_ event: QueuedEvent) -> [DispatchReport] {
        var reports: [DispatchReport] = []
        send(event, hitsReady: { _ in }, dispatched: { reports.append($0) })
        return reports
    }

    /// Sends `event` as ``send(_:)`` does, handing each report and the hit records of touch-down
    /// frames on as ``dispatchDue(by:hitsReady:dispatched:)`` does, without a list of the reports.
    public mutating func send(_ event: QueuedEvent, hitsReady: ([HitRecord]) -> Void, dispatched: (DispatchReport) -> Void) {
        let time = event.timestamp
        if !queue.isEmpty { dispatch(dueBy: time.justBefore, at: time.justBefore, hitsReady: hitsReady, dispatched: dispatched) }
        while enqueue(event) == .full {
            guard let oldest = queue.dequeue() else { break }
            dispatched(dispatch(oldest, hitsReady: hitsReady))
        }
        dispatch(dueBy: time, at: time, hitsReady: hitsReady, dispatched: dispatched)
    }

    // MARK: - Changing the tree

    /// Replaces a view's properties between events. Touches already down keep their view. A first
    /// responder that is now hidden resigns (see ``takeFirstResponderChanges()``).
    public mutating func updateView(_ id: ResponderID, _ change: (inout ViewProperties) -> Void) throws(ViewTreeError) {
        try tree.updateView(id, change)
        enforceFirstResponders()
    }

    /// Adds a view on top of `parent`'s subviews between events. Its id must be new among the
    /// responders and the gesture recognizers (whose ids name them in actions and filters too).
    public mutating func addView(_ id: ResponderID, parent: ResponderID, _ properties: ViewProperties) throws(ViewTreeError) {
        guard gestures.recognizers[id] == nil else { throw .duplicateID(id) }
        try tree.addView(id, parent: parent, properties)
    }

    /// Removes a view and its subtree between events. Touches whose view goes are cancelled first,
    /// through the responder chain they began in. What the views were (handlers, recognizers,
    /// controls, `forward`) goes with them: a view added later under one's name starts afresh.
    public mutating func removeView(_ id: ResponderID, timestamp: InputTime) throws(ViewTreeError) -> DispatchReport? {
        guard tree.kind(of: id) == .view else { throw .unknownView(id) }
        let snapshot = tree
        let inSubtree = { (touch: Touch) in touch.view.map { snapshot.isDescendant($0, of: id) } ?? false }
        // Touches whose end a recognizer still holds back: their views get the cancellation now,
        // in the same report (with what goes on to the virtual touchscreens and the handlers' changes).
        var report = DispatchReport.joined(
            cancelTouches(timestamp: timestamp, where: inSubtree), cancelHeldTouches(timestamp: timestamp, where: inSubtree))
        let removed = try tree.removeView(id)
        // A view added later under a removed one's name may have another path.
        scratch.hitPaths.removeAll()
        var waiters: [ResponderID] = []
        for responder in removed {
            handlers.removeAll(for: responder)
            waiters += gestures.remove(attachedTo: responder)
            controls[responder] = nil
            responderTraits[responder] = nil
            // Its touches were cancelled above: its `forward` goes with it.
            forwarding.modes[responder] = nil
        }
        // Recognizers that waited for a removed one to fail decide again, as if it had failed.
        report = DispatchReport.joined(report, decideAgain(waiters, time: timestamp))
        enforceFirstResponders()
        return report
    }

    /// Numbers this application's touches and presses after `previous`'s (the application of a
    /// reloaded layout replacing it), so that a number stays unique for the daemon's life.
    public mutating func continueNumbering(after previous: Application) {
        nextTouchID = max(nextTouchID, previous.nextTouchID)
        nextPressID = max(nextPressID, previous.nextPressID)
    }

    /// Takes over the keys `previous` cancelled while they were held down (``cancelAllPresses(timestamp:)``
    /// before a reload): when they come up here, that is no fault of the device.
    public mutating func adoptCancelledPresses(from previous: Application) {
        cancelledPresses = previous.cancelledPresses
    }

    /// Adds a handler between events.
    public mutating func addHandler(_ handler: Handler) { handlers.add(handler) }

    /// Cancels every live touch (shutdown, reload), delivering `touchesCancelled` up their chains,
    /// and every touch whose end a recognizer still holds back: the views that saw it begin get
    /// its cancellation now, since no recognizer will decide about it any more.
    public mutating func cancelAllTouches(timestamp: InputTime) -> DispatchReport? {
        DispatchReport.joined(cancelTouches(timestamp: timestamp) { _ in true }, cancelHeldTouches(timestamp: timestamp) { _ in true })
    }

    /// Cancels the live touches of one device (it was removed).
    public mutating func cancelTouches(ofDevice device: String, timestamp: InputTime) -> DispatchReport? {
        cancelTouches(timestamp: timestamp) { $0.device == device }
    }
}
