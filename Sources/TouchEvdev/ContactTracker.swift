/// One way of following a device's contacts from frame to frame (``MultitouchProtocol``): by
/// slot and tracking id (``SlotTracker``, protocol B), by matching anonymous contacts
/// (``AnonymousTracker``, protocol A), or as the one contact of a single-touch device
/// (``SingleTouchTracker``). ``FrameAssembler`` drives whichever its device needs, the same way.
protocol ContactTracker: Sendable {
    /// Takes one event of the frame in progress (`shared` already holds its effect on the axes
    /// every contact shares).
    mutating func handle(_ event: InputEvent, shared: SharedState, output: inout FrameOutput)
    /// The frame's `SYN_REPORT` came: settles every contact into `output`.
    mutating func endFrame(shared: SharedState, output: inout FrameOutput)
    /// Cancels every live contact into `output` (the device went away, the stream ended).
    mutating func cancelAll(output: inout FrameOutput)
}

extension SlotTracker: ContactTracker {}
extension AnonymousTracker: ContactTracker {}
extension SingleTouchTracker: ContactTracker {}
