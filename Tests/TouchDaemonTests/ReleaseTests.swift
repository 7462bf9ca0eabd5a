import Foundation
import Testing
import TouchDaemon
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// What an installed touchd promises its operator: the version both tools print (the Debian
/// package's too), one group for the socket's clients whichever way the socket is made, and every
/// line of a logged message at its priority in the journal.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReleaseTests {
    @Test func touchdAndTouchctlPrintTheReleaseVersion() throws {
        let touchd = try runToEnd(Binaries.touchd, ["--version"])
        #expect(touchd.status == 0, "\(touchd.stderr)")
        #expect(touchd.stdout == "touchd \(ReleaseVersion.number)\n")
        let touchctl = try runToEnd(Binaries.touchctl, ["--version"])
        #expect(touchctl.status == 0, "\(touchctl.stderr)")
        #expect(touchctl.stdout == "touchctl \(ReleaseVersion.number)\n")
    }
}
