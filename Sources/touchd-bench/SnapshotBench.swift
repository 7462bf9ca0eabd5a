import TouchCore
import TouchRender

/// Pictures of large trees, for timing the daemon's `snapshot` request (which renders on the
/// daemon's only event loop).
enum SnapshotBench {
    /// The daemon's history of touches at its fullest: 200 paths of 2,000 samples each, criss-crossing
    /// the window (Daemon's `recentTouches` keeps at most that).
    static func fullHistory(window: Size) -> [TouchPath] {
        (TouchID(0)..<200).map { n in
            let points = (0..<2_000).map { k in
                let t = Double(k) / 1_999
                let x = (Double(n % 20) / 20 + t * 0.3).truncatingRemainder(dividingBy: 1) * window.width
                let y = (Double(n / 20) / 10 + t * 0.2).truncatingRemainder(dividingBy: 1) * window.height
                let phase: TouchPhase = k == 0 ? .began : (k == 1_999 ? .ended : .moved)
                return TouchPathPoint(location: Point(x: x, y: y), phase: phase, timestamp: InputTime(seconds: Double(n) + t))
            }
            return TouchPath(id: n + 1, window: "window", view: nil, delivery: .noView, points: points)
        }
    }

    /// The least CPU time and the least wall-clock time of a few snapshots of `tree` (noise on a
    /// shared machine only ever adds time), in milliseconds, and the last picture.
    static func milliseconds(_ tree: ViewTree, touches: [TouchPath], heatmap: Bool, rounds: Int = 5) -> (cpu: Double, wall: Double, Picture?) {
        var cpu = Double.infinity
        var wall = Double.infinity
        var picture: Picture?
        for _ in 0..<rounds {
            let start = nanoseconds()
            let startCPU = threadCPUNanoseconds()
            do {
                let renderer = try SVGRenderer(tree: tree, window: "window")
                picture = try renderer.render(touches: touches, heatmap: heatmap ? renderer.heatmap(of: touches) : nil)
            } catch {
                fail("snapshot: \(error)")
            }
            cpu = min(cpu, Double(threadCPUNanoseconds() - startCPU) / 1e6)
            wall = min(wall, Double(nanoseconds() - start) / 1e6)
        }
        return (cpu, wall, picture)
    }

    /// Prints the table's rows: each size's time, and how it grows from 1,000 to 10,000 views.
    static func run() {
        var flat: [Int: Double] = [:]
        for (shape, make) in [("flat", HitTestBench.flat), ("deep", HitTestBench.deep)] {
            for count in [1_000, 10_000] {
                let (cpu, wall, picture) = milliseconds(make(count), touches: [], heatmap: false)
                if shape == "flat" { flat[count] = cpu }
                row("snapshot: \(shape)", "\(count) views", figure(cpu, wall, picture), count == 10_000 ? "< 100 ms" : "")
            }
        }
        if let small = flat[1_000], let large = flat[10_000] {
            row("snapshot: flat", "10,000 / 1,000 views", "\(fixed(large / small, 1))x", "<= 15x")
        }
        let touches = fullHistory(window: HitTestBench.window)
        let (cpu, wall, picture) = milliseconds(HitTestBench.flat(10_000), touches: touches, heatmap: true)
        row("snapshot: flat, full touch history, heatmap", "10,000 views", figure(cpu, wall, picture), "< 100 ms")
    }

    static func figure(_ cpu: Double, _ wall: Double, _ picture: Picture?) -> String {
        "\(fixed(cpu, 1)) ms CPU (\(fixed(wall, 1)) ms wall; \(describe(picture)))"
    }

    static func describe(_ picture: Picture?) -> String {
        guard let s = picture?.statistics else { return "no picture" }
        return "\(s.bytes / 1024) KiB, \(s.labelledViews) labels, \(s.labelOverlapTests) overlap tests"
            + (s.touches > 0 ? ", \(s.touchSamples) touch samples" : "")
    }
}
