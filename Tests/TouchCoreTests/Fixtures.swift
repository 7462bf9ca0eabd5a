import TouchCore

/// Builds trees for tests without ceremony; a failure to build is a test bug, so it traps.
func makeTree(
    window: ResponderID = "window", size: Size = Size(width: 375, height: 667), ppm: Double = 6.4,
    _ build: (inout ViewTree) throws -> Void
) -> ViewTree {
    var tree = ViewTree()
    do {
        try tree.addWindow(window, WindowProperties(size: size, isKey: true, pointsPerMillimetre: ppm))
        try build(&tree)
    } catch {
        fatalError("fixture tree: \(error)")
    }
    return tree
}

func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

func view(_ frame: Rect, _ change: (inout ViewProperties) -> Void = { _ in }) -> ViewProperties {
    var props = ViewProperties(frame: frame)
    change(&props)
    return props
}

/// The tree of seed 001's experiment: a root controller's root view filling the window; orange on it;
/// orange's subviews blue, green and black (black added last, so hit-testing visits black, green,
/// blue, as the seed's log shows); red inside blue.
func seedExperimentTree() -> ViewTree {
    makeTree { tree in
        try tree.addView("root", parent: "window", view(rect(0, 0, 375, 667)))
        try tree.addController("ViewController", ControllerProperties(view: "root"))
        try tree.setRootController("ViewController", of: "window")
        try tree.addView("orange", parent: "root", view(rect(20, 100, 335, 400)))
        try tree.addView("blue", parent: "orange", view(rect(20, 20, 150, 150)))
        try tree.addView("green", parent: "orange", view(rect(200, 20, 100, 100)))
        try tree.addView("black", parent: "orange", view(rect(200, 200, 100, 100)))
        try tree.addView("red", parent: "blue", view(rect(90, 90, 50, 50)))
    }
}

/// A frame from device "dev" for window "window".
func frame(_ t: Double, _ contacts: InputContact..., device: String = "dev", window: ResponderID = "window") -> InputFrame {
    InputFrame(device: device, window: window, timestamp: InputTime(seconds: t), contacts: contacts)
}

func contact(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double) -> InputContact {
    InputContact(id: id, phase: phase, location: Point(x: x, y: y))
}

/// The seed's instrumented responders only, to compare with its logs.
func calls(_ reports: [DispatchReport], among names: Set<ResponderID>) -> [String] {
    reports.flatMap(\.calls).filter { names.contains($0.responder) }.map { "\($0.responder) - \($0.trigger.methodName)" }
}
