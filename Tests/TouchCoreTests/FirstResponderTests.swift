import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct FirstResponderTests {
    /// Seed 001's tree with a text field under orange and a second field under green.
    func tree() -> ViewTree {
        var tree = seedExperimentTree()
        try! tree.addView("field", parent: "orange", view(rect(0, 300, 200, 40)))
        try! tree.addView("other", parent: "green", view(rect(0, 0, 50, 20)))
        return tree
    }

    func app(handlers: [Handler] = [], traits: [FirstResponderTraits]? = nil, initial: [ResponderID] = []) -> Application {
        Application(
            tree: tree(), handlers: HandlerTable(handlers),
            firstResponderTraits: traits ?? [FirstResponderTraits(responder: "field"), FirstResponderTraits(responder: "other")],
            initialFirstResponders: initial)
    }

    @Test func initialFirstResponderComesFromTheLayoutAndIsOnePerWindow() throws {
        var a = app(initial: ["field"])
        #expect(a.firstResponder(of: "window") == "field")
        #expect(a.isFirstResponder("field"))
        let change = try a.becomeFirstResponder("other")
        #expect(change == FirstResponderChange(window: "window", previous: "field", current: "other", cause: .request))
        #expect(!a.isFirstResponder("field"), "only one first responder per window")
        #expect(a.firstRespondersByWindow == ["window": "other"])
        #expect(try a.becomeFirstResponder("other") == nil, "already first responder: no change")
    }

    @Test func respondersMustOptIn() {
        var a = app()
        #expect(throws: FirstResponderError.cannotBecome("blue")) { try a.becomeFirstResponder("blue") }
        #expect(throws: FirstResponderError.notInWindow("application")) { try a.becomeFirstResponder("application") }
        #expect(throws: FirstResponderError.unknownResponder("nope")) { try a.becomeFirstResponder("nope") }
        #expect(a.firstRespondersByWindow.isEmpty)
    }

    @Test func resigningCanBeRefused() throws {
        var a = app(traits: [FirstResponderTraits(responder: "field", canResign: false), FirstResponderTraits(responder: "other")], initial: ["field"])
        #expect(throws: FirstResponderError.currentRefusesToResign(current: "field")) { try a.resignFirstResponder("field") }
        #expect(throws: FirstResponderError.currentRefusesToResign(current: "field")) { try a.becomeFirstResponder("other") }
        #expect(a.firstResponder(of: "window") == "field")
        #expect(throws: FirstResponderError.notFirstResponder("other")) { try a.resignFirstResponder("other") }
    }

    @Test func hiddenOrRemovedFirstResponderResignsEvenWhenItWouldRefuse() throws {
        var a = app(traits: [FirstResponderTraits(responder: "field", canResign: false), FirstResponderTraits(responder: "other")], initial: ["field"])
        try a.updateView("blue") { $0.isHidden = true }
        #expect(a.takeFirstResponderChanges().isEmpty, "hiding another view changes nothing")
        try a.updateView("orange") { $0.isHidden = true }
        #expect(a.firstResponder(of: "window") == nil, "a view above it was hidden")
        #expect(a.takeFirstResponderChanges() == [FirstResponderChange(window: "window", previous: "field", current: nil, cause: .hidden)])
        #expect(throws: FirstResponderError.hidden("other")) { try a.becomeFirstResponder("other") }
        try a.updateView("orange") { $0.isHidden = false }
        _ = try a.becomeFirstResponder("other")
        _ = try a.removeView("green", timestamp: 5)
        #expect(a.takeFirstResponderChanges() == [FirstResponderChange(window: "window", previous: "other", current: nil, cause: .removed)])
        #expect(a.firstRespondersByWindow.isEmpty)
    }

    @Test func handlersBecomeAndResign() {
        let handlers = [
            Handler(responder: "field", trigger: .touchesEnded, action: "focus", firstResponderEffect: .become("field")),
            Handler(responder: "blue", trigger: .touchesEnded, action: "done", firstResponderEffect: .resign("field")),
            Handler(responder: "green", trigger: .touchesEnded, action: "bad", firstResponderEffect: .become("black")),
        ]
        var a = app(handlers: handlers)
        // field is at window (20, 400) .. (220, 440).
        var reports = a.send(frame(1, contact(1, .began, 50, 410))) + a.send(frame(1.1, contact(1, .ended, 50, 410)))
        #expect(reports.flatMap(\.firstResponderChanges) == [
            FirstResponderChange(window: "window", previous: nil, current: "field", cause: .handler("focus"), timestamp: 1.1)
        ])
        #expect(a.firstResponder(of: "window") == "field")
        // blue at (40, 120).
        reports = a.send(frame(2, contact(2, .began, 60, 140))) + a.send(frame(2.1, contact(2, .ended, 60, 140)))
        #expect(reports.flatMap(\.firstResponderChanges).map(\.current) == [nil])
        #expect(a.firstResponder(of: "window") == nil)
        // green at (220, 120): black cannot become first responder: the action still goes out, the refusal is reported.
        reports = a.send(frame(3, contact(3, .began, 290, 140))) + a.send(frame(3.1, contact(3, .ended, 290, 140)))
        #expect(reports.flatMap(\.actions).map(\.name) == ["bad"])
        #expect(reports.flatMap(\.anomalies).contains { $0.contains("\"black\" cannot become first responder") })
    }
}
