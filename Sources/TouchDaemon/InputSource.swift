import TouchCore
import TouchProtocol

/// Something that produces input for the daemon on its event loop: real devices, or a recording
/// played back in real time. Every source produces the same ``InputFrame`` and ``QueuedEvent`` values.
public protocol InputSource: AnyObject {
    /// Starts producing events on `loop`; `sink` runs on the loop for each one.
    func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws
    /// Stops producing events and releases descriptors.
    func stop()
    /// The devices the source has, for the `devices` request.
    var deviceDescriptions: JSONValue { get }
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
