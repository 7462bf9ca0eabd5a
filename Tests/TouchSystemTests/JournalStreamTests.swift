import Glibc
import Testing
import TouchSystem

/// Journal priorities go only to the stream systemd named: a child that inherited `JOURNAL_STREAM`
/// but writes to a file or a pipe of its own writes plain lines.
@Suite struct JournalStreamTests {
    @Test func onlyTheNamedStreamIsTheJournal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var info = stat()
        #expect(fstat(fds[1], &info) == 0)
        let named = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalStream.isConnected(fds[1], to: named))
        #expect(!JournalStream.isConnected(fds[1], to: "\(info.st_dev):\(info.st_ino &+ 1)"))
        #expect(!JournalStream.isConnected(fds[1], to: nil))
        for malformed in ["", "8", "8:", ":9", "a:b", "8:9:10", "-1:2"] {
            #expect(!JournalStream.isConnected(fds[1], to: malformed), "\(malformed)")
        }
        // Another descriptor, the same variable: not the journal.
        var other: [Int32] = [0, 0]
        #expect(pipe(&other) == 0)
        defer { close(other[0]); close(other[1]) }
        #expect(!JournalStream.isConnected(other[1], to: named))
    }
}
