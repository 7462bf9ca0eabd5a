import TouchEvdev

extension FrameAssembler {
    /// Runs one ``EvdevDevice/ReadResult`` through the assembler: normal events through
    /// ``feed(_:)``, a `SYN_DROPPED` and its sync delta through ``resync(with:at:)``.
    ///
    /// A removal's events are fed too; cancelling the contacts still live is left to the caller
    /// (``finish(at:)``), which knows when the removal happened.
    ///
    /// - Returns: The frames, in order.
    public mutating func assemble(_ result: EvdevDevice.ReadResult) -> [ContactFrame] {
        var frames: [ContactFrame] = []
        func feedAll(_ events: [InputEvent]) {
            for event in events {
                if let frame = feed(event) { frames.append(frame) }
            }
        }
        switch result {
        case .events(let events), .removed(let events):
            feedAll(events)
        case .resync(let before, let dropped, let delta, let after):
            feedAll(before)
            _ = feed(dropped)
            if let frame = resync(with: delta, at: delta.last?.time ?? dropped.time) { frames.append(frame) }
            feedAll(after)
        }
        return frames
    }
}
