import TouchCore
import TouchProtocol

/// What a tap (a touch-down and its lift, dispatched, encoded and queued for the subscribers) costs
/// as one size grows while the others stay small: views in the window, tap recognizers on the
/// tapped view, views patterns of subscriptions (long non-ASCII ids that never match, 64 to a
/// subscription, 16 subscriptions to a client), and touches already down.
struct DispatchScalingBench {
    enum Dimension: String, CaseIterable {
        case views
        case recognizers = "recognizers on one view"
        case patterns = "subscription patterns"
        case touches = "touches down"
    }

    var app: Application
    let subscribers: [SubscriptionSet]
    let interest: MessageInterest
    /// Where the tap lands.
    let point: Point
    /// Touches held down throughout.
    let held: [InputContact]

    init(_ dimension: Dimension, size: Int) {
        let window = HitTestBench.window
        var tree: ViewTree
        var recognizers: [GestureRecognizerSpec] = []
        var subscriptions: [[Subscription]] = [[Subscription(id: 1, topics: Topic.defaultTopics)]]
        var held: [InputContact] = []
        point = Point(x: window.width / 2, y: window.height / 2)
        switch dimension {
        case .views:
            tree = HitTestBench.flat(size)
        case .recognizers:
            tree = HitTestBench.flat(1)
            recognizers = (0..<size).map { n in
                GestureRecognizerSpec(id: ResponderID("tap\(n)"), view: "v0", kind: .tap(taps: 1, touches: 1), action: "tap\(n)")
            }
        case .patterns:
            tree = Self.nested(depth: 99)
            let patterns = (0..<size).map { n in String(repeating: "ü", count: 100) + "\(n)" + (n % 2 == 0 ? "*" : "") }
            let perSubscription = stride(from: 0, to: patterns.count, by: 64).map { Array(patterns[$0..<min($0 + 64, patterns.count)]) }
            subscriptions = stride(from: 0, to: perSubscription.count, by: 16).map { start in
                (start..<min(start + 16, perSubscription.count)).map { k in
                    Subscription(id: k - start + 1, topics: Topic.defaultTopics, views: perSubscription[k])
                }
            }
        case .touches:
            tree = HitTestBench.flat(1)
            for n in 0..<max(size - 1, 0) {
                let location = Point(x: Double(n % 1000), y: Double(n / 1000))
                held.append(InputContact(id: UInt64(truncatingIfNeeded: n + 1), phase: .began, location: location))
            }
        }
        app = Application(tree: tree, gestureRecognizers: recognizers)
        app.recordsResponderCalls = false
        subscribers = subscriptions.map { SubscriptionSet($0) }
        interest = MessageInterest(subscriptions.flatMap { $0 })
        self.held = held
    }

    /// Views nested `depth` deep in the window, each inset from its parent.
    static func nested(depth: Int) -> ViewTree {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: HitTestBench.window))
        var parent: ResponderID = "window"
        for n in 0..<depth {
            let id = ResponderID("nested\(n)")
            try! tree.addView(id, parent: parent, ViewProperties(frame: Rect(x: 1, y: 1, width: 1000 - Double(n), height: 700 - Double(n))))
            parent = id
        }
        return tree
    }

    /// CPU nanoseconds per tap: the fastest of `rounds` taps, each a second after the last.
    mutating func nanosecondsPerTap(rounds: Int) -> Double {
        var time = 1.0
        if !held.isEmpty { deliver(app.send(InputFrame(device: "bench", window: "window", timestamp: time, contacts: held))) }
        var best = Double.infinity
        let finger = UInt64(truncatingIfNeeded: held.count + 1_000_000)
        for _ in 0..<rounds {
            time += 1
            let start = threadCPUNanoseconds()
            let down = InputContact(id: finger, phase: .began, location: point)
            var up = down
            up.phase = .ended
            deliver(app.send(InputFrame(device: "bench", window: "window", timestamp: time, contacts: [down])))
            deliver(app.send(InputFrame(device: "bench", window: "window", timestamp: time + 0.05, contacts: [up])))
            deliver(app.dispatchDue(by: time + 0.05))
            best = min(best, Double(threadCPUNanoseconds() - start))
            if let report = app.advanceTime(to: time + 0.9) { deliver([report]) }
        }
        return best
    }

    private func deliver(_ reports: [DispatchReport]) {
        let queue = ByteQueue()
        var seq: UInt64 = 1
        for report in reports {
            for message in MessageEncoder.messages(for: report, interest: interest) {
                for subscriber in subscribers where subscriber.wants(message) {
                    queue.appendLine(message, seq: seq)
                    seq += 1
                }
            }
        }
        keep(queue.count)
    }

    /// The rows: each dimension at 1, 100 and 10,000, and the ratio of 10,000 to 100.
    static func run() {
        for dimension in Dimension.allCases {
            var figures: [Int: Double] = [:]
            for size in [1, 100, 10_000] {
                var bench = DispatchScalingBench(dimension, size: size)
                figures[size] = bench.nanosecondsPerTap(rounds: size >= 10_000 ? 5 : 20)
                row("dispatch scaling: \(dimension.rawValue)", "\(size)", "\(fixed(figures[size]! / 1000, 1)) µs per tap")
            }
            let ratio = figures[10_000]! / figures[100]!
            if dimension == .recognizers {
                // Every recognizer of the view is given the touch and fails: a tap costs at least
                // its recognizers, so the cost per recognizer is what must not grow.
                row("dispatch scaling: \(dimension.rawValue)", "10,000 / 100", "\(fixed(ratio, 2))x")
                row("dispatch scaling: \(dimension.rawValue)", "10,000 / 100, per recognizer", "\(fixed(ratio / 100, 2))x", "<= 10x")
            } else {
                row("dispatch scaling: \(dimension.rawValue)", "10,000 / 100", "\(fixed(ratio, 2))x", "<= 10x")
            }
        }
    }
}
