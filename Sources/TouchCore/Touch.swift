/// The phase of a touch. The counterpart of `UITouch.Phase`.
public enum TouchPhase: String, Hashable, Sendable, CaseIterable {
    case began
    case moved
    case stationary
    case ended
    case cancelled

    /// Whether a touch in this phase has finished (ended or cancelled).
    public var isFinal: Bool {
        switch self {
        case .ended, .cancelled: true
        case .began, .moved, .stationary: false
        }
    }
}

/// A touch's unique number in one application: never reused.
public typealias TouchID = UInt64

/// One finger on a surface, for its whole life. The counterpart of `UITouch`.
///
/// Positions are kept in the touch's window's coordinates; ``location(in:of:)`` converts them into
/// any view's, as `location(in:)` does.
public struct Touch: Hashable, Sendable {
    /// Stable for the finger's whole life; unique within the application.
    public let id: TouchID
    /// The device that reported the touch (its stable identity).
    public let device: String
    /// The device's own number for the contact.
    public let contact: UInt64
    public internal(set) var phase: TouchPhase
    /// When, on the input's timeline (from the input event's kernel timestamp).
    public internal(set) var timestamp: InputTime
    /// How many taps in a row this touch is (1 for a single tap), fixed at touch-down.
    public internal(set) var tapCount: Int
    /// Half the contact's major axis, in points.
    public internal(set) var majorRadius: Double
    /// How far ``majorRadius`` may be off, in points.
    public internal(set) var majorRadiusTolerance: Double
    /// Pressure where 1.0 is an average touch; 0 when the device has no pressure.
    public internal(set) var force: Double
    /// The largest possible ``force``; 0 when the device has no pressure.
    public internal(set) var maximumPossibleForce: Double
    /// The window the touch belongs to (`window`), or `nil` when no window took it.
    public let window: ResponderID?
    /// The hit-test view at touch-down (`view`). It never changes, even when the finger leaves it.
    public let view: ResponderID?
    /// The position in window coordinates.
    public internal(set) var locationInWindow: Point
    /// The previous position in window coordinates (the same as the location at touch-down).
    public internal(set) var previousLocationInWindow: Point
    /// The time and place of touch-down.
    public let beganAt: InputTime
    public let beganLocationInWindow: Point
    /// Whether the touch is delivered to its view's responder chain (see ``TouchDelivery``).
    public internal(set) var delivery: TouchDelivery
    /// Samples merged into this update when the event queue coalesced moves (oldest first).
    public internal(set) var coalescedSamples: [TouchSample]
    /// The position in its view's coordinates when it was last dispatched (`location(in:
    /// touch.view)`), so that what reads a dispatched touch needs no tree; `nil` when the touch has
    /// no view or its view had left the tree.
    public internal(set) var locationInView: Point? = nil
    /// The previous position in its view's coordinates when it was last dispatched
    /// (`previousLocation(in: touch.view)`); `nil` as ``locationInView``.
    public internal(set) var previousLocationInView: Point? = nil

    /// The position in `view`'s coordinates, or in the window's when `view` is `nil`
    /// (`location(in:)`). `nil` when `view` is not in the tree.
    public func location(in view: ResponderID?, of tree: ViewTree) -> Point? {
        guard let view else { return locationInWindow }
        return tree.convert(locationInWindow, fromWindowTo: view)
    }

    /// The previous position in `view`'s coordinates (`previousLocation(in:)`).
    public func previousLocation(in view: ResponderID?, of tree: ViewTree) -> Point? {
        guard let view else { return previousLocationInWindow }
        return tree.convert(previousLocationInWindow, fromWindowTo: view)
    }
}

/// Whether a touch reaches its view's responder chain.
public enum TouchDelivery: Hashable, Sendable {
    /// Delivered to the hit-test view and up the chain.
    case delivered
    /// No view took the point.
    case noView
    /// The view has `isMultipleTouchEnabled == false` and already tracks a touch.
    case multipleTouchDisabled
    /// Another view of the window is exclusive-touch and tracks a touch, or this view is
    /// exclusive-touch while others track touches.
    case exclusiveTouchElsewhere
}

/// One position sample of a touch, kept when the event queue merges moves for a display tick or
/// under backlog (UIKit's coalesced touches).
public struct TouchSample: Hashable, Sendable {
    public var timestamp: InputTime
    public var locationInWindow: Point
    public var force: Double
    public var majorRadius: Double
    /// The position in the touch's view when the sample was dispatched with its touch (as
    /// ``Touch/locationInView``); `nil` before, or when the touch has no view.
    public internal(set) var locationInView: Point? = nil

    public init(timestamp: InputTime, locationInWindow: Point, force: Double, majorRadius: Double) {
        self.timestamp = timestamp
        self.locationInWindow = locationInWindow
        self.force = force
        self.majorRadius = majorRadius
    }
}

/// A touch's samples as the input-rate messages read them: its own (newest) sample, those merged
/// before it (oldest first) and where it was before them. A ``Touch`` is one (dispatched, or a
/// waiting move's as ``Application/waitingMoveTouches(sentThrough:)`` makes it);
/// ``WaitingTouchSamples`` is the lighter one the messages sent as frames arrive are made from.
public protocol SampledTouch {
    /// The merged samples, indexed from `startIndex`.
    associatedtype Samples: RandomAccessCollection where Samples.Element == TouchSample, Samples.Index == Int
    var id: TouchID { get }
    var device: String { get }
    var window: ResponderID? { get }
    var view: ResponderID? { get }
    var phase: TouchPhase { get }
    var timestamp: InputTime { get }
    var locationInWindow: Point { get }
    var previousLocationInWindow: Point { get }
    var force: Double { get }
    var majorRadius: Double { get }
    var coalescedSamples: Samples { get }
    var tapCount: Int { get }
    var majorRadiusTolerance: Double { get }
    var maximumPossibleForce: Double { get }
    /// The newest sample's place in the touch's view, and the place before the merged samples
    /// (each merged sample has its own, ``TouchSample/locationInView``); `nil` without a view.
    var locationInView: Point? { get }
    var previousLocationInView: Point? { get }
}

extension Touch: SampledTouch {}

/// One touch's samples in a move waiting for its display tick that no client of the input's rate
/// has had yet, without the rest of the touch (``Application/waitingMoveSamples(sentThrough:inView:)``):
/// its newest sample, the merged ones before it not sent yet, read where the waiting move keeps
/// them, and where it was before those, with what the touch says of its size and force. It moved:
/// its phase is `moved`. Its places in its view (its own, the one before and each merged sample's)
/// are the view's as it is now when they were asked for, and `nil` when not (or without a view).
public struct WaitingTouchSamples: SampledTouch, Hashable, Sendable {
    public let id: TouchID
    public let device: String
    public let window: ResponderID?
    public let view: ResponderID?
    public var phase: TouchPhase { .moved }
    /// The newest sample's time, place, force and size.
    public let timestamp: InputTime
    public let locationInWindow: Point
    /// Where it was before the first of the new samples.
    public let previousLocationInWindow: Point
    public let force: Double
    public let majorRadius: Double
    public let tapCount: Int
    public let majorRadiusTolerance: Double
    public let maximumPossibleForce: Double
    public let locationInView: Point?
    public let previousLocationInView: Point?
    public let coalescedSamples: ArraySlice<TouchSample>
}
