import TouchSystem
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's single event loop: one thread, one epoll set. Device input, the udev monitor,
/// signals, timers and socket clients are all file descriptors in it, so nothing polls and an idle
/// daemon sleeps in `epoll_wait` with no timeout.
///
/// Not thread-safe: create it, register with it and run it on one thread.
public final class EventLoop {
    /// What a handler is told about its descriptor.
    public struct Readiness: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Readiness(rawValue: UInt32(EPOLLIN.rawValue))
        public static let writable = Readiness(rawValue: UInt32(EPOLLOUT.rawValue))
        public static let hangup = Readiness(rawValue: UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue))
    }

    private let epfd: Int32
    private var handlers: [Int32: (Readiness) -> Void] = [:]
    private var running = false
    /// Work to run after the current batch of descriptors (used to apply changes between events).
    private var deferred: [() -> Void] = []
    /// How many times `epoll_wait` returned: a measure of wakeups.
    public private(set) var wakeups = 0

    public init() throws(SystemError) {
        epfd = try SystemCall.descriptor("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    deinit { close(epfd) }

    /// Watches `fd` for `interest`; `handler` runs on the loop when it is ready.
    public func register(_ fd: Int32, for interest: Readiness, handler: @escaping (Readiness) -> Void) throws(SystemError) {
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(fd: fd))
        try SystemCall.require("epoll_ctl(ADD)", "fd \(fd)") { epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) }
        handlers[fd] = handler
    }

    /// Changes what `fd` is watched for.
    public func modify(_ fd: Int32, for interest: Readiness) {
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(fd: fd))
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd` (the caller closes it).
    public func unregister(_ fd: Int32) {
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nil)
        handlers[fd] = nil
    }

    /// Runs `work` on the loop once the descriptors of the current wakeup are handled.
    public func deferWork(_ work: @escaping () -> Void) { deferred.append(work) }

    /// Runs until ``stop()``.
    public func run() throws(SystemError) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while running {
            let n = epoll_wait(epfd, &events, Int32(events.count), -1)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.current("epoll_wait")
            }
            wakeups += 1
            for i in 0..<Int(n) {
                let fd = events[i].data.fd
                handlers[fd]?(Readiness(rawValue: events[i].events))
            }
            runDeferred()
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for one batch of ready descriptors and handles
    /// it. Returns how many descriptors were ready. Lets tests drive the loop step by step.
    @discardableResult
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        let n = epoll_wait(epfd, &events, Int32(events.count), timeoutMilliseconds)
        if n < 0 {
            if errno == EINTR { return 0 }
            throw SystemError.current("epoll_wait")
        }
        if n > 0 { wakeups += 1 }
        for i in 0..<Int(n) {
            let fd = events[i].data.fd
            handlers[fd]?(Readiness(rawValue: events[i].events))
        }
        runDeferred()
        return Int(n)
    }

    /// Runs whatever was deferred (also useful when driving the loop's parts without `run`).
    public func runDeferred() {
        while !deferred.isEmpty {
            let work = deferred
            deferred.removeAll()
            for w in work { w() }
        }
    }

    /// Makes ``run()`` return after the current wakeup.
    public func stop() { running = false }
}

/// A one-shot or periodic timer as a descriptor (`timerfd`, CLOCK_MONOTONIC).
public final class LoopTimer {
    public let fd: Int32

    public init() throws(SystemError) {
        fd = try SystemCall.descriptor("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Fires after `seconds`, then every `interval` seconds if given; `nil` disarms.
    public func arm(after seconds: Double?, interval: Double? = nil) {
        func spec(_ s: Double?) -> timespec {
            guard let s, s > 0 else { return timespec(tv_sec: 0, tv_nsec: 0) }
            return timespec(tv_sec: Int(s), tv_nsec: Int((s - Double(Int(s))) * 1e9))
        }
        var value = itimerspec(it_interval: spec(interval), it_value: spec(seconds))
        if seconds != nil && value.it_value.tv_sec == 0 && value.it_value.tv_nsec == 0 { value.it_value.tv_nsec = 1 }
        _ = timerfd_settime(fd, 0, &value, nil)
    }

    /// Consumes the expirations so the descriptor stops being readable.
    public func acknowledge() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
    }
}

/// Signals delivered as a descriptor (`signalfd`), so no logic runs in a signal handler.
public final class SignalSource {
    public let fd: Int32

    /// Blocks `signals` and reads them from a descriptor instead.
    ///
    /// The mask is per thread and threads inherit it: create this before any other thread starts
    /// (the daemon's command is synchronous for this reason), or a thread that still has the signal
    /// unblocked takes it with its default action.
    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        try SystemCall.require("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fd = try SystemCall.descriptor("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The signals waiting, in order.
    public func receive() -> [Int32] {
        var result: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            result.append(Int32(info.ssi_signo))
        }
        return result
    }
}
