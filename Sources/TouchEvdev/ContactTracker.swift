/// How a device's contacts are followed from frame to frame: protocol B's slots
/// (``SlotTracker``), protocol A's anonymous reports (``AnonymousTracker``) or a single-touch
/// device's one contact (``SingleTouchTracker``). ``FrameAssembler`` keeps one and gives it each
/// frame's events; the tracker says what began, moved, ended or was cancelled through the
/// ``FrameOutput``.
protocol ContactTracker: Sendable {
    /// Takes one event of the frame being assembled (`shared` already includes it).
    mutating func handle(_ event: InputEvent, shared: SharedState, output: inout FrameOutput)
    /// Settles the frame at its `SYN_REPORT`: each contact is emitted with its phase.
    mutating func endFrame(shared: SharedState, output: inout FrameOutput)
    /// Cancels every contact that is down; none is reported again until it lifts.
    mutating func cancelAll(output: inout FrameOutput)
    /// Takes a whole frame's events, then settles it. The assembler's one entry for a frame, so
    /// that its loop over the events is compiled for each tracker rather than dispatched per event.
    mutating func assemble(_ events: [InputEvent], shared: inout SharedState, output: inout FrameOutput)
}

extension ContactTracker {
    mutating func assemble(_ events: [InputEvent], shared: inout SharedState, output: inout FrameOutput) {
        shared.beginFrame()
        for event in events {
            shared.apply(event)
            handle(event, shared: shared, output: &output)
        }
        endFrame(shared: shared, output: &output)
    }
}
