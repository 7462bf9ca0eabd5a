import Testing
import TouchDevices
import TouchEvdev
import TouchSystem

#if canImport(Glibc)
import Glibc
#endif

/// libevdev's reading protocol without a device: a scripted `libevdev_next_event` that checks the
/// mode of every call (after a `SYN_DROPPED`, sync mode until `-EAGAIN`, then normal mode again).
@Suite(.timeLimit(.minutes(10))) struct EventDrainTests {
    /// One scripted call: the mode it must be made in, and what it gives.
    typealias Call = (mode: EventDrain.Mode, status: EventDrain.Status)

    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32, at microseconds: Int64 = 1) -> InputEvent {
        InputEvent(time: EventTime(microseconds: microseconds), type: type, code: code, value: value)
    }

    static let report = event(EventType.syn, SynCode.report, 0)
    static let dropped = event(EventType.syn, SynCode.dropped, 0)

    func drain(_ calls: [Call]) -> (read: DeviceRead, error: SystemError?, modes: [EventDrain.Mode]) {
        var index = 0
        var modes: [EventDrain.Mode] = []
        let result = EventDrain.drain { mode in
            modes.append(mode)
            defer { index += 1 }
            guard index < calls.count else { return .done }
            #expect(calls[index].mode == mode, "call \(index + 1) was made in \(mode) mode")
            return calls[index].status
        }
        #expect(index == calls.count || index == calls.count + 1, "the drain stopped after \(index) calls")
        return (result.read, result.error, modes)
    }

    @Test func twoDropsInOneDrainAreBothReadAndDecodedInOrder() throws {
        let down = [Self.event(3, AbsCode.mtSlot, 0), Self.event(3, AbsCode.mtTrackingID, 5), Self.event(3, AbsCode.mtPositionX, 10), Self.report]
        let moveDelta = [Self.event(3, AbsCode.mtPositionX, 20), Self.report]
        let liftDelta = [Self.event(3, AbsCode.mtTrackingID, -1), Self.report]
        let after = [Self.event(3, AbsCode.mtTrackingID, 6), Self.event(3, AbsCode.mtPositionX, 30), Self.report]
        var calls: [Call] = down.map { (.normal, .event($0)) }
        calls += [(.normal, .sync(Self.dropped))] + moveDelta.map { (.sync, .sync($0)) } + [(.sync, .done)]
        calls += [(.normal, .sync(Self.dropped))] + liftDelta.map { (.sync, .sync($0)) } + [(.sync, .done)]
        calls += after.map { (.normal, .event($0)) } + [(.normal, .done)]
        let (read, error, _) = drain(calls)
        #expect(error == nil && !read.isRemoval)
        #expect(read.segments == [
            .events(down), .resync(dropped: Self.dropped, delta: moveDelta), .resync(dropped: Self.dropped, delta: liftDelta), .events(after),
        ])
        #expect(read.drops.count == 2)

        var assembler = FrameAssembler(description: DrainTestDevice.slottedScreen)
        var frames: [ContactFrame] = []
        assembler.decode(read, into: &frames)
        #expect(frames.map { $0.contacts.map(\.phase) } == [[.began], [.moved], [.cancelled], [.began]])
        #expect(assembler.finish(at: EventTime(microseconds: 2))?.contacts.map(\.phase) == [.cancelled], "only the new finger is down")
    }

    @Test func anUnplugEndsTheReadAsARemovalWithWhatCameBefore() {
        let gone = SystemError(call: "libevdev_next_event", subject: "/dev/input/event5", errno: ENODEV)
        let (read, error, _) = drain([(.normal, .event(Self.report)), (.normal, .failed(gone))])
        #expect(error == nil, "an unplug is no fault")
        #expect(read.isRemoval && read.allEvents == [Self.report])
    }

    @Test func aFailureInsideADeltaKeepsTheDeltaAndReportsTheError() {
        let failure = SystemError(call: "libevdev_next_event", subject: "/dev/input/event5", errno: EIO)
        let delta = Self.event(3, AbsCode.mtPositionX, 7)
        let (read, error, modes) = drain([(.normal, .sync(Self.dropped)), (.sync, .sync(delta)), (.sync, .failed(failure))])
        #expect(error == failure)
        #expect(read.isRemoval && read.segments == [.resync(dropped: Self.dropped, delta: [delta])])
        #expect(modes == [.normal, .sync, .sync])
    }

    @Test func aSpuriousWakeUpReadsNothing() {
        let (read, error, modes) = drain([(.normal, .done)])
        #expect(read == DeviceRead() && error == nil && modes == [.normal])
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
