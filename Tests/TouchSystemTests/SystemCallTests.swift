import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The funnel's mapping of each outcome, driven by closures that fail as the kernel would.
@Suite(.timeLimit(.minutes(10))) struct SystemCallTests {
    @Test func aSuccessfulCallReturnsItsResult() throws {
        #expect(try SystemCall.posix("read") { Int32(7) } == .done(7))
        #expect(try SystemCall.posix("read") { 42 as Int } == .done(42))
        #expect(try SystemCall.require("open") { Int32(3) } == 3)
    }

    @Test func anInterruptedCallIsRetriedUntilItCompletes() throws {
        var attempts = 0
        let outcome = try SystemCall.posix("read") { () -> Int32 in
            attempts += 1
            if attempts < 3 {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(outcome == .done(5))
        #expect(attempts == 3)
    }

    @Test func wouldBlockIsNotAnError() throws {
        let outcome = try SystemCall.posix("recv", "fd 4") { () -> Int in
            errno = EAGAIN
            return -1
        }
        #expect(outcome == .wouldBlock)
    }

    @Test func wouldBlockIsAnErrorWhereAResultIsRequired() {
        #expect(throws: SystemError(call: "socket", subject: "", errno: EAGAIN)) {
            try SystemCall.require("socket") { () -> Int32 in
                errno = EAGAIN
                return -1
            }
        }
    }

    @Test func aFailureNamesTheCallItsSubjectAndTheErrno() {
        do {
            _ = try SystemCall.posix("open", "/dev/input/event9") { () -> Int32 in
                errno = ENOENT
                return -1
            }
            Issue.record("no error thrown")
        } catch {
            #expect(error.call == "open")
            #expect(error.subject == "/dev/input/event9")
            #expect(error.isMissing)
            #expect(error.description == "open /dev/input/event9: No such file or directory (ENOENT)")
        }
    }

    @Test func aBadDescriptorIsReportedAsABugInsteadOfStoppingTheProcess() {
        do {
            _ = try SystemCall.posix("read", "fd 99") { () -> Int32 in
                errno = EBADF
                return -1
            }
            Issue.record("no error thrown")
        } catch {
            #expect(error.isProgrammingError)
        }
    }

    @Test func negativeErrnoCallsMapTheSameWay() throws {
        var attempts = 0
        let outcome = try SystemCall.negativeErrno("libevdev_next_event") { () -> Int32 in
            attempts += 1
            return attempts == 1 ? -EINTR : -EAGAIN
        }
        #expect(outcome == .wouldBlock)
        #expect(attempts == 2)
        #expect(throws: SystemError(call: "libevdev_grab", subject: "/dev/input/event3", errno: EBUSY)) {
            try SystemCall.negativeErrno("libevdev_grab", "/dev/input/event3") { -EBUSY }
        }
        // The one negative Int32 that cannot be negated is reported, not trapped on.
        #expect(throws: SystemError(call: "odd", subject: "", errno: EINVAL)) {
            try SystemCall.negativeErrno("odd") { Int32.min }
        }
    }

    @Test func aNullPointerWithoutErrnoIsOutOfMemory() {
        #expect(throws: SystemError(call: "udev_new", subject: "", errno: ENOMEM)) {
            let _: Int = try SystemCall.pointer("udev_new") { nil }
        }
        #expect(throws: SystemError(call: "udev_monitor_new_from_netlink", subject: "udev", errno: EACCES)) {
            let _: Int = try SystemCall.pointer("udev_monitor_new_from_netlink", "udev") { () -> Int? in
                errno = EACCES
                return nil
            }
        }
    }
}
