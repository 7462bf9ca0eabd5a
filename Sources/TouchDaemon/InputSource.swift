import TouchCore
import TouchEvdev
import TouchLayout
import TouchProtocol
import TouchSystem

/// Something that produces input for the daemon on its event loop: real devices, or a recording
/// played back in real time. Every source produces the same ``QueuedEvent`` values.
public protocol InputSource: AnyObject {
    /// Starts producing events on `loop`; `sink` runs on the loop for each one.
    func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws
    /// Stops producing events and releases descriptors and timers.
    func stop()
    /// The layout was replaced (a reload): match the devices to the new `[[device]]` entries and map
    /// them into the new tree from the next event on. A device the new layout no longer takes, or
    /// cannot map, is reported and stops giving input; fingers down now are left out until they
    /// lift, their touches having been cancelled with the old layout.
    func layoutChanged(to layout: LayoutDocument, tree: ViewTree)
    /// The devices the source has, for the `devices` request.
    var deviceDescriptions: [DeviceListing] { get }
    /// The devices present now that were announced with ``InputSourceEvent/deviceAdded(id:description:)``
    /// and not yet removed, as they were announced: what a client subscribing to `devices` is told
    /// of first.
    var presentDevices: [(id: String, description: DeviceListing)] { get }
    /// The source's time now, on the timeline of its events' timestamps: the kernel's
    /// `CLOCK_MONOTONIC` for live devices, the recording's own timeline for a replay. Events touchd
    /// makes itself before any input arrived (cancellations) are stamped with it.
    var now: InputTime { get }
    /// A client subscribed to the daemon, or began recording or calibrating a device (a replay that
    /// waits for one starts playing).
    func subscriberArrived()
    /// How many seconds of the source's timeline pass in a second of the loop's clock: 1 for live
    /// devices, a replay's speed for a recording.
    var timeScale: Double { get }
}

extension InputSource {
    public func subscriberArrived() {}
    public var timeScale: Double { 1 }
}

/// What an input source reports.
public enum InputSourceEvent: Sendable {
    /// An event for the application's queue: touches, presses, remote control or motion.
    case event(QueuedEvent)
    /// A device appeared (its description for the `devices` topic).
    case deviceAdded(id: String, description: DeviceListing)
    /// A device went away: its live touches must be cancelled.
    case deviceRemoved(id: String)
    /// Something odd in the input that the source worked around (for the log, rate-limited).
    case anomaly(String)
    /// A problem the source met that stops some of its input (for the log).
    case problem(String)
    /// The source has nothing more to give (a recording ended).
    case finished
    /// A recorded device's events as they were read (``SessionDeviceSource/setRecording(_:_:)``).
    case raw(device: String, events: [InputEvent])
    /// A held device's raw contact frames (``SessionDeviceSource/setHeld(_:_:)``).
    case heldFrames(device: String, frames: [ContactFrame])
}

/// The daemon's input sources, as one: started, stopped, told of reloads and described together.
public final class InputSources {
    /// The sources, in the order they were given.
    public let sources: [InputSource]
    /// Whether the daemon stops once a source has finished (a replay run with `--exit-after-replay`).
    public let daemonEndsWithInput: Bool

    /// `sources` as one; with `daemonEndsWithInput`, the first source to finish ends the daemon
    /// (only finite sources, recordings, ever finish).
    public init(_ sources: [InputSource] = [], daemonEndsWithInput: Bool = false) {
        self.sources = sources
        self.daemonEndsWithInput = daemonEndsWithInput
    }

    /// Starts every source on `loop`.
    /// - Throws: the first source's error that cannot start.
    public func start(on loop: EventLoop, sink: @escaping (InputSourceEvent) -> Void) throws {
        for source in sources { try source.start(on: loop, sink: sink) }
    }

    /// Stops every source.
    public func stop() {
        for source in sources { source.stop() }
    }

    /// Tells every source of a reloaded layout.
    public func layoutChanged(to layout: LayoutDocument, tree: ViewTree) {
        for source in sources { source.layoutChanged(to: layout, tree: tree) }
    }

    /// Every source's devices, for the `devices` request.
    public var deviceDescriptions: [DeviceListing] { sources.flatMap(\.deviceDescriptions) }

    /// Every source's devices present now (``InputSource/presentDevices``).
    public var presentDevices: [(id: String, description: DeviceListing)] { sources.flatMap(\.presentDevices) }

    /// The input's time before any event arrived: the last source's (a replay's timeline when one
    /// plays); nil without sources.
    public var now: InputTime? { sources.last?.now }

    /// How fast the input's time passes against the loop's clock: the last source's (a replay's
    /// speed when one plays), as ``now``; 1 without sources.
    public var timeScale: Double { sources.last?.timeScale ?? 1 }

    /// Tells every source that a client subscribed.
    public func subscriberArrived() {
        for source in sources { source.subscriberArrived() }
    }
}
