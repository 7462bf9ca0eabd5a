import Testing
import TouchDevices
import TouchEvdev
import TouchSystem

#if canImport(Glibc)
import Glibc
#endif

/// The raw reading protocol without a device: scripted `read(2)` batches and a scripted sync
/// delta; what the drain keeps, skips and discards, and the state it hands to a resync.
@Suite(.timeLimit(.minutes(10))) struct EventDrainTests {
    /// One scripted `read(2)`.
    enum Step {
        /// A batch that filled the read's room.
        case batch([InputEvent])
        /// A batch short of the read's room: the device held no more.
        case lastBatch([InputEvent])
        case failed(SystemError)
    }

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32, at microseconds: Int64 = 1) -> InputEvent {
        InputEvent(time: EventTime(microseconds: microseconds), type: type, code: code, value: value)
    }

    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent { event(EventType.abs, code, value) }

    static let report = event(EventType.syn, SynCode.report, 0)
    static let dropped = event(EventType.syn, SynCode.dropped, 0)

    /// What a drain gave, and the states each resync started from.
    struct Outcome {
        var read: DeviceRead
        var error: SystemError?
        var resyncStates: [EvdevState]
        var state: EvdevState
        /// How many reads the drain made (the last one past the script reads `EAGAIN`).
        var reads: Int
    }

    /// Drains the scripted reads; each resync gives the next of `deltas` (and brings the state to
    /// what the delta shows, as libevdev does).
    func drain(_ steps: [Step], deltas: [(delta: [InputEvent], failure: SystemError?)] = [],
               state initial: EvdevState = Self.screenState()) -> Outcome {
        var state = initial
        var batch: [InputEvent] = []
        var previous = DeviceRead()
        var stepIndex = 0
        var resyncStates: [EvdevState] = []
        let result = EventDrain.drain(
            state: &state, batch: &batch, previous: &previous,
            next: { batch in
                batch.removeAll()
                defer { stepIndex += 1 }
                guard stepIndex < steps.count else { return .done }
                switch steps[stepIndex] {
                case .batch(let events): batch = events; return .read
                case .lastBatch(let events): batch = events; return .readAll
                case .failed(let error): return .failed(error)
                }
            },
            resync: { state in
                resyncStates.append(state)
                let (delta, failure) = resyncStates.count <= deltas.count ? deltas[resyncStates.count - 1] : ([], nil)
                for event in delta { var event = event; _ = state.admit(&event) }
                return (delta, failure)
            })
        #expect(stepIndex <= steps.count + 1, "the drain read \(stepIndex) times")
        return Outcome(read: result.read, error: result.error, resyncStates: resyncStates, state: state, reads: stepIndex)
    }

    static func screenState() -> EvdevState {
        EvdevState(codes: DrainTestDevice.slottedScreen.codes, slotCount: 2)
    }

    @Test func twoDropsInOneDrainAreBothReadAndDecodedInOrder() throws {
        let down = [Self.abs(AbsCode.mtSlot, 0), Self.abs(AbsCode.mtTrackingID, 5), Self.abs(AbsCode.mtPositionX, 10), Self.report]
        let moveDelta = [Self.abs(AbsCode.mtPositionX, 20), Self.report]
        let liftDelta = [Self.abs(AbsCode.mtTrackingID, -1), Self.report]
        let after = [Self.abs(AbsCode.mtTrackingID, 6), Self.abs(AbsCode.mtPositionX, 30), Self.report]
        let outcome = drain(
            [.batch(down), .batch([Self.dropped]), .batch([Self.dropped]), .batch(after)],
            deltas: [(moveDelta, nil), (liftDelta, nil)])
        #expect(outcome.error == nil && !outcome.read.isRemoval)
        #expect(outcome.read.segments == [
            .events(down), .resync(dropped: Self.dropped, delta: moveDelta), .resync(dropped: Self.dropped, delta: liftDelta), .events(after),
        ])
        #expect(outcome.read.drops.count == 2)

        var assembler = FrameAssembler(description: DrainTestDevice.slottedScreen)
        var frames: [ContactFrame] = []
        assembler.decode(outcome.read, into: &frames)
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.moved], [.cancelled], [.began]])
        #expect(assembler.finish(at: EventTime(microseconds: 2))?.contacts.map(\.phase) == [.cancelled], "only the new finger is down")
    }

    @Test func aResyncStartsFromTheStateTheReadsLeftAndEndsAtTheDeltas() {
        let down = [Self.abs(AbsCode.mtSlot, 1), Self.abs(AbsCode.mtTrackingID, 9), Self.abs(AbsCode.mtPositionX, 400), Self.report]
        let outcome = drain([.batch(down + [Self.dropped])], deltas: [([Self.abs(AbsCode.mtPositionX, 410), Self.report], nil)])
        let before = outcome.resyncStates.first
        #expect(before?.currentSlot == 1)
        #expect(before?.slotValue(slot: 1, code: AbsCode.mtTrackingID) == 9)
        #expect(before?.slotValue(slot: 1, code: AbsCode.mtPositionX) == 400)
        #expect(before?.slotValue(slot: 0, code: AbsCode.mtTrackingID) == -1)
        #expect(outcome.state.slotValue(slot: 1, code: AbsCode.mtPositionX) == 410, "the delta's values are the state after it")
    }

    @Test func eventsAfterADropInItsBatchAreDiscardedAndReadingGoesOn() {
        let stale = [Self.abs(AbsCode.mtPositionX, 999), Self.report]
        let next = [Self.abs(AbsCode.mtPositionY, 7), Self.report]
        let outcome = drain([.batch([Self.report, Self.dropped] + stale), .batch(next)], deltas: [([], nil)])
        #expect(outcome.read.segments == [.events([Self.report]), .resync(dropped: Self.dropped, delta: []), .events(next)])
        #expect(outcome.state.slotValue(slot: 0, code: AbsCode.mtPositionX) == 0, "the discarded events never reached the state")
    }

    @Test func eventsLibevdevDropsAreSkippedAndAStraySlotIsCapped() {
        let unknown = Self.abs(AbsCode.pressure, 50)
        let doubleLift = Self.abs(AbsCode.mtTrackingID, -1)
        let stray = Self.abs(AbsCode.mtSlot, 7)
        let outcome = drain([.batch([unknown, Self.abs(AbsCode.mtSlot, 0), doubleLift, stray, Self.abs(AbsCode.mtTrackingID, 3), Self.report])])
        #expect(outcome.read.allEvents == [
            Self.abs(AbsCode.mtSlot, 0), Self.abs(AbsCode.mtSlot, 1), Self.abs(AbsCode.mtTrackingID, 3), Self.report,
        ])
        #expect(outcome.state.slotValue(slot: 1, code: AbsCode.mtTrackingID) == 3)
    }

    @Test func anUnplugEndsTheReadAsARemovalWithWhatCameBefore() {
        let gone = SystemError(call: "read", subject: "/dev/input/event5", errno: ENODEV)
        let outcome = drain([.batch([Self.report]), .failed(gone)])
        #expect(outcome.error == nil, "an unplug is no fault")
        #expect(outcome.read.isRemoval && outcome.read.allEvents == [Self.report])
    }

    @Test func aFailureInsideADeltaKeepsTheDeltaAndReportsTheError() {
        let failure = SystemError(call: "libevdev_next_event", subject: "/dev/input/event5", errno: EIO)
        let delta = Self.abs(AbsCode.mtPositionX, 7)
        let outcome = drain([.batch([Self.dropped]), .batch([Self.report])], deltas: [([delta], failure)])
        #expect(outcome.error == failure)
        #expect(outcome.read.isRemoval && outcome.read.segments == [.resync(dropped: Self.dropped, delta: [delta])])
    }

    @Test func aSpuriousWakeUpReadsNothing() {
        let outcome = drain([])
        #expect(outcome.read == DeviceRead() && outcome.error == nil && outcome.resyncStates.isEmpty)
    }

    @Test func aBatchShortOfTheReadsRoomEndsTheDrainWithoutAnotherRead() {
        let down = [Self.abs(AbsCode.mtTrackingID, 5), Self.abs(AbsCode.mtPositionX, 10), Self.report]
        let later = [Self.abs(AbsCode.mtPositionX, 20), Self.report]
        let outcome = drain([.batch(down), .lastBatch(later), .batch([Self.report])])
        #expect(outcome.read.segments == [.events(down + later)], "what came after the short batch waits for the next readiness")
        #expect(outcome.reads == 2, "no read after the short batch")
    }

    @Test func aShortBatchWithADropReadsOnAfterItsDelta() {
        let delta = [Self.abs(AbsCode.mtPositionX, 20), Self.report]
        let after = [Self.abs(AbsCode.mtPositionX, 30), Self.report]
        let outcome = drain([.lastBatch([Self.report, Self.dropped]), .lastBatch(after)], deltas: [(delta, nil)])
        #expect(outcome.read.segments == [.events([Self.report]), .resync(dropped: Self.dropped, delta: delta), .events(after)])
        #expect(outcome.reads == 2, "the short batch after the resync ends the drain")
    }
}

/// The device the drain tests decode.
enum DrainTestDevice {
    /// A two-slot touchscreen, 0…1000.
    static let slottedScreen = DeviceDescription(
        name: "drain screen", properties: [InputProperty.direct],
        codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY]],
        absInfo: [
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
        ])
}
