/// What the application passes on to the windows' virtual touchscreens, and the touches there now.
///
/// Each touch's life there is a small state machine, kept here so that a reader never sees a touch
/// move before it landed or lift twice:
///
///     not forwarded --began--> forwarded --moved--> forwarded
///     forwarded --ended / cancelled--> finished (forgotten)
///     not forwarded --moved / ended / cancelled--> not forwarded (nothing is reported)
struct ForwardingState: Sendable {
    /// `forward` of the windows and views that set it.
    var modes: [ResponderID: ForwardMode] = [:]
    /// The touches that began on a virtual touchscreen and have not finished there.
    var live: Set<TouchID> = []
    /// The live touches whose moves went on ahead of their dispatch (``Application/forwardAhead(_:)``):
    /// the input time and place of the last one. A dispatched move no newer is not played again.
    var ahead: [ForwardedAhead] = []

    /// Where and when a touch's last move went on ahead of its dispatch.
    struct ForwardedAhead: Sendable {
        var touch: TouchID
        var timestamp: InputTime
        var location: Point
    }

    /// The touch's last move that went on ahead, if any.
    func ahead(of touch: TouchID) -> ForwardedAhead? {
        for entry in ahead where entry.touch == touch { return entry }
        return nil
    }

    /// Notes a move of a live touch that went on ahead. (A touch's entry goes when it finishes
    /// there, ``forgetAhead(_:)``: there are never more than live touches.)
    mutating func noteAhead(_ entry: ForwardedAhead) {
        for i in ahead.indices where ahead[i].touch == entry.touch {
            ahead[i] = entry
            return
        }
        ahead.append(entry)
    }

    /// Forgets `touch`'s moves that went on ahead (it finished there).
    mutating func forgetAhead(_ touch: TouchID) {
        guard !ahead.isEmpty else { return }
        ahead.removeAll { $0.touch == touch }
    }
}

extension Application {
    /// `forward` of each window and view that sets one: what goes on to the windows' virtual
    /// touchscreens (``ForwardMode``). A view without an entry has its superview's mode, a window
    /// without one ``ForwardMode/none``. Set between events; touches already forwarded finish
    /// there as before.
    public var forwardModes: [ResponderID: ForwardMode] {
        get { forwarding.modes }
        set { forwarding.modes = newValue }
    }

    /// Whether any window or view forwards touches.
    public var forwardsTouches: Bool { forwarding.modes.values.contains { $0 != .none } }

    /// The windows some of whose touches can go on: those whose virtual touchscreen is needed.
    public var forwardingWindows: [ResponderID] {
        var windows: Set<ResponderID> = []
        for (responder, mode) in forwarding.modes where mode != .none {
            if let window = tree.window(of: responder) { windows.insert(window) }
        }
        return windows.sorted()
    }

    /// The mode that applies to a touch: its view's own, else the nearest superview's, else its
    /// window's; ``ForwardMode/none`` when none says.
    func forwardMode(of touch: Touch) -> ForwardMode { forwardMode(view: touch.view, window: touch.window) }

    /// The mode that applies to a touch on `view` (`nil`: on no view) of `window`.
    func forwardMode(view: ResponderID?, window: ResponderID?) -> ForwardMode {
        var current = view ?? window
        while let responder = current {
            if let mode = forwarding.modes[responder] { return mode }
            current = tree.superview(of: responder)
        }
        if let window, let mode = forwarding.modes[window] { return mode }
        return .none
    }

    /// A responder call for `touches` started at their view: what it did not consume goes on,
    /// where the touches' mode forwards unclaimed touches. (A claim by a recognizer reaches here
    /// as the views' `touchesCancelled`; a held `touchesBegan`, once its recognizer failed, as the
    /// views' late `touchesBegan`. A touch cancelled while its began was held never went on: its
    /// late `touchesBegan`, which comes with its cancellation, does not send it down to cancel it.)
    mutating func forwardCall(_ trigger: HandlerTrigger, _ touches: [Touch], consumed: Bool, report: inout DispatchReport) {
        guard !forwarding.modes.isEmpty, HandlerTrigger.touchMethods.contains(trigger) else { return }
        for touch in touches where forwardMode(of: touch) == .unclaimed {
            // A consumed call keeps a touch that has not gone on; one that has goes on to its end.
            if consumed && !forwarding.live.contains(touch.id) { continue }
            if trigger == .touchesBegan && !gestures.isEmpty && wasCancelled(touch.id) { continue }
            forward(touch, report: &report)
        }
    }

    /// Whether the touch `id` was cancelled (it is now, or its held end is a cancellation).
    private func wasCancelled(_ id: TouchID) -> Bool {
        if gestures.touches[id]?.heldEnded?.phase == .cancelled { return true }
        return live.index(of: id).map { live[$0].touch.phase == .cancelled } ?? false
    }

    /// The changed touches that go on whatever the views do: every touch where the mode is
    /// ``ForwardMode/all``, and, where it is ``ForwardMode/unclaimed``, the touches no view's calls
    /// carry (hit no view, or whose view does not get them for lack of multiple touch or for an
    /// exclusive touch elsewhere): nothing in touchd can take those. A forwarded touch whose mode
    /// is gone (its view was removed) ends there all the same.
    mutating func forwardUnrouted(_ touches: [Touch], report: inout DispatchReport) {
        guard !forwarding.modes.isEmpty else { return }
        for touch in touches where touch.phase != .stationary {
            switch forwardMode(of: touch) {
            case .all: forward(touch, report: &report)
            case .unclaimed where touch.delivery != .delivered: forward(touch, report: &report)
            case .unclaimed: break
            case .none:
                // A touch that went on finishes there, even once nothing says it forwards (its
                // view was removed).
                if touch.phase.isFinal && forwarding.live.contains(touch.id) { forward(touch, report: &report) }
            }
        }
    }

    /// One step of `touch` on its window's virtual touchscreen, as the state machine above allows.
    private mutating func forward(_ touch: Touch, report: inout DispatchReport) {
        guard let window = touch.window else { return }
        let phase: ForwardedTouch.Phase
        switch touch.phase {
        case .began:
            guard forwarding.live.insert(touch.id).inserted else { return }
            phase = .began
        case .moved:
            guard forwarding.live.contains(touch.id) else { return }
            // Gone on ahead already (as the frame arrived), this sample or a newer one.
            if let ahead = forwarding.ahead(of: touch.id), ahead.timestamp >= touch.timestamp { return }
            phase = .moved
        case .ended, .cancelled:
            guard forwarding.live.remove(touch.id) != nil else { return }
            forwarding.forgetAhead(touch.id)
            phase = touch.phase == .ended ? .ended : .cancelled
        case .stationary:
            return
        }
        report.forwarded.append(
            ForwardedTouch(
                touch: touch.id, window: window, phase: phase, location: touch.locationInWindow, majorRadius: touch.majorRadius,
                force: touch.force, maximumPossibleForce: touch.maximumPossibleForce, timestamp: touch.timestamp))
    }
}
