import Foundation
import Testing
import TouchDaemon
import TouchEvdev

/// Reading recordings by path (the shell around TouchEvdev's parsers): unreadable files are named
/// as what they were meant to be.
@Suite(.timeLimit(.minutes(10))) struct RecordingLoadTests {
    @Test func aMissingFileIsUnreadable() {
        #expect {
            try Recording.load(path: "/nonexistent/touchd/recording.evemu")
        } throws: { error in
            guard let error = error as? RecordingError, case .unreadable = error.kind else { return false }
            return error.file == "/nonexistent/touchd/recording.evemu"
        }
    }

    @Test func aMissingDescriptionFileIsNamedAsTheDescription() throws {
        let path = NSTemporaryDirectory() + "touchd-desc-test-\(UInt32.random(in: 0...UInt32.max)).evemu"
        try "E: 1.000000 0000 0000 0000\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try Recording.load(path: path, descriptionPath: "/nonexistent/touchd/screen.desc")
        } throws: { error in
            guard let error = error as? RecordingError, case .unreadable(_, let what) = error.kind else { return false }
            return error.file == "/nonexistent/touchd/screen.desc" && what == "the device description"
                && error.description.contains("cannot read the device description")
        }
    }
}
