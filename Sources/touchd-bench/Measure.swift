import TouchSystem

/// The monotonic clock in nanoseconds.
func nanoseconds() -> UInt64 { MonotonicClock.nanoseconds }

/// The CPU time this thread has used, in nanoseconds: on a shared machine, what a piece of work
/// costs whatever else runs (the wall clock also counts the time other processes had the CPU).
func threadCPUNanoseconds() -> UInt64 { ThreadCPUClock.nanoseconds }

/// A kibibyte figure from `/proc/self/status` (`VmRSS`, `VmHWM`).
func statusKiB(_ key: String) -> Int? {
    guard let status = try? FileReader.readText("/proc/self/status", limit: 1 << 16) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.dropFirst(key.count + 1).filter(\.isNumber))
    }
    return nil
}

/// The allocation counter of the preloaded `malloc` wrapper the bench script builds, when present.
struct AllocationCounter {
    private let read: @convention(c) () -> UInt64

    init?() {
        guard let symbol = DynamicSymbol.address(of: "touchd_bench_allocations") else { return nil }
        read = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
    }

    var count: UInt64 { read() }
}

/// One row of the table the bench script prints: tab-separated section, measure, figure, goal.
func row(_ section: String, _ measure: String, _ figure: String, _ goal: String = "") {
    print([section, measure, figure, goal].joined(separator: "\t"))
}

/// A number with a fixed count of decimals.
func fixed(_ value: Double, _ decimals: Int = 1) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// The median of some samples.
func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// Keeps a value alive so that the optimizer cannot drop the work that made it.
@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }
