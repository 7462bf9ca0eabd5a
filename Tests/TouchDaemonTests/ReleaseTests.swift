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
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReleaseTests {
    @Test func touchdAndTouchctlPrintTheReleaseVersion() throws {
        let touchd = try runToEnd(Binaries.touchd, ["--version"])
        #expect(touchd.status == 0, "\(touchd.stderr)")
        #expect(touchd.stdout == "touchd \(ReleaseVersion.number)\n")
        let touchctl = try runToEnd(Binaries.touchctl, ["--version"])
        #expect(touchctl.status == 0, "\(touchctl.stderr)")
        #expect(touchctl.stdout == "touchctl \(ReleaseVersion.number)\n")
    }

    @Test func theDebianChangelogNamesTheReleaseVersion() throws {
        let changelog = try String(contentsOfFile: Binaries.repository + "/debian/changelog", encoding: .utf8)
        let first = try #require(changelog.split(separator: "\n").first)
        // `touchd (0.1.0) unstable; urgency=medium`; a Debian revision (`0.1.0-2`) may follow.
        let version = first.split(separator: "(").dropFirst().first?.split(separator: ")").first
        let upstream = version?.split(separator: "-").first.map(String.init)
        #expect(first.hasPrefix("touchd ("), "\(first)")
        #expect(upstream == ReleaseVersion.number, "\(first)")
    }

    /// `Key=value` settings of a unit or sysusers file, in order, comments left out.
    static func settings(_ file: String) throws -> [(key: String, value: String)] {
        try String(contentsOfFile: Binaries.repository + "/systemd/" + file, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { line in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
    }

    @Test func clientsJoinTheTouchdGroupWithOrWithoutSocketActivation() throws {
        let service = try Self.settings("touchd.service")
        let socket = try Self.settings("touchd.socket")
        // Socket-activated, the socket file is systemd's, with SocketGroup=; otherwise touchd binds
        // it with its own group (Group=). Both must be the group the clients join.
        #expect(socket.filter { $0.key == "SocketGroup" }.map(\.value) == ["touchd"])
        #expect(service.filter { $0.key == "Group" }.map(\.value) == ["touchd"])
        #expect(socket.filter { $0.key == "SocketMode" }.map(\.value) == ["0660"])
        // The input group, which reads every keyboard, is the service's own, for the devices only.
        #expect(service.filter { $0.key == "SupplementaryGroups" }.map(\.value) == ["input"])
        let tmpfiles = try String(contentsOfFile: Binaries.repository + "/systemd/touchd.tmpfiles", encoding: .utf8)
        #expect(tmpfiles.contains("d /run/touchd 0755 touchd touchd -"))
    }

    @Test func everyLineOfAMessageCarriesItsPriorityForTheJournal() {
        #expect(JournalLogHandler.journalLines("one", level: .warning) == "<4>one\n")
        #expect(JournalLogHandler.journalLines("refused: a\nb\nc", level: .error) == "<3>refused: a\n<3>b\n<3>c\n")
    }

    @Test func aRefusedReloadLogsEveryProblemAtErrorPriorityForTheJournal() throws {
        let layout = temporaryPath("journal") + ".toml"
        let socket = temporaryPath("journal") + ".sock"
        try String(contentsOfFile: DaemonProcessTests.kiosk, encoding: .utf8).write(toFile: layout, atomically: true, encoding: .utf8)
        defer { unlink(layout) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.touchd)
        process.arguments = ["--config", layout, "--no-devices", "--socket", socket]
        process.environment = ProcessInfo.processInfo.environment.merging(["JOURNAL_STREAM": "8:1234"]) { $1 }
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var client: TestClient?
        for _ in 0..<100 where client == nil {
            usleep(50_000)
            client = try? TestClient(path: socket)
        }
        let c = try #require(client)
        // Three problems: two windows' ids and a size.
        try "[[window]]\nid = 1\nsize = \"wide\"\n\n[[window]]\nid = 2\nsize = [10, 10]\n".write(toFile: layout, atomically: true, encoding: .utf8)
        c.send(#"{"id":1,"cmd":"reload"}"#)
        for _ in 0..<500 where c.reply(id: 1) == nil {
            usleep(10_000)
            c.poll()
        }
        let reply = try #require(c.reply(id: 1))
        #expect(reply["ok"] as? Bool == false)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = log.split(separator: "\n").filter { $0.contains(layout + ":") }
        #expect(problems.count >= 3, "\(log)")
        #expect(problems.allSatisfy { $0.hasPrefix("<3>") }, "\(log)")
        #expect(log.split(separator: "\n").allSatisfy { $0.hasPrefix("<") }, "every line has a priority: \(log)")
    }
}
