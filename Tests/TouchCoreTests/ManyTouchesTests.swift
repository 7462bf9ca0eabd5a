import Testing
import TouchCore

/// Many touches down at once (more than are found by going through them): each is found by its
/// contact however the others came and went, those that end leave wherever they are, the others
/// stand still unless their frame moves them, and every list of touches keeps the order they began in.
@Suite(.timeLimit(.minutes(10))) struct ManyTouchesTests {
    static let count: UInt64 = 40

    func many(_ t: Double, _ contacts: [InputContact]) -> InputFrame {
        InputFrame(device: "dev", window: "window", timestamp: InputTime(seconds: t), contacts: contacts)
    }

    func at(_ id: UInt64, _ phase: TouchPhase, moved: Double = 0) -> InputContact {
        contact(id, phase, Double(id * 7 % 300) + moved, Double(id * 5 % 200) + moved)
    }

    @Test func touchesEndingAmongManyLeaveTheOthersFoundByTheirContacts() throws {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(many(1.0, (1...Self.count).map { at($0, .began) }))
        #expect(app.activeTouches.map(\.id) == Array(1...Self.count))

        // Three lift from the front and the middle: the others keep their numbers and contacts.
        let lifted = app.send(many(1.1, [at(1, .ended), at(6, .ended), at(18, .ended)]))
        #expect(lifted.last?.changedTouches.map(\.id) == [1, 6, 18])
        var down = Array(1...Self.count).filter { ![1, 6, 18].contains($0) }
        #expect(app.activeTouches.map(\.id) == down)
        #expect(app.activeTouches.map(\.contact) == down)

        // The last and an early one move: found by their contacts, in the frame's order.
        let moved = app.send(many(1.2, [at(Self.count, .moved, moved: 3), at(2, .moved, moved: 3)]))
        #expect(moved.last?.changedTouches.map(\.id) == [Self.count, 2])
        #expect(moved.last?.changedTouches.map(\.locationInWindow) == [at(Self.count, .moved, moved: 3).location, at(2, .moved, moved: 3).location])
        let phases = Dictionary(uniqueKeysWithValues: app.activeTouches.map { ($0.id, $0.phase) })
        #expect(phases[Self.count] == .moved && phases[2] == .moved)
        #expect(phases.filter { $0.value == .stationary }.count == down.count - 2, "the others stand still")

        // The next frame moves another: the two that moved stand still now.
        _ = app.send(many(1.3, [at(3, .moved, moved: 4)]))
        let now = Dictionary(uniqueKeysWithValues: app.activeTouches.map { ($0.id, $0.phase) })
        #expect(now[3] == .moved && now[Self.count] == .stationary && now[2] == .stationary)
        #expect(now.filter { $0.value == .stationary }.count == down.count - 1)

        // A lifted contact is gone; landing again, it is a new touch, found as such.
        let stray = app.send(many(1.4, [at(6, .moved, moved: 1)]))
        #expect(stray.last?.anomalies == ["device dev: contact 6 moved without a touch-down"])
        _ = app.send(many(1.5, [at(6, .began)]))
        down.append(Self.count + 1)
        #expect(app.activeTouches.map(\.id) == down)
        let again = app.send(many(1.6, [at(6, .moved, moved: 2)]))
        #expect(again.last?.changedTouches.map(\.id) == [Self.count + 1])

        // Cancelled together, in the order they began.
        let report = app.cancelAllTouches(timestamp: 2.0)
        let cancelled = try #require(report)
        #expect(cancelled.changedTouches.map(\.id) == down)
        #expect(cancelled.changedTouches.allSatisfy { $0.phase == .cancelled })
        #expect(app.activeTouches.isEmpty)
    }
}
