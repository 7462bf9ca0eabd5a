import Testing
import TouchCore
import TouchEvdev

/// SYN_DROPPED: the incomplete frame is dropped, events up to the next SYN_REPORT are ignored, and
/// the following frame (libevdev's sync delta) brings every slot up to date.
@Suite(.timeLimit(.minutes(10))) struct SyncDroppedTests {
    /// Three fingers down: slot 0 (id 10), slot 1 (id 11), slot 2 (id 12).
    private func threeFingers() -> (FrameAssembler, EventScript) {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        script.down(slot: 0, id: 10, x: 100, y: 100)
        script.down(slot: 1, id: 11, x: 200, y: 200)
        script.down(slot: 2, id: 12, x: 300, y: 300)
        script.key(KeyCode.btnTouch, 1)
        script.syn()
        _ = assembler.feed(script.take())
        return (assembler, script)
    }

    @Test func aDropMidFrameFollowedByALibevdevResync() throws {
        var (assembler, script) = threeFingers()

        // A frame in progress, then the kernel drops events.
        script.slot(0)
        script.position(999, 999)
        script.dropped()
        // Kernel events after the drop, up to the next SYN_REPORT, belong to a broken frame.
        script.slot(2)
        script.position(888, 888)
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
        #expect(assembler.takeAnomalies().map(\.kind) == [.eventsDropped])

        // libevdev's sync delta: slot 0 unchanged but moved, slot 1 lifted during the drop, slot 2's
        // finger replaced by a new one, and a new finger in slot 3.
        script.slot(0)
        script.position(105, 105)
        script.slot(1)
        script.trackingID(-1)
        script.slot(2)
        script.trackingID(-1)
        script.trackingID(13)
        script.position(350, 350)
        script.slot(3)
        script.trackingID(14)
        script.position(400, 400)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts == [
            DeviceContact(id: 1, phase: .moved, x: 105, y: 105, slot: 0),
            DeviceContact(id: 2, phase: .cancelled, x: 200, y: 200, slot: 1),
            DeviceContact(id: 3, phase: .cancelled, x: 300, y: 300, slot: 2),
            DeviceContact(id: 4, phase: .began, x: 350, y: 350, slot: 2),
            DeviceContact(id: 5, phase: .began, x: 400, y: 400, slot: 3),
        ])
        #expect(assembler.anomalies.isEmpty, "a replaced tracking id in a resync is no device fault")

        // Afterwards, lifts are ordinary ends again, and nothing is ended twice.
        script.up(slot: 0)
        script.up(slot: 2)
        script.up(slot: 3)
        script.syn()
        let last = try #require(assembler.feed(script.take()).last)
        #expect(last.contacts.map(\.id) == [1, 4, 5])
        #expect(last.phases == [.ended, .ended, .ended])
        #expect(assembler.finish(at: script.now) == nil, "no contact is left stuck")
    }

    @Test func libevdevResyncInTwoFramesTerminationsFirst() throws {
        // Newer libevdev ends terminated touches in a frame of their own before the new state.
        var (assembler, script) = threeFingers()
        script.dropped()
        script.syn()
        _ = assembler.feed(script.take())

        script.slot(1)
        script.trackingID(-1)
        script.syn()
        let terminations = try #require(assembler.feed(script.take()).last)
        #expect(terminations.contact(2)?.phase == .cancelled)
        #expect(terminations.contact(1)?.phase == .stationary)

        script.slot(1)
        script.trackingID(20)
        script.position(700, 700)
        script.syn()
        let state = try #require(assembler.feed(script.take()).last)
        #expect(state.contacts.map(\.phase) == [.stationary, .stationary, .began])
        #expect(state.contacts.map(\.id) == [1, 3, 4])
    }

    @Test func theResyncCallTakesLibevdevsDeltaDirectly() throws {
        var (assembler, script) = threeFingers()
        // Reading through libevdev: SYN_DROPPED arrives, then the sync delta is read with
        // LIBEVDEV_READ_FLAG_SYNC and handed over in one call.
        script.dropped()
        #expect(assembler.feed(script.take()).isEmpty)
        script.slot(0)
        script.trackingID(-1)
        script.syn()
        script.slot(2)
        script.position(310, 320)
        script.slot(4)
        script.trackingID(30)
        script.position(5, 5)
        script.syn()
        let resynced = assembler.resync(with: script.take(), at: script.now)
        let frame = try #require(resynced)
        #expect(frame.phases == [.cancelled, .stationary, .moved, .began])
        #expect(frame.contacts.map(\.id) == [1, 2, 3, 4])

        // The assembler is in sync again: the next frame is a normal one.
        script.slot(1)
        script.trackingID(-1)
        script.syn()
        #expect(assembler.feed(script.take()).last?.contact(2)?.phase == .ended)
    }

    @Test func aLiftInsideTheDroppedFrameIsNotSeenTwice() throws {
        var (assembler, script) = threeFingers()
        // The lift itself is part of the dropped frame; the resync then reports it once.
        script.up(slot: 0)
        script.dropped()
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
        script.slot(0)
        script.trackingID(-1)
        script.syn()
        let frame = try #require(assembler.feed(script.take()).last)
        #expect(frame.contacts.filter(\.phase.isFinal).map(\.id) == [1])
        script.syn()
        #expect(assembler.feed(script.take()).isEmpty)
    }

    @Test func singleTouchAndProtocolAResyncCancelWhatIsGone() throws {
        var single = FrameAssembler(description: TestDevices.singleTouch(key: KeyCode.btnTouch))
        var script = EventScript()
        script.key(KeyCode.btnTouch, 1)
        script.abs(AbsCode.x, 10)
        script.abs(AbsCode.y, 10)
        script.syn()
        _ = single.feed(script.take())
        script.dropped()
        script.syn()
        script.key(KeyCode.btnTouch, 0)
        script.syn()
        #expect(single.feed(script.take()).last?.phases == [.cancelled])

        var anonymous = FrameAssembler(description: TestDevices.anonymous())
        script.report(100, 100)
        script.report(500, 500)
        script.syn()
        _ = anonymous.feed(script.take())
        script.dropped()
        script.syn()
        script.report(505, 505)
        script.syn()
        let frame = try #require(anonymous.feed(script.take()).last)
        #expect(frame.phases == [.cancelled, .moved])
    }

    @Test func anEndlessFrameIsDiscardedLikeADrop() {
        var assembler = FrameAssembler(description: TestDevices.slotted())
        var script = EventScript()
        for _ in 0...EventSync.maximumFrameEvents {
            script.abs(AbsCode.mtPositionX, 1)
        }
        #expect(assembler.feed(script.take()).isEmpty)
        #expect(assembler.anomalies.map(\.kind) == [.frameTooLong(limit: EventSync.maximumFrameEvents)])
    }
}
