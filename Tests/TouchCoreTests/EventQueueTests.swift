import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct EventQueueTests {
    func move(_ t: Double, _ x: Double) -> QueuedEvent { .touches(frame(t, contact(1, .moved, x, 0))) }

    @Test func eventsComeOutInArrivalOrder() {
        var queue = ApplicationEventQueue(capacity: 100, coalescingThreshold: 100)
        for i in 0..<50 { #expect(queue.enqueue(move(Double(i), Double(i))) == .queued) }
        var order: [Double] = []
        while case .touches(let f)? = queue.dequeue() { order.append(f.timestamp.seconds) }
        #expect(order == (0..<50).map(Double.init))
    }

    @Test func movesAreMergedOnlyUnderBacklogAndKeepEverySample() throws {
        var queue = ApplicationEventQueue(capacity: 16, coalescingThreshold: 4)
        for i in 0..<4 { #expect(queue.enqueue(move(Double(i), Double(i))) == .queued) }
        #expect(queue.enqueue(move(4, 4)) == .coalesced)
        #expect(queue.enqueue(move(5, 5)) == .coalesced)
        #expect(queue.count == 4)
        for _ in 0..<3 { _ = queue.dequeue() }
        guard case .touches(let merged)? = queue.dequeue() else { Issue.record("no merged frame"); return }
        #expect(merged.timestamp == 5)
        #expect(merged.contacts[0].location.x == 5)
        #expect(merged.contacts[0].coalesced.map(\.timestamp) == [3, 4])
        #expect(queue.coalescedCount == 2)
    }

    /// A list given back is emptied and used by the next merge; one with too much room is let go.
    @Test func sampleListsGivenBackAreUsedAgainUnlessTooLarge() throws {
        func mergedRoom(after given: Int) throws -> Int {
            var queue = ApplicationEventQueue(capacity: 16, coalescingThreshold: 1)
            var list: [TouchSample] = []
            list.reserveCapacity(given)
            list.append(TouchSample(timestamp: 0, locationInWindow: Point(x: 1, y: 1), force: 0, majorRadius: 0))
            let room = list.capacity
            queue.recycle(&list)
            #expect(list.isEmpty && list.capacity == 0, "the caller's list is left empty")
            #expect(queue.enqueue(move(1, 1), dueAt: 2) == .queued)
            #expect(queue.enqueue(move(1.5, 2), dueAt: 2) == .coalesced)
            let merged = try #require(queue.waitingMoves.first)
            #expect(merged.contacts[0].coalesced.map(\.timestamp) == [1], "only the merged frame's own sample")
            return room == merged.contacts[0].coalesced.capacity ? room : -merged.contacts[0].coalesced.capacity
        }
        #expect(try mergedRoom(after: 64) > 0, "a list of ordinary room is used again")
        #expect(try mergedRoom(after: 4_096) < 0, "a large one is not kept")
        #expect(try mergedRoom(after: 1) < 0, "nor one with little room")
    }

    @Test func beginsEndsAndOtherDevicesAreNeverMerged() {
        var queue = ApplicationEventQueue(capacity: 16, coalescingThreshold: 1)
        #expect(queue.enqueue(.touches(frame(0, contact(1, .began, 0, 0)))) == .queued)
        #expect(queue.enqueue(move(1, 1)) == .queued, "the tail began a touch")
        #expect(queue.enqueue(.touches(frame(2, contact(1, .ended, 0, 0)))) == .queued)
        #expect(queue.enqueue(move(3, 1)) == .queued)
        #expect(queue.enqueue(.touches(frame(4, contact(1, .moved, 0, 0), device: "other"))) == .queued)
        #expect(queue.enqueue(.touches(frame(5, contact(1, .moved, 0, 0), contact(2, .moved, 0, 0), device: "other"))) == .queued,
                "a different set of contacts")
        #expect(queue.count == 6)
    }

    @Test func aFullQueueRefusesWithoutDroppingAnything() {
        var queue = ApplicationEventQueue(capacity: 3, coalescingThreshold: 3)
        for i in 0..<3 { _ = queue.enqueue(.touches(frame(Double(i), contact(UInt64(i), .began, 0, 0)))) }
        #expect(queue.enqueue(.touches(frame(9, contact(9, .began, 0, 0)))) == .full)
        #expect(queue.count == 3)
        #expect(queue.highWaterMark == 3)
    }

    @Test func sendDispatchesEverythingEvenWhenTheQueueIsFull() {
        var app = Application(tree: seedExperimentTree(), settings: ApplicationSettings(queueCapacity: 2, coalescingThreshold: 2))
        var reports: [DispatchReport] = []
        for i in 0..<5 {
            reports += app.send(frame(Double(i), contact(UInt64(i), .began, 70, 150), device: "d\(i)"))
        }
        #expect(reports.count == 5)
        #expect(app.statistics.touchesBegan == 5)
    }

    @Test func coalescedSamplesReachTheTouch() throws {
        var app = Application(tree: seedExperimentTree(), settings: ApplicationSettings(queueCapacity: 64, coalescingThreshold: 2))
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        #expect(app.enqueue(frame(1.01, contact(1, .moved, 71, 150))) == .queued)
        #expect(app.enqueue(frame(1.02, contact(1, .moved, 72, 150))) == .queued)
        #expect(app.enqueue(frame(1.03, contact(1, .moved, 73, 150))) == .coalesced)
        let reports = app.dispatchAll()
        #expect(reports.count == 2)
        let last = try #require(reports.last?.changedTouches.first)
        #expect(last.locationInWindow.x == 73)
        #expect(last.previousLocationInWindow.x == 71)
        #expect(last.coalescedSamples.map(\.locationInWindow.x) == [72])
    }
}
