import Foundation
import Testing

/// `touchd run`'s options are checked as the layout's `[daemon]` keys they stand for, before
/// anything starts: a bad one is a usage error (64) with the option and what was expected.
@Suite(.timeLimit(.minutes(10))) struct RunOptionUsageTests {
    @Test(arguments: [
        (["--socket", "rel.sock"], "--socket rel.sock: expected an absolute path"),
        (["--metrics-file", "rel.prom"], "--metrics-file rel.prom: expected an absolute path"),
        (["--websocket", "localhost"], "--websocket localhost: expected HOST:PORT with an IP address"),
        (["--tuio", "nowhere"], "--tuio nowhere: expected HOST:PORT"),
        (["--socket", "/tmp/" + String(repeating: "s", count: 103) + ".sock"], "the path is 113 bytes long: expected at most 107"),
    ])
    func aBadOptionIsAUsageError(options: [String], message: String) throws {
        let dir = temporaryPath("run-options")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[[window]]\nid = \"main\"\nsize = [800, 600]\n".write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        let socket = options.contains("--socket") ? [] : ["--socket", dir + "/touchd.sock"]
        let run = try runToEnd(
            Binaries.touchd, ["run", "--config", dir + "/layout.toml", "--no-devices"] + socket + options, directory: dir, timeout: 20)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/rel.sock"))
    }
}
