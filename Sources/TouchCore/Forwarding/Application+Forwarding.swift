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
    func forwardMode(of touch: Touch) -> ForwardMode {
        var current = touch.view ?? touch.window
        while let responder = current {
            if let mode = forwarding.modes[responder] { return mode }
            current = tree.superview(of: responder)
        }
        if let window = touch.window, let mode = forwarding.modes[window] { return mode }
        return .none
    }

    /// A responder call for `touches` started at their view: what it did not consume goes on,
    /// where the touches' mode forwards unclaimed touches. (A claim by a recognizer reaches here
    /// as the views' `touchesCancelled`; a held `touchesBegan`, once its recognizer failed, as the
    /// views' late `touchesBegan`.)
    mutating func forwardCall(_ trigger: HandlerTrigger, _ touches: [Touch], consumed: Bool, report: inout DispatchReport) {
        guard !forwarding.modes.isEmpty, HandlerTrigger.touchMethods.contains(trigger) else { return }
        for touch in touches where forwardMode(of: touch) == .unclaimed {
            // A consumed call keeps a touch that has not gone on; one that has goes on to its end.
            if consumed && !forwarding.live.contains(touch.id) { continue }
            forward(touch, report: &report)
        }
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
            phase = .moved
        case .ended, .cancelled:
            guard forwarding.live.remove(touch.id) != nil else { return }
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
