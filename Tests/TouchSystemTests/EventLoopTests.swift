import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose read end the loop watches.
private final class Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    init(readEnd: Int32, writeEnd: Int32) {
        self.readEnd = readEnd
        self.writeEnd = writeEnd
    }

    init() throws {
        var fds: [Int32] = [-1, -1]
        try SystemCall.require("pipe") { pipe(&fds) }
        readEnd = fds[0]
        writeEnd = fds[1]
        try Descriptor.setNonBlocking(readEnd)
        try Descriptor.setNonBlocking(writeEnd)
    }

    func makeReadable() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func closeBoth() {
        Descriptor.close(readEnd)
        Descriptor.close(writeEnd)
    }
}

/// The loop's registrations: readiness reaches the registration it was reported for, and every
/// failure to change a registration is surfaced.
@Suite(.timeLimit(.minutes(10))) struct EventLoopTests {
    @Test func aDescriptorReopenedUnderTheSameNumberInOneBatchGetsNoStaleReadiness() throws {
        let loop = try EventLoop()
        let first = try Pipe()
        let second = try Pipe()
        var replacement: Pipe?
        var replacementCalls = 0
        var swapped = false
        var survivor: Pipe?
        // Whichever of the two is handled first unregisters the other and puts a new pipe under
        // its number (dup2 closes the old file and reuses the number at once, as a close and an
        // open would): the batch still holds the old file's readiness, which must not reach the
        // new registration.
        func swap(out victim: Pipe) throws {
            guard !swapped else { return }
            swapped = true
            loop.unregister(victim.readEnd)
            let fresh = try Pipe()
            try SystemCall.require("dup2") { dup2(fresh.readEnd, victim.readEnd) }
            Descriptor.close(fresh.readEnd)
            Descriptor.close(victim.writeEnd)
            let reopened = Pipe(readEnd: victim.readEnd, writeEnd: fresh.writeEnd)
            try loop.register(reopened.readEnd, for: .readable) { _ in replacementCalls += 1 }
            replacement = reopened
        }
        try loop.register(first.readEnd, for: .readable) { _ in
            if !swapped { survivor = first }
            try? swap(out: second)
        }
        try loop.register(second.readEnd, for: .readable) { _ in
            if !swapped { survivor = second }
            try? swap(out: first)
        }
        first.makeReadable()
        second.makeReadable()
        let ready = try loop.runOnce(timeoutMilliseconds: 1_000)
        #expect(ready == 2, "both were in the batch")
        #expect(swapped)
        #expect(replacementCalls == 0, "the closed descriptor's readiness went nowhere")
        // The new registration works once its own descriptor is ready.
        let fresh = try #require(replacement)
        fresh.makeReadable()
        try loop.runOnce(timeoutMilliseconds: 1_000)
        #expect(replacementCalls == 1)
        fresh.closeBoth()
        survivor?.closeBoth()
    }

    @Test func failuresToChangeOrRemoveARegistrationAreReported() throws {
        var reported: [SystemError] = []
        let loop = try EventLoop { reported.append($0) }
        let pipe = try Pipe()
        defer { pipe.closeBoth() }
        // A copy under a number far above those other tests open, so none reuses it once closed.
        var limits = rlimit()
        try SystemCall.require("getrlimit") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) }
        let high = Int32(clamping: min(limits.rlim_cur, 4_096)) - 16
        let fd = try SystemCall.descriptor("fcntl(F_DUPFD_CLOEXEC)") { fcntl(pipe.readEnd, F_DUPFD_CLOEXEC, high) }
        try loop.register(fd, for: .readable) { _ in }
        #expect(throws: SystemError.self) { try loop.register(fd, for: .readable) { _ in } }
        // Closed behind the loop's back: the kernel dropped it from the epoll set already.
        Descriptor.close(fd)
        loop.modify(fd, for: .writable)
        loop.unregister(fd)
        loop.modify(fd, for: .readable)
        #expect(reported.map(\.call) == ["epoll_ctl(MOD)", "epoll_ctl(DEL)", "epoll_ctl(MOD)"])
        #expect(reported.map(\.errno) == [EBADF, EBADF, ENOENT])
        #expect(reported.first?.isProgrammingError == true)
    }

    @Test func aDescriptorClosedWithoutBeingUnregisteredCanBeRegisteredAgainAndTheMistakeIsReported() throws {
        var reported: [SystemError] = []
        let loop = try EventLoop { reported.append($0) }
        let old = try Pipe()
        defer { old.closeBoth() }
        var limits = rlimit()
        try SystemCall.require("getrlimit") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) }
        let number = try SystemCall.descriptor("fcntl(F_DUPFD_CLOEXEC)") { fcntl(old.readEnd, F_DUPFD_CLOEXEC, Int32(clamping: min(limits.rlim_cur, 4_096)) - 32) }
        var oldCalls = 0
        var newCalls = 0
        try loop.register(number, for: .readable) { _ in oldCalls += 1 }
        // Closed behind the loop's back, and the number given to another pipe.
        Descriptor.close(number)
        let fresh = try Pipe()
        try SystemCall.require("dup2") { dup2(fresh.readEnd, number) }
        Descriptor.close(fresh.readEnd)
        let reopened = Pipe(readEnd: number, writeEnd: fresh.writeEnd)
        defer { reopened.closeBoth() }
        try loop.register(number, for: .readable) { _ in newCalls += 1 }
        #expect(reported.map(\.errno) == [EBADF], "\(reported)")
        reopened.makeReadable()
        old.makeReadable()
        try loop.runOnce(timeoutMilliseconds: 1_000)
        #expect(newCalls == 1)
        #expect(oldCalls == 0)
    }

    @Test func anIdleLoopIsNotWokenAndWorkDeferredRunsAfterTheBatch() throws {
        let loop = try EventLoop()
        #expect(try loop.runOnce(timeoutMilliseconds: 20) == 0)
        #expect(loop.wakeups == 0)
        let pipe = try Pipe()
        defer { pipe.closeBoth() }
        var order: [String] = []
        try loop.register(pipe.readEnd, for: .readable) { _ in
            order.append("handler")
            loop.deferWork { order.append("deferred") }
            var byte: UInt8 = 0
            _ = read(pipe.readEnd, &byte, 1)
        }
        pipe.makeReadable()
        try loop.runOnce(timeoutMilliseconds: 1_000)
        #expect(order == ["handler", "deferred"])
        #expect(loop.wakeups == 1)
    }
}
