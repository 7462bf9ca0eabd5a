import TouchCore
#if canImport(Glibc)
import Glibc
#endif

/// Tells the time on the kernel's monotonic timeline (``LoopInstant``, in microseconds): the unit
/// and the clock evdev stamps live input with (`EventTime` is this count), so a time read here
/// compares with a device's events.
///
/// The shell is given one at `init` (the daemon's loop, its input sources, the socket server); pure
/// code never reads a clock. ``MonotonicClock`` reads the kernel's; ``ManualClock`` is set by hand,
/// for tests.
public protocol TimeSource: AnyObject {
    /// Now.
    var now: LoopInstant { get }
}

/// The kernel's monotonic clock (`CLOCK_MONOTONIC`): the clock evdev stamps live events with, and
/// the one clock touchd reads.
public final class MonotonicClock: TimeSource {
    /// The clock (it has no state: every instance reads the same kernel clock).
    public init() {}

    /// Now: microseconds since boot, as evdev's event timestamps count them.
    public var now: LoopInstant { LoopInstant(microseconds: Self.read()) }

    /// Nanoseconds since boot: the same clock, finer (benchmarks time short work with it).
    public static var nanoseconds: UInt64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(clamping: ts.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: ts.tv_nsec)
    }

    /// The one reading of the kernel's clock. `clock_gettime(CLOCK_MONOTONIC)` cannot fail on
    /// Linux (the clock always exists and the pointer is valid); a zero time would be read if it did.
    static func read() -> Int64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000 &+ Int64(ts.tv_nsec) / 1_000
    }
}

/// A clock that moves only when told to: tests drive timers and input time with it.
public final class ManualClock: TimeSource {
    /// Now.
    public var now: LoopInstant

    /// A clock reading `microseconds`.
    public init(microseconds: Int64 = 0) { now = LoopInstant(microseconds: microseconds) }

    /// A clock reading `seconds` (rounded up to the microsecond, from 0).
    public convenience init(seconds: Double) { self.init(microseconds: TimeSpan(seconds: seconds).microseconds ?? 0) }

    /// Moves the clock on by `span` (rounded up to the microsecond; a span that is not a finite
    /// non-negative number moves it by nothing, or to the end of time for infinity).
    public func advance(by span: TimeSpan) {
        now = now.advanced(by: span) ?? LoopInstant(microseconds: Int64.max)
    }
}
