import TouchCore
import TouchLayout
import TouchProtocol

/// Something that produces input for the daemon on its event loop: real devices, or a recording
/// played back in real time. Every source produces the same ``InputFrame`` and ``QueuedEvent`` values.
public protocol InputSource: AnyObject {
    /// Starts producing events on `loop`; `sink` runs on the loop for each one.
    func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws
    /// Stops producing events and releases descriptors.
    func stop()
    /// The layout was replaced (a reload): match the devices to the new `[[device]]` entries and map
    /// them into the new tree from the next event on. A device the new layout no longer takes, or
    /// cannot map, is reported (logged) and stops giving input; fingers down now are left out until
    /// they lift, their touches having been cancelled with the old layout.
    func layoutChanged(to layout: LayoutDocument, tree: ViewTree)
    /// The devices the source has, for the `devices` request.
    var deviceDescriptions: JSONValue { get }
    /// The source's clock now, in seconds, on the timeline of its frames' timestamps: the kernel's
    /// `CLOCK_MONOTONIC` for live devices, the recording's own timeline for a replay. Events touchd
    /// makes itself (cancellations) are stamped with it, so they read in line with the input.
    var clock: Double { get }
}

extension InputSource {
    /// The kernel's monotonic clock, which evdev stamps live events with.
    public var clock: Double { Daemon.monotonicNow() }
}

/// What an input source reports.
public enum InputSourceEvent: Sendable {
    /// A frame of touches, mapped into a window.
    case frame(InputFrame)
    /// Any event for the application's queue: touches, presses, remote control or motion.
    case event(QueuedEvent)
    /// A device appeared (its description for the `devices` topic).
    case deviceAdded(id: String, description: JSONValue)
    /// A device went away: its live touches must be cancelled.
    case deviceRemoved(id: String)
    /// The source has nothing more to give (a recording ended).
    case finished
}
