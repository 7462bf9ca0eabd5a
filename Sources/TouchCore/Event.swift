/// The kind of an event. The counterpart of `UIEvent.EventType`.
public enum EventType: String, Hashable, Sendable {
    case touches
    case presses
    case motion
    case remoteControl = "remote_control"
}

/// One event dispatched from the application's queue. The counterpart of `UIEvent`.
public struct Event: Hashable, Sendable {
    public var type: EventType
    /// When, on the input's timeline (from the kernel's event timestamp).
    public var timestamp: InputTime
    /// Every touch of the event: all fingers currently down, including stationary ones and those
    /// ending in this event (`allTouches`).
    public var allTouches: [Touch]

    public init(type: EventType, timestamp: InputTime, allTouches: [Touch]) {
        self.type = type
        self.timestamp = timestamp
        self.allTouches = allTouches
    }

    /// The touches whose hit-test view is `view` (`touches(for: UIView)`).
    public func touches(for view: ResponderID) -> [Touch] { allTouches.filter { $0.view == view } }

    /// The touches that belong to `window` (`touches(for: UIWindow)`).
    public func touches(forWindow window: ResponderID) -> [Touch] { allTouches.filter { $0.window == window } }
}
