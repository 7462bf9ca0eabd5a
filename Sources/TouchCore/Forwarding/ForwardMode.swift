/// What a window, or a view for its subtree, passes on to the compositor (`forward` in a layout).
///
/// touchd in front of a GUI keeps the touches its own views, recognizers and controls take and
/// passes the rest on, through a virtual touchscreen per window, to whatever reads input behind it.
/// A view without a mode of its own has its superview's; a window without one forwards nothing.
public enum ForwardMode: String, Hashable, Sendable, CaseIterable {
    /// Nothing goes on (the default).
    case none
    /// Touches no touchd handler, recognizer or control takes go on. The counterpart, in UIKit's
    /// terms, of a call that passes up the responder chain unconsumed: the virtual touchscreen is
    /// the next responder of the view that forwards. A recognizer that might still claim a touch
    /// decides, by its own settings, whether the touch goes on at once and is cancelled if the
    /// recognizer wins (`cancels_touches_in_view`) or waits until it fails (`delays_touches_began`).
    case unclaimed
    /// Every touch goes on, whatever touchd does with it too.
    case all
}

/// A touch passed on to a window's virtual touchscreen: one step of its life there.
///
/// A forwarded touch begins once, moves, and then ends or is cancelled once; the application
/// reports nothing else (``Application/forwardModes``).
public struct ForwardedTouch: Hashable, Sendable {
    /// What happened to the touch on the virtual touchscreen.
    public enum Phase: String, Hashable, Sendable {
        /// It landed (or, held back until a recognizer failed, it lands now where it began).
        case began
        case moved
        /// It lifted.
        case ended
        /// touchd took it after all (a recognizer recognized): the reader is told to forget it
        /// rather than see it lift, which would be a tap.
        case cancelled
    }

    public var touch: TouchID
    /// The window whose virtual touchscreen gets it.
    public var window: ResponderID
    public var phase: Phase
    /// In the window's points.
    public var location: Point
    /// The touch's major radius in points; 0 when its device does not tell.
    public var majorRadius: Double
    /// Its force, of ``maximumPossibleForce``; both 0 when its device does not tell.
    public var force: Double
    public var maximumPossibleForce: Double
    /// The input's time of the event that moved it on.
    public var timestamp: InputTime

    public init(
        touch: TouchID, window: ResponderID, phase: Phase, location: Point, majorRadius: Double = 0, force: Double = 0,
        maximumPossibleForce: Double = 0, timestamp: InputTime
    ) {
        self.touch = touch
        self.window = window
        self.phase = phase
        self.location = location
        self.majorRadius = majorRadius
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
        self.timestamp = timestamp
    }
}
