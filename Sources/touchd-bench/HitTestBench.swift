import TouchCore

/// Trees of a given size for timing hit-tests, and points to test them with.
enum HitTestBench {
    static let window = Size(width: 1280, height: 800)

    /// `count` views side by side in one window, in a grid of cells that covers it.
    static func flat(_ count: Int) -> ViewTree {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: window))
        let columns = Int((Double(count) * window.width / window.height).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let w = window.width / Double(columns)
        let h = window.height / Double(rows)
        for n in 0..<count {
            let frame = Rect(x: Double(n % columns) * w, y: Double(n / columns) * h, width: w, height: h)
            try! tree.addView(ResponderID("v\(n)"), parent: "window", ViewProperties(frame: frame))
        }
        return tree
    }

    /// `count` views nested ten to a parent, each level cutting its parent into ten strips
    /// (across, then down), breadth first: a tree about log10(count) deep.
    static func deep(_ count: Int) -> ViewTree {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: window))
        var queue: [(id: ResponderID, size: Size, depth: Int)] = [("window", window, 0)]
        var made = 0
        var head = 0
        while made < count, head < queue.count {
            let (parent, size, depth) = queue[head]
            head += 1
            let across = depth % 2 == 0
            for k in 0..<10 where made < count {
                let frame =
                    across
                    ? Rect(x: Double(k) * size.width / 10, y: 0, width: size.width / 10, height: size.height)
                    : Rect(x: 0, y: Double(k) * size.height / 10, width: size.width, height: size.height / 10)
                let id = ResponderID("v\(made)")
                try! tree.addView(id, parent: parent, ViewProperties(frame: frame))
                queue.append((id, frame.size, depth + 1))
                made += 1
            }
        }
        return tree
    }

    /// Deterministic points spread over the window (a linear congruential sequence).
    static func points(_ count: Int) -> [Point] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in Point(x: next() * window.width, y: next() * window.height) }
    }

    /// Nanoseconds per hit-test: the fastest of several timed rounds over the same points (noise
    /// on a shared machine only ever adds time).
    static func nanosecondsPerHitTest(_ tree: ViewTree, points: [Point], budget: UInt64 = 40_000_000) -> Double {
        var hits = 0
        // Enough repetitions for each round to take about budget / 8 nanoseconds.
        var repetitions = 1
        while true {
            let start = nanoseconds()
            for _ in 0..<repetitions {
                for p in points where tree.hitTest(p, inWindow: "window")?.view != nil { hits &+= 1 }
            }
            if nanoseconds() - start > budget / 8 || repetitions > 1 << 20 { break }
            repetitions *= 2
        }
        var rounds: [Double] = []
        for _ in 0..<7 {
            let start = nanoseconds()
            for _ in 0..<repetitions {
                for p in points where tree.hitTest(p, inWindow: "window")?.view != nil { hits &+= 1 }
            }
            rounds.append(Double(nanoseconds() - start) / Double(repetitions * points.count))
        }
        keep(hits)
        return rounds.min()!
    }
}
