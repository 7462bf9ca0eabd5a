import TouchCore
import TouchEvdev

/// The frame assembler fed a raw event stream, as a live device's reads or a recording give it.
///
/// The first bytes describe a device (protocol B with 0 to 255 slots or a declared count past
/// ``TouchCore/Limits/maximumSlots``, protocol A, or single-touch; which optional axes and keys it
/// has; its axis ranges, plain or extreme). The rest is events, each picked from the codes an
/// assembler reads (and any code), with values small, signed, extreme or raw, grouped into reads:
/// normal events, `SYN_DROPPED` with a sync delta, and removals.
///
/// Checked: the raw reader's sanitising of every event (``EvdevState``); the life of every
/// contact (``ContactLifeCheck``); frames stamped with the time of the `SYN_REPORT` that made
/// them; and, at the end of the stream, ``FrameAssembler/finish(at:)`` cancelling every contact
/// still down, so none is left neither ended nor cancelled.
public enum FrameFuzzing {
    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        var input = FuzzBytes(bytes)
        let description = FuzzDevice.description(from: &input)
        try feed(&input, to: description)
    }

    /// Feeds the events the rest of `input` describes to an assembler for `description`, checking
    /// each frame, and finishes the stream.
    static func feed(_ input: inout FuzzBytes, to description: DeviceDescription) throws(FuzzViolation) {
        var assembler = FrameAssembler(description: description)
        var check = ContactLifeCheck()
        var stream = FuzzEventStream()
        var state = EvdevState(codes: description.codes, slotCount: description.absInfo[AbsCode.mtSlot].map { Int($0.maximum) + 1 })
        while !input.isAtEnd {
            let read = stream.nextRead(from: &input)
            try admit(read, to: &state)
            var frames: [ContactFrame] = []
            assembler.decode(read, into: &frames)
            for frame in frames { try check.check(frame) }
            try checkTimes(frames, of: read)
            if read.isRemoval { try check.checkFinish(assembler.finish(at: stream.time)) }
            _ = assembler.takeAnomalies()
        }
        try check.checkFinish(assembler.finish(at: stream.time))
        try require(assembler.finish(at: stream.time) == nil, "a second finish cancelled contacts again")
    }

    /// The raw reader's sanitising (``EvdevState/admit(_:)``) takes any event: a kept slot index is
    /// one of the device's slots, and a kept tracking id changes its slot from free to taken or back.
    private static func admit(_ read: DeviceRead, to state: inout EvdevState) throws(FuzzViolation) {
        for original in read.allEvents {
            var event = original
            let slotBefore = state.currentSlot
            let idBefore = slotBefore.flatMap { state.slotValue(slot: $0, code: AbsCode.mtTrackingID) }
            guard state.admit(&event) else { continue }
            try require(event.type == original.type && event.code == original.code, "admitting changed an event's type or code")
            if let slots = state.slotCount, let slot = state.currentSlot {
                try require(slot >= 0 && slot < slots, "slot \(slot) selected of \(slots)")
            }
            if event.type == EventType.abs && event.code == AbsCode.mtTrackingID, let idBefore {
                try require((idBefore == -1) != (event.value == -1), "tracking id \(idBefore) -> \(event.value) kept")
            }
        }
    }

    /// Every frame of a read without resyncs is stamped with one of its `SYN_REPORT`s' times.
    private static func checkTimes(_ frames: [ContactFrame], of read: DeviceRead) throws(FuzzViolation) {
        var reportTimes: Set<EventTime> = []
        for segment in read.segments {
            guard case .events(let events) = segment else { return }
            for event in events where event.type == EventType.syn && event.code == SynCode.report { reportTimes.insert(event.time) }
        }
        for frame in frames {
            try require(reportTimes.contains(frame.time), "a frame at \(frame.time), which is no SYN_REPORT's time")
        }
    }

    /// Replays a recording's events through an assembler for its device, as the daemon does:
    /// the same checks as a raw stream.
    static func replay(_ recording: Recording) throws(FuzzViolation) {
        var assembler = FrameAssembler(description: recording.description)
        var check = ContactLifeCheck()
        for event in recording.events {
            if let frame = assembler.feed(event) { try check.check(frame) }
        }
        let end = recording.events.last?.time ?? EventTime(microseconds: 0)
        try check.checkFinish(assembler.finish(at: end))
    }
}
