import TouchCore
import TouchProtocol

extension Daemon {
    /// Runs a touch through a copy of the application once (down in the middle of the first
    /// window, a move, a lift) and encodes its messages, throwing the result away: the first real
    /// touch then does not pay for what the runtime and the kernel do only once (setting up the
    /// types dispatching and encoding use, loading their code), about a million instructions,
    /// which would otherwise delay its `hit` by a millisecond on a slow core. The application
    /// itself is untouched (the copy is a value).
    func warmUp() {
        var probe = app
        probe.recordsResponderCalls = false
        guard let window = probe.tree.windowIDs.first, let size = probe.tree.windowProperties(of: window)?.size else { return }
        let centre = Point(x: size.width / 2, y: size.height / 2)
        func frame(_ t: InputTime, _ phase: TouchPhase, _ p: Point) -> QueuedEvent {
            .touches(InputFrame(device: "warm-up", window: window, timestamp: t, contacts: [InputContact(id: 1, phase: phase, location: p)]))
        }
        var reports = probe.send(frame(0, .began, centre))
        reports += probe.send(frame(0.001, .moved, Point(x: centre.x + 1, y: centre.y)))
        reports += probe.send(frame(0.002, .ended, Point(x: centre.x + 1, y: centre.y)))
        reports += probe.dispatchAll()
        var bytes = 0
        for report in reports {
            for message in MessageEncoder.messages(for: report) { bytes &+= message.line(seq: 1).utf8.count }
        }
        _ = bytes
    }
}
