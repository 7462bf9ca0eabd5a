// touchd-bench: in-process figures for `make bench` (scripts/bench.sh). It prints rows of
// tab-separated section, measure, figure and goal; it never decides anything by itself.
import TouchCore
import TouchSystem

let usage = """
    Every command takes --refresh-hz N, the windows' refresh rate (0: every input frame; default:
    both 0 and 60 for pipeline, 60 for the others), and --subscribers N (default 10).
    usage: touchd-bench pipeline --layout FILE --window ID RECORDING...
           touchd-bench hit-test
           touchd-bench snapshot
           touchd-bench dispatch-scaling
           touchd-bench memory --layout FILE --window ID RECORDING [--frames N]
           touchd-bench allocations --layout FILE --window ID RECORDING...   (with the script's malloc counter preloaded)
           touchd-bench run --stage decode|whole|both --passes N --layout FILE --window ID RECORDING   (for callgrind)
    """

struct Arguments {
    var command = ""
    var layout = "config/kiosk.toml"
    var window = "main"
    var frames = 1_000_000
    var passes = 1
    var stage = "whole"
    var subscribers = 10
    /// The refresh rates asked for with --refresh-hz; nil: each command's own.
    var refreshRates: [Double]?
    var recordings: [String] = []

    init(_ args: [String]) {
        var rest = args[...]
        command = rest.popFirst() ?? ""
        while let arg = rest.popFirst() {
            switch arg {
            case "--layout": layout = rest.popFirst() ?? layout
            case "--window": window = rest.popFirst() ?? window
            case "--frames": frames = rest.popFirst().flatMap { Int($0) } ?? frames
            case "--passes": passes = rest.popFirst().flatMap { Int($0) } ?? passes
            case "--stage": stage = rest.popFirst() ?? stage
            case "--subscribers": subscribers = rest.popFirst().flatMap { Int($0) } ?? subscribers
            case "--refresh-hz": refreshRates = (refreshRates ?? []) + [rest.popFirst().flatMap { Double($0) } ?? 60]
            default: recordings.append(arg)
            }
        }
    }

    /// One bench per recording and refresh rate (`rates` unless --refresh-hz was given).
    func benches(rates: [Double] = [60]) -> [PipelineBench] {
        recordings.flatMap { path in
            (refreshRates ?? rates).map { rate in
                do {
                    return try PipelineBench(recording: path, layout: layout, window: window, subscribers: subscribers, refreshRate: rate)
                } catch {
                    fail("\(path): \(error)")
                }
            }
        }
    }
}

func fail(_ message: String) -> Never {
    var standardError = StandardError()
    print("touchd-bench: \(message)", to: &standardError)
    ProcessContext.exit(1)
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
switch arguments.command {
case "pipeline":
    for bench in arguments.benches(rates: [0, 60]) {
        // Decode-only and whole-pipeline rounds alternate, so that both see the same machine.
        var decodeRounds: [Double] = []
        var wholeRounds: [Double] = []
        var frames = 0
        // The fastest of many rounds: on a shared machine noise only ever adds time.
        for _ in 0..<21 {
            var start = nanoseconds()
            frames = bench.decode()
            decodeRounds.append(Double(nanoseconds() - start) / Double(frames))
            var app = bench.app
            var subscribers = PipelineBench.Subscribers(bench.subscriptions)
            start = nanoseconds()
            _ = bench.whole(app: &app, subscribers: &subscribers)
            wholeRounds.append(Double(nanoseconds() - start) / Double(frames))
        }
        let decode = decodeRounds.min()!
        let whole = wholeRounds.min()!
        let section = "pipeline: \(bench.name) (\(frames) frames, \(bench.subscriptions.count) subscribers, \(bench.rateName))"
        row(section, "decode only", "\(fixed(decode, 0)) ns/frame, \(fixed(1e9 / decode, 0)) frames/s")
        row(section, "whole pipeline", "\(fixed(whole, 0)) ns/frame, \(fixed(1e9 / whole, 0)) frames/s")
        row(section, "whole / decode", "\(fixed(whole / decode, 2))x", bench.refreshRate > 0 ? "<= 3x" : "")
    }
case "hit-test":
    let points = HitTestBench.points(1000)
    var perSize: [String: [Int: Double]] = [:]
    for shape in ["flat", "deep"] {
        for count in [10, 100, 1000, 10_000] {
            var tree = shape == "flat" ? HitTestBench.flat(count) : HitTestBench.deep(count)
            let indexed = HitTestBench.nanosecondsPerHitTest(tree, points: points)
            tree.usesSubviewIndex = false
            let scanned = HitTestBench.nanosecondsPerHitTest(tree, points: points)
            perSize[shape, default: [:]][count] = indexed
            row("hit-test: \(shape)", "\(count) views", "\(fixed(indexed, 0)) ns (scan without the index: \(fixed(scanned, 0)) ns)")
        }
        let ratio = perSize[shape]![10_000]! / perSize[shape]![100]!
        row("hit-test: \(shape)", "10,000 / 100 views", "\(fixed(ratio, 2))x", "<= 10x")
    }
case "snapshot":
    SnapshotBench.run()
case "dispatch-scaling":
    DispatchScalingBench.run()
case "memory":
    guard let bench = arguments.benches().first else { fail(usage) }
    var app = bench.app
    var subscribers = PipelineBench.Subscribers(bench.subscriptions)
    var frames = 0
    var pass = 0
    var rssAt100k: Int?
    while frames < arguments.frames {
        // Each pass continues the same application a second after the last one ended.
        frames += bench.whole(app: &app, subscribers: &subscribers, offset: Double(pass) * (bench.duration + 1))
        pass += 1
        if rssAt100k == nil, frames >= arguments.frames / 10 { rssAt100k = statusKiB("VmRSS") }
    }
    let rssEnd = statusKiB("VmRSS") ?? 0
    let section = "memory: in-process pipeline, \(bench.name) looped (\(bench.rateName))"
    row(section, "RSS after \(arguments.frames / 10) frames", "\((rssAt100k ?? 0) / 1024) MiB (\(rssAt100k ?? 0) KiB)")
    row(section, "RSS after \(frames) frames", "\(rssEnd / 1024) MiB (\(rssEnd) KiB)", "no growth")
    row(section, "growth", "\(rssEnd - (rssAt100k ?? 0)) KiB")
case "allocations":
    guard let counter = AllocationCounter() else { fail("no allocation counter: run with the bench script's LD_PRELOAD library") }
    for bench in arguments.benches() {
        var app = bench.app
        var subscribers = PipelineBench.Subscribers(bench.subscriptions)
        // A first pass warms the application's and the subscribers' buffers up; the second, which
        // continues the same application a second after the first ends (as a daemon runs on), is
        // counted.
        _ = bench.whole(app: &app, subscribers: &subscribers)
        var frames: [PipelineBench.FrameKind: Int] = [:], allocations: [PipelineBench.FrameKind: UInt64] = [:]
        frames.reserveCapacity(3)
        allocations.reserveCapacity(3)
        _ = bench.whole(app: &app, subscribers: &subscribers, offset: bench.duration + 1) { work in
            let before = counter.count
            guard let kind = work() else { return }
            allocations[kind, default: 0] += counter.count - before
            frames[kind, default: 0] += 1
        }
        let before = counter.count
        let decoded = bench.decode()
        let decodeAllocations = counter.count - before
        let section = "allocations: \(bench.name) (\(bench.rateName))"
        for (kind, name) in [(PipelineBench.FrameKind.moves, "move"), (.touchDown, "touch-down"), (.lift, "lift")] {
            let n = frames[kind] ?? 0
            row(section, "per \(name) frame (\(n) frames)", fixed(Double(allocations[kind] ?? 0) / Double(max(n, 1)), 1))
        }
        row(section, "per frame, decode only", fixed(Double(decodeAllocations) / Double(max(decoded, 1)), 1))
    }
case "run":
    guard let bench = arguments.benches().first else { fail(usage) }
    // Frames per pass: callgrind's inclusive counts of decode() and whole() divided by these.
    var frames = 0
    for _ in 0..<arguments.passes {
        if arguments.stage != "whole" { frames = bench.decode() }
        if arguments.stage != "decode" {
            var app = bench.app
            var subscribers = PipelineBench.Subscribers(bench.subscriptions)
            frames = bench.whole(app: &app, subscribers: &subscribers)
        }
    }
    print("frames \(frames) passes \(arguments.passes)")
default:
    fail(usage)
}
