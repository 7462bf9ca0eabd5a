import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct NonTouchDispatchTests {
    func app(handlers: [Handler], first: ResponderID? = nil) -> Application {
        var tree = seedExperimentTree()
        try! tree.addView("field", parent: "orange", view(rect(0, 300, 200, 40)))
        return Application(
            tree: tree, handlers: HandlerTable(handlers), firstResponderTraits: [FirstResponderTraits(responder: "field")],
            initialFirstResponders: first.map { [$0] } ?? [])
    }

    func keys(_ t: Double, _ changes: (UInt16, String, PressPhase)...) -> QueuedEvent {
        .presses(PressInput(device: "kbd", window: nil, timestamp: InputTime(seconds: t), changes: changes.map { KeyChange(keyCode: $0.0, keyName: $0.1, phase: $0.2) }))
    }

    @Test func pressesGoToTheFirstResponderThenUpTheChain() {
        var a = app(handlers: [Handler(responder: "orange", trigger: .pressesBegan, action: "enter", key: "KEY_ENTER")], first: "field")
        let reports = a.send(keys(1, (28, "KEY_ENTER", .began), (30, "KEY_A", .began)))
        #expect(reports.count == 1)
        let report = reports[0]
        #expect(report.event.type == .presses)
        #expect(report.presses.map(\.keyName) == ["KEY_ENTER", "KEY_A"])
        #expect(report.presses.allSatisfy { $0.responder == "field" && $0.phase == .began })
        #expect(report.calls.map(\.responder) == ["field", "orange", "root", "ViewController", "window", "application", "app_delegate"])
        #expect(report.calls.first?.detail == ["KEY_ENTER", "KEY_A"], "keys of one report come in one call")
        #expect(report.actions.map(\.name) == ["enter"])
        #expect(report.actions.first?.detail == ["KEY_ENTER", "KEY_A"])
    }

    /// A reloaded layout's application numbers touches and presses after the one it replaces.
    @Test func numberingContinuesAfterAnApplicationItReplaces() {
        var old = app(handlers: [])
        _ = old.send(frame(1, contact(1, .began, 50, 50)))
        _ = old.send(frame(1.1, contact(1, .ended, 50, 50), contact(2, .began, 60, 60)))
        _ = old.send(keys(1.2, (30, "KEY_A", .began)))
        var fresh = app(handlers: [])
        fresh.continueNumbering(after: old)
        let touch = fresh.send(frame(2, contact(1, .began, 50, 50))).flatMap(\.changedTouches).map(\.id)
        let press = fresh.send(keys(2.1, (30, "KEY_A", .began))).flatMap(\.presses).map(\.id)
        #expect(touch == [3], "touches 1 and 2 were the old application's")
        #expect(press == [2], "press 1 was the old application's")
        // A fresh application that has gone further keeps its own numbers.
        var ahead = app(handlers: [])
        for n in 0..<5 { _ = ahead.send(frame(Double(n), contact(1, .began, 50, 50))); _ = ahead.send(frame(Double(n) + 0.5, contact(1, .ended, 50, 50))) }
        ahead.continueNumbering(after: old)
        #expect(ahead.send(frame(9, contact(1, .began, 50, 50))).flatMap(\.changedTouches).map(\.id) == [6])
    }

    /// A key held down across a reload: cancelled in the old application, its release in the new
    /// one is no fault (nothing dispatched, no anomaly); a later stray release is one again.
    @Test func aKeyCancelledWhileDownComesUpQuietlyInTheApplicationAfter() {
        var old = app(handlers: [])
        _ = old.send(keys(1, (28, "KEY_ENTER", .began)))
        let cancelled = old.cancelAllPresses(timestamp: InputTime(seconds: 1.5))
        #expect(cancelled.flatMap(\.presses).map(\.phase) == [.cancelled])
        var fresh = app(handlers: [])
        fresh.adoptCancelledPresses(from: old)
        let up = fresh.send(keys(2, (28, "KEY_ENTER", .ended)))
        #expect(up.flatMap(\.anomalies).isEmpty, "\(up.flatMap(\.anomalies))")
        #expect(up.flatMap(\.presses).isEmpty && up.flatMap(\.calls).isEmpty)
        let stray = fresh.send(keys(3, (28, "KEY_ENTER", .ended)))
        #expect(stray.flatMap(\.anomalies) == ["device kbd: key KEY_ENTER ended without going down"])
        // In the application that cancelled it, too.
        let again = old.send(keys(2, (28, "KEY_ENTER", .ended)))
        #expect(again.flatMap(\.anomalies).isEmpty)
    }

    @Test func keyFilterAndConsumption() {
        var a = app(handlers: [
            Handler(responder: "field", trigger: .pressesEnded, action: "field-up", passesOn: false),
            Handler(responder: "orange", trigger: .pressesEnded, action: "never"),
            Handler(responder: "field", trigger: .pressesBegan, action: "only-escape", key: "KEY_ESC"),
        ], first: "field")
        var reports = a.send(keys(1, (30, "KEY_A", .began)))
        #expect(reports.flatMap(\.actions).isEmpty, "the key filter does not match KEY_A")
        reports = a.send(keys(1.2, (30, "KEY_A", .ended)))
        #expect(reports.flatMap(\.actions).map(\.name) == ["field-up"])
        #expect(reports.flatMap(\.calls).map(\.responder) == ["field"], "consumed: the call stops")
        #expect(reports.flatMap(\.unhandled).isEmpty)
    }

    @Test func withoutFirstResponderPressesStartAtTheKeyWindowsRoot() {
        var a = app(handlers: [])
        let report = a.send(keys(1, (28, "KEY_ENTER", .began)))[0]
        #expect(report.startResponder == "root", "the root view controller's view")
        #expect(report.calls.map(\.responder).first == "root")
        #expect(report.unhandled.count == 1)
    }

    @Test func aPressEndsWhereItBeganEvenAfterTheFirstResponderChanged() throws {
        var a = app(handlers: [], first: "field")
        _ = a.send(keys(1, (28, "KEY_ENTER", .began)))
        _ = try a.resignFirstResponder("field")
        let report = a.send(keys(2, (28, "KEY_ENTER", .ended)))[0]
        #expect(report.presses.first?.responder == "field")
        #expect(report.calls.first?.responder == "field")
        #expect(report.presses.first?.id == 1)
    }

    @Test func strayKeysAreAnomalies() {
        var a = app(handlers: [])
        var reports = a.send(keys(1, (28, "KEY_ENTER", .ended)))
        #expect(reports[0].anomalies == ["device kbd: key KEY_ENTER ended without going down"])
        _ = a.send(keys(2, (28, "KEY_ENTER", .began)))
        reports = a.send(keys(3, (28, "KEY_ENTER", .began)))
        #expect(reports[0].anomalies == ["device kbd: key KEY_ENTER went down twice"])
        #expect(reports[0].calls.isEmpty)
    }

    @Test func remoteControlGoesToTheFirstResponderWithItsSubtype() {
        var a = app(handlers: [
            Handler(responder: "ViewController", trigger: .remoteControl, action: "play", remoteControl: .togglePlayPause),
            Handler(responder: "ViewController", trigger: .remoteControl, action: "any-command"),
        ], first: "field")
        let input = RemoteControlInput(device: "remote", window: nil, timestamp: 4, subtype: .togglePlayPause, keyName: "KEY_PLAYPAUSE")
        // As in UIKit, nothing arrives before the application begins receiving remote-control events.
        #expect(a.isReceivingRemoteControlEvents == false)
        var report = a.send(.remoteControl(input))[0]
        #expect(report.remoteControl == nil && report.calls.isEmpty && report.actions.isEmpty)
        #expect(a.statistics.remoteControlEventsIgnored == 1)
        a.beginReceivingRemoteControlEvents()
        report = a.send(.remoteControl(input))[0]
        #expect(report.event.type == .remoteControl)
        #expect(report.remoteControl == input)
        #expect(report.calls.first?.responder == "field")
        #expect(report.calls.first?.trigger == .remoteControl)
        #expect(report.actions.map(\.name) == ["play", "any-command"])
        var next = input
        next.subtype = .nextTrack
        report = a.send(.remoteControl(next))[0]
        #expect(report.actions.map(\.name) == ["any-command"])
        #expect(report.actions.first?.detail == ["next_track"])
        // After endReceivingRemoteControlEvents(), nothing again.
        a.endReceivingRemoteControlEvents()
        #expect(a.send(.remoteControl(next))[0].actions.isEmpty)
        #expect(a.statistics.remoteControlEventsIgnored == 2)
        // A layout (or settings) may receive them from the start.
        let receiving = Application(tree: a.tree, settings: ApplicationSettings(receivesRemoteControlEvents: true))
        #expect(receiving.isReceivingRemoteControlEvents)
    }

    @Test func motionPhasesGoToTheFirstResponder() {
        var a = app(handlers: [
            Handler(responder: "field", trigger: .motionBegan, action: "shake-start"),
            Handler(responder: "window", trigger: .motionEnded, action: "undo"),
            Handler(responder: "window", trigger: .motionCancelled, action: "never-mind"),
        ], first: "field")
        let phases: [MotionPhase] = [.began, .ended, .began, .cancelled]
        let names = phases.enumerated().flatMap { i, phase in
            a.send(.motion(MotionInput(device: "accel", window: nil, timestamp: InputTime(seconds: Double(i)), phase: phase))).flatMap(\.actions).map(\.name)
        }
        #expect(names == ["shake-start", "undo", "shake-start", "never-mind"])
    }

    @Test func touchesPressesAndMotionStayInArrivalOrder() {
        var a = app(handlers: [])
        #expect(a.enqueue(frame(1, contact(1, .began, 50, 410))) == .queued)
        #expect(a.enqueue(keys(1.1, (28, "KEY_ENTER", .began))) == .queued)
        #expect(a.enqueue(frame(1.2, contact(1, .moved, 55, 410))) == .queued)
        #expect(a.enqueue(.motion(MotionInput(device: "accel", window: nil, timestamp: 1.3, phase: .began))) == .queued)
        #expect(a.enqueue(frame(1.4, contact(1, .ended, 55, 410))) == .queued)
        let reports = a.dispatchAll()
        #expect(reports.map(\.event.type) == [.touches, .presses, .touches, .motion, .touches])
        #expect(reports.map(\.event.timestamp) == [1, 1.1, 1.2, 1.3, 1.4])
    }

    @Test func movesAreNotMergedAcrossAPress() {
        var queue = ApplicationEventQueue(capacity: 16, coalescingThreshold: 1)
        _ = queue.enqueue(.touches(frame(1, contact(1, .began, 0, 0))))
        _ = queue.enqueue(.touches(frame(2, contact(1, .moved, 1, 0))))
        _ = queue.enqueue(keys(2.5, (28, "KEY_ENTER", .began)))
        #expect(queue.enqueue(.touches(frame(3, contact(1, .moved, 2, 0)))) == .queued, "the tail is a press: nothing to merge with")
        #expect(queue.count == 4)
    }

    @Test func nilTargetActionsStartAtTheFirstResponder() {
        var tree = seedExperimentTree()
        try! tree.addView("btn", parent: "red", view(rect(0, 0, 50, 50)))
        try! tree.addView("field", parent: "root", view(rect(0, 600, 100, 40)))
        let handlers = [
            Handler(responder: "field", trigger: .action, action: "field-takes-it", selector: "tap"),
            Handler(responder: "ViewController", trigger: .action, action: "controller-takes-it", selector: "tap"),
        ]
        func run(first: [ResponderID]) -> [String] {
            var a = Application(
                tree: tree, handlers: HandlerTable(handlers),
                controls: [ControlSpec(view: "btn", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "tap")])],
                firstResponderTraits: [FirstResponderTraits(responder: "field")], initialFirstResponders: first)
            let reports = a.send(frame(1, contact(1, .began, 140, 240))) + a.send(frame(1.05, contact(1, .ended, 140, 240)))
            return reports.flatMap(\.actions).map(\.name)
        }
        #expect(run(first: []) == ["controller-takes-it"], "no first responder: from the control up its chain")
        #expect(run(first: ["field"]) == ["field-takes-it"], "UIKit: a nil-target action starts at the first responder")
    }
}
