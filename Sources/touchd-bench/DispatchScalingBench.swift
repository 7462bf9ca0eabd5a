import TouchCore
import TouchProtocol

/// What a tap (a touch-down and its lift, dispatched, encoded and queued for the subscribers) costs
/// as one size grows while the others stay small: views in the window, tap recognizers in the
/// window (as many on the tapped view as a hit path may carry, the others a few to a view on the
/// views beside it), tap recognizers on the tapped view up to that bound, views patterns of
/// subscriptions (long non-ASCII ids that never match, 64 to a subscription, 16 subscriptions to a
/// client), and touches already down.
struct DispatchScalingBench {
    enum Dimension: String, CaseIterable {
        case views
        case recognizers = "recognizers in the window"
        case hitPath = "recognizers on one hit path"
        case patterns = "subscription patterns"
        case touches = "touches down"

        /// The sizes measured: the hit path's up to the bound a layout may give it.
        var sizes: [Int] {
            self == .hitPath ? [1, Limits.maximumRecognizersOnHitPath / 4, Limits.maximumRecognizersOnHitPath] : [1, 100, 10_000]
        }
    }

    /// Recognizers on each of the views beside the tapped one, in the window row.
    static let recognizersPerView = 4

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
        var point = Point(x: window.width / 2, y: window.height / 2)
        switch dimension {
        case .views:
            tree = HitTestBench.flat(size)
        case .recognizers:
            let onPath = min(size, Limits.maximumRecognizersOnHitPath)
            let others = (size - onPath + Self.recognizersPerView - 1) / Self.recognizersPerView
            tree = HitTestBench.flat(1 + others)
            point = Self.centre(of: "v0", in: tree)
            recognizers = (0..<size).map { n in
                let view = ResponderID(n < onPath ? "v0" : "v\(1 + (n - onPath) / Self.recognizersPerView)")
                return GestureRecognizerSpec(id: ResponderID("tap\(n)"), view: view, kind: .tap(taps: 1, touches: 1), action: "tap\(n)")
            }
        case .hitPath:
            tree = HitTestBench.flat(1)
            point = Self.centre(of: "v0", in: tree)
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
        self.point = point
    }

    /// The middle of `view` (a view of the window, unmoved), where a tap lands on it.
    static func centre(of view: ResponderID, in tree: ViewTree) -> Point {
        guard let frame = tree.properties(of: view)?.frame else { return Point(x: 0, y: 0) }
        return Point(x: frame.origin.x + frame.size.width / 2, y: frame.origin.y + frame.size.height / 2)
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
        var time: InputTime = 1
        // Each frame's reports are taken before they are delivered: `deliver(app.send(...))` would
        // hold a copy of the bench, and so of the application, while it dispatches, and every
        // dispatch would copy the application's storage (its recognizers, its touches) to change it.
        if !held.isEmpty {
            let reports = app.send(InputFrame(device: "bench", window: "window", timestamp: time, contacts: held))
            deliver(reports)
        }
        var best = Double.infinity
        let finger = UInt64(truncatingIfNeeded: held.count + 1_000_000)
        for _ in 0..<rounds {
            time += 1
            let start = threadCPUNanoseconds()
            let down = InputContact(id: finger, phase: .began, location: point)
            var up = down
            up.phase = .ended
            let downReports = app.send(InputFrame(device: "bench", window: "window", timestamp: time, contacts: [down]))
            deliver(downReports)
            let upReports = app.send(InputFrame(device: "bench", window: "window", timestamp: time + 0.05, contacts: [up]))
            deliver(upReports)
            let dueReports = app.dispatchDue(by: time + 0.05)
            deliver(dueReports)
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

    /// The rows: each dimension at its sizes (1, 100 and 10,000), and the ratio of the largest to
    /// the middle one.
    static func run() {
        for dimension in Dimension.allCases {
            var figures: [Double] = []
            for size in dimension.sizes {
                var bench = DispatchScalingBench(dimension, size: size)
                figures.append(bench.nanosecondsPerTap(rounds: size >= 10_000 ? 5 : 20))
                row("dispatch scaling: \(dimension.rawValue)", "\(size)", "\(fixed(figures[figures.count - 1] / 1000, 1)) µs per tap")
            }
            let ratio = figures[2] / figures[1]
            if dimension == .hitPath {
                // Every recognizer of the tapped view is given the touch and fails: a tap costs at
                // least its recognizers, so the cost per recognizer is what must not grow.
                let (large, middle) = (dimension.sizes[2], dimension.sizes[1])
                let growth = Double(large) / Double(middle)
                row("dispatch scaling: \(dimension.rawValue)", "\(large) / \(middle)", "\(fixed(ratio, 2))x")
                row("dispatch scaling: \(dimension.rawValue)", "\(large) / \(middle), per recognizer", "\(fixed(ratio / growth, 2))x")
            } else {
                row("dispatch scaling: \(dimension.rawValue)", "10,000 / 100", "\(fixed(ratio, 2))x", "<= 10x")
            }
        }
    }
}
