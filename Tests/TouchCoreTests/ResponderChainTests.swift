import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct ResponderChainTests {
    @Test func chainThroughTheRootController() {
        let tree = seedExperimentTree()
        #expect(
            tree.responderChain(from: "red")
                == ["red", "blue", "orange", "root", "ViewController", "window", "application", "app_delegate"])
        #expect(tree.nextResponder(of: "root") == "ViewController", "a root view's next responder is its controller")
        #expect(tree.nextResponder(of: "ViewController") == "window", "a root controller's is its window")
        #expect(tree.nextResponder(of: "window") == "application")
        #expect(tree.nextResponder(of: "application") == "app_delegate")
        #expect(tree.nextResponder(of: "app_delegate") == nil)
    }

    @Test func aPresentedControllersNextResponderIsThePresentingController() {
        let tree = makeTree { tree in
            try tree.addView("home.root", parent: "window", view(rect(0, 0, 375, 667)))
            try tree.addController("home", ControllerProperties(view: "home.root"))
            try tree.setRootController("home", of: "window")
            try tree.addView("dialog.root", parent: "window", view(rect(40, 200, 295, 200)))
            try tree.addController("dialog", ControllerProperties(view: "dialog.root", presentedBy: "home"))
            try tree.addView("ok", parent: "dialog.root", view(rect(10, 150, 100, 40)))
        }
        #expect(
            tree.responderChain(from: "ok")
                == ["ok", "dialog.root", "dialog", "home", "window", "application", "app_delegate"])
    }

    @Test func aChildControllersNextResponderIsItsViewsSuperview() {
        let tree = makeTree { tree in
            try tree.addView("container", parent: "window", view(rect(0, 0, 375, 667)))
            try tree.addView("child.root", parent: "container", view(rect(0, 0, 100, 100)))
            try tree.addController("child", ControllerProperties(view: "child.root"))
        }
        #expect(tree.responderChain(from: "child.root") == ["child.root", "child", "container", "window", "application", "app_delegate"])
    }

    @Test func removingAControllersRootViewRemovesTheController() throws {
        var tree = seedExperimentTree()
        let removed = try tree.removeView("root")
        #expect(removed.first == "root")
        #expect(Set(removed) == ["root", "ViewController", "orange", "blue", "green", "black", "red"])
        #expect(tree.kind(of: "ViewController") == nil)
        #expect(tree.windowProperties(of: "window")?.rootController == nil)
        #expect(tree.viewCount == 0)
    }

    @Test func removingAPresentingControllerLeavesThePresentedOnePresentedByNone() throws {
        var tree = makeTree { tree in
            try tree.addView("home.root", parent: "window", view(rect(0, 0, 375, 667)))
            try tree.addController("home", ControllerProperties(view: "home.root"))
            try tree.setRootController("home", of: "window")
            try tree.addView("dialog.root", parent: "window", view(rect(40, 200, 295, 200)))
            try tree.addController("dialog", ControllerProperties(view: "dialog.root", presentedBy: "home"))
        }
        let removed = try tree.removeView("home.root")
        #expect(removed == ["home.root", "home"])
        #expect(tree.controllerProperties(of: "dialog")?.presentedBy == nil, "no controller is presented by one that is gone")
        #expect(tree.responderChain(from: "dialog.root") == ["dialog.root", "dialog", "window", "application", "app_delegate"])
    }

    @Test func buildingErrorsNameTheProblem() {
        var tree = seedExperimentTree()
        #expect(throws: ViewTreeError.duplicateID("blue")) { try tree.addView("blue", parent: "root", view(rect(0, 0, 1, 1))) }
        #expect(throws: ViewTreeError.duplicateID("application")) { try tree.addView("application", parent: "root", view(rect(0, 0, 1, 1))) }
        #expect(throws: ViewTreeError.unknownParent(view: "x", parent: "nowhere")) { try tree.addView("x", parent: "nowhere", view(rect(0, 0, 1, 1))) }
        #expect(throws: ViewTreeError.viewHasController(view: "root", controller: "ViewController")) {
            try tree.addController("Other", ControllerProperties(view: "root"))
        }
        #expect(throws: ViewTreeError.unknownView("window")) { try tree.removeView("window") }
        #expect(ViewTreeError.unknownParent(view: "x", parent: "nowhere").description.contains("\"nowhere\""))
    }
}
