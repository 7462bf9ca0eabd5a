import TouchCore
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// touchd's single event loop: one thread, one epoll set. Device input, the udev monitor, signals,
/// timers and socket clients are all descriptors in it, so nothing polls and an idle loop sleeps in
/// `epoll_wait` with no timeout.
///
/// Every registration carries an identity: epoll hands back the registration's number (in
/// `data.u64`), not the descriptor, and the number is looked up in a table. A descriptor
/// unregistered, closed and reopened under the same number while one batch of readiness is being
/// handled never receives the readiness its predecessor had (as swift-nio's selector does).
///
/// Timers (``timer(_:)``, ``schedule(after:_:)``) share one `timerfd`, armed for the earliest
/// deadline on the loop's ``clock``: with no timer scheduled, nothing wakes the loop. A loop on
/// another clock than the kernel's (a ``ManualClock`` in tests) never arms it: whoever moves that
/// clock runs the due timers (``runDueTimers()``).
///
/// Failures of `epoll_ctl` and `timerfd_settime` that are not thrown to a caller go to
/// ``onError``, which the owner logs.
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

    /// The clock the loop's timers run on (the kernel's monotonic clock, or a manual one in tests).
    public let clock: any TimeSource
    /// Told of every failure the loop met that no caller could be thrown (changing or removing a
    /// registration, arming the timer). By default written to standard error; the daemon logs it.
    public let onError: (SystemError) -> Void

    private let epfd: Int32
    private var registrations = RegistrationTable<(Readiness) -> Void>()
    /// What each registered descriptor is watched for.
    private var interests: [Int32: Readiness] = [:]
    private var events = [epoll_event](repeating: epoll_event(), count: 64)
    private var running = false
    /// Work to run after the current batch of descriptors (used to apply changes between events),
    /// and the buffer the last batch of it ran from (kept, so deferring allocates nothing).
    private var deferred: [() -> Void] = []
    private var runningDeferred: [() -> Void] = []
    /// How many times `epoll_wait` returned with something ready: a measure of wakeups.
    public private(set) var wakeups = 0

    /// The loop's timers (see EventLoop+Timers.swift).
    let timerFD: Int32
    var scheduledTimers: [TimerHandle] = []
    /// The deadline the `timerfd` is armed for (on ``clock``); nil when disarmed.
    var armedDeadline: LoopInstant?
    /// Whether due timers are being run (the descriptor is armed once they all have).
    var firingTimers = false
    /// Whether the `timerfd` follows the timers: only when they run on the kernel's clock.
    let timersUseDescriptor: Bool

    /// A loop whose timers run on `clock`, telling `onError` of the failures no caller could be
    /// thrown.
    /// - Throws: ``SystemError`` from `epoll_create1`, `timerfd_create` or registering the timer.
    public init(
        clock: any TimeSource = MonotonicClock(), onError: @escaping (SystemError) -> Void = EventLoop.writeToStandardError
    ) throws(SystemError) {
        self.clock = clock
        self.onError = onError
        timersUseDescriptor = clock is MonotonicClock
        epfd = try SystemCall.descriptor("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            timerFD = try SystemCall.descriptor("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        } catch {
            Descriptor.close(epfd)
            throw error
        }
        try register(timerFD, for: .readable) { [unowned self] _ in self.timerExpired() }
    }

    deinit {
        Descriptor.close(timerFD)
        Descriptor.close(epfd)
    }

    /// Watches `fd` for `interest`; `handler` runs on the loop when it is ready, until
    /// ``unregister(_:)``.
    /// - Throws: ``SystemError`` from `epoll_ctl` (`EEXIST` when `fd` is registered already).
    public func register(_ fd: Int32, for interest: Readiness, handler: @escaping (Readiness) -> Void) throws(SystemError) {
        try forgetIfClosed(fd)
        let identity = registrations.add(fd, handler: handler)
        interests[fd] = interest
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(u64: identity))
        do {
            try SystemCall.require("epoll_ctl(ADD)", "fd \(fd)") { epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) }
        } catch {
            _ = registrations.remove(fd)
            interests[fd] = nil
            throw error
        }
    }

    /// Makes way for a new registration of `fd` when the table still holds one: a descriptor
    /// closed without being unregistered left the epoll set with its file, and the number may now
    /// name another file. A bug in its owner, reported to ``onError``; a descriptor that is in fact
    /// still registered is refused with `EEXIST`.
    private func forgetIfClosed(_ fd: Int32) throws(SystemError) {
        guard let identity = registrations.identity(of: fd) else { return }
        var probe = epoll_event(events: interests[fd]?.rawValue ?? 0, data: epoll_data_t(u64: identity))
        if (try? SystemCall.require("epoll_ctl(MOD)", "fd \(fd)", { epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &probe) })) != nil {
            throw SystemError(call: "epoll_ctl(ADD)", subject: "fd \(fd)", errno: EEXIST)
        }
        _ = registrations.remove(fd)
        interests[fd] = nil
        onError(SystemError(call: "close", subject: "fd \(fd), closed without being unregistered from the event loop", errno: EBADF))
    }

    /// Changes what `fd` is watched for; a failure goes to ``onError``.
    public func modify(_ fd: Int32, for interest: Readiness) {
        guard let identity = registrations.identity(of: fd) else {
            return onError(SystemError(call: "epoll_ctl(MOD)", subject: "fd \(fd) (not registered)", errno: ENOENT))
        }
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(u64: identity))
        do {
            try SystemCall.require("epoll_ctl(MOD)", "fd \(fd)") { epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event) }
            interests[fd] = interest
        } catch {
            onError(error)
        }
    }

    /// Stops watching `fd` (the caller closes it afterwards): readiness already reported for it in
    /// the batch being handled is dropped. A descriptor not registered is left alone; a failure
    /// goes to ``onError``.
    public func unregister(_ fd: Int32) {
        guard registrations.remove(fd) else { return }
        interests[fd] = nil
        do {
            try SystemCall.require("epoll_ctl(DEL)", "fd \(fd)") { epoll_ctl(epfd, EPOLL_CTL_DEL, fd, nil) }
        } catch {
            onError(error)
        }
    }

    /// Whether `fd` is registered now.
    public func isRegistered(_ fd: Int32) -> Bool { registrations.identity(of: fd) != nil }

    /// Runs `work` on the loop once the descriptors of the current wakeup are handled.
    public func deferWork(_ work: @escaping () -> Void) { deferred.append(work) }

    /// Runs until ``stop()``.
    /// - Throws: ``SystemError`` from `epoll_wait`.
    public func run() throws(SystemError) {
        running = true
        while running { try handleOneBatch(timeoutMilliseconds: -1) }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for one batch of ready descriptors and handles
    /// it. Returns how many descriptors were ready. Lets tests and tools drive the loop step by step.
    /// - Throws: ``SystemError`` from `epoll_wait`.
    @discardableResult
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        try handleOneBatch(timeoutMilliseconds: timeoutMilliseconds)
    }

    @discardableResult
    private func handleOneBatch(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let capacity = Int32(truncatingIfNeeded: events.count)
        let count = try events.withUnsafeMutableBufferPointer { buffer throws(SystemError) -> Int in
            guard case .done(let n) = try SystemCall.posix("epoll_wait", "", { epoll_wait(epfd, buffer.baseAddress, capacity, timeoutMilliseconds) })
            else { return 0 }
            return min(n, buffer.count)
        }
        if count > 0 { wakeups += 1 }
        for i in 0..<count {
            let event = events[i]
            // A registration removed earlier in this batch is gone from the table: its readiness
            // (which a new descriptor with the same number must never see) is dropped here.
            registrations.handler(for: event.data.u64)?(Readiness(rawValue: event.events))
        }
        runDeferred()
        return count
    }

    /// Runs whatever was deferred (also useful when driving the loop's parts without `run`).
    public func runDeferred() {
        while !deferred.isEmpty {
            // Work deferred while this runs goes into the other buffer, for the next round.
            swap(&deferred, &runningDeferred)
            for work in runningDeferred { work() }
            runningDeferred.removeAll(keepingCapacity: true)
        }
    }

    /// Makes ``run()`` return after the current wakeup.
    public func stop() { running = false }

    /// The default ``onError``: one line on standard error.
    public static func writeToStandardError(_ error: SystemError) {
        let line = Array("touchd: event loop: \(error)\n".utf8)
        _ = line.withUnsafeBytes { bytes in try? SystemCall.posix("write", "standard error") { write(2, bytes.baseAddress, bytes.count) } }
    }
}
