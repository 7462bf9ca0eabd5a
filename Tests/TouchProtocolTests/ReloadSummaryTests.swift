import Testing
import TouchCore
import TouchProtocol

/// The `reload` message's comparison of the old layout, the running tree and the new layout.
@Suite(.timeLimit(.minutes(10))) struct ReloadSummaryTests {
    func state(views: [String], hidden: Set<String> = [], firstResponder: ResponderID? = nil) -> TreeState {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        for id in views {
            var p = ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            p.isHidden = hidden.contains(id)
            try! tree.addView(ResponderID(id), parent: "w", p)
        }
        return TreeState(tree: tree, controls: [], firstResponders: firstResponder.map { ["w": $0] } ?? [:])
    }

    @Test func itTellsTheLayoutsChangesApartFromTheRunTimeOnesDropped() {
        let old = state(views: ["a", "b", "c"])
        let running = state(views: ["a", "c", "mine"], hidden: ["c"], firstResponder: "a")
        let new = state(views: ["a", "b", "d"], hidden: ["a"])
        let s = ReloadSummary(old: old, running: running, new: new)
        #expect(s.views == 3)
        #expect(s.added == ["d"] && s.removed == ["c"] && s.changed == ["a"])
        #expect(s.droppedSet == ["c"] && s.droppedAdded == ["mine"] && s.droppedRemoved == ["b"])
        #expect(s.droppedFirstResponders == ["w"])
        #expect(s.omitted == 0)
        let line = MessageEncoder.reloaded(s).line(seq: 4)
        #expect(
            line
                == #"{"seq":4,"type":"reload","views":3,"added":["d"],"removed":["c"],"changed":["a"],"dropped":{"set":["c"],"added":["mine"],"removed":["b"],"first_responders":["w"],"controls":[]}}"#
                + "\n")
    }

    @Test func longListsAreCutToTheirBoundAndWhatIsLeftOutIsCounted() {
        let many = (0..<(Limits.maximumReloadListEntries + 50)).map { "v\($0)" }
        let s = ReloadSummary(old: state(views: []), running: state(views: many), new: state(views: many))
        #expect(s.added.count == Limits.maximumReloadListEntries && s.droppedAdded.count == Limits.maximumReloadListEntries)
        #expect(s.added.first == "v0")
        #expect(s.omitted == 100)
        #expect(MessageEncoder.reloaded(s).body.hasSuffix(#","omitted":100"#))
    }
}
