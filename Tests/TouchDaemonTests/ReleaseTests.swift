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

    @Test func aReloadChecksTheLayoutItStartsWithBeforeSignalling() throws {
        let service = try Self.settings("touchd.service")
        let reload = service.filter { $0.key == "ExecReload" }.map(\.value)
        let start = try #require(service.first { $0.key == "ExecStart" }?.value)
        // systemd runs ExecReload lines in order and fails the reload at the first that fails.
        #expect(reload.count == 2, "\(reload)")
        #expect(reload.first == "/usr/local/bin/touchd check --config /etc/touchd/layout.toml")
        #expect(start.hasPrefix("/usr/local/bin/touchd --config /etc/touchd/layout.toml "), "\(start)")
        #expect(reload.last?.contains("kill -HUP \"$$MAINPID\"") == true, "\(reload)")
    }

    @Test func checksProblemsCarryErrorPriorityForTheJournal() throws {
        let layout = temporaryPath("journal-check") + ".toml"
        try "[[window]]\nid = \"w\"\nsize = [0, 10]\n".write(toFile: layout, atomically: true, encoding: .utf8)
        defer { unlink(layout) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.touchd)
        process.arguments = ["check", layout]
        let stderr = Pipe()
        process.environment = ProcessInfo.processInfo.environment.merging(["JOURNAL_STREAM": journalStream(of: stderr)]) { $1 }
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("<3>\(layout):") }, "\(text)")
    }

    /// `scripts/install-deps.sh` against stand-ins for dpkg-query, apt-get and id: it installs only
    /// what is missing, and refuses a plan that would upgrade an installed package.
    @Test func installDepsInstallsOnlyWhatIsMissingAndNeverUpgrades() throws {
        let bin = temporaryPath("fake-apt")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        let log = bin + "/apt.log"
        let scripts = [
            "dpkg-query": #"for last; do :; done; case " $INSTALLED " in *" $last "*) echo "install ok installed";; *) exit 1;; esac"#,
            "apt-get": #"echo "apt-get $*" >> "$LOG"; case " $* " in *" -s "*) printf '%b\n' "$PLAN";; esac"#,
            "id": "echo 0",
        ]
        for (name, body) in scripts {
            try ("#!/bin/sh\n" + body + "\n").write(toFile: bin + "/" + name, atomically: true, encoding: .utf8)
            chmod(bin + "/" + name, 0o755)
        }
        func run(installed: String, plan: String, _ arguments: [String], upgrades: String? = nil) throws -> (ProcessResult, String) {
            unlink(log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["scripts/install-deps.sh"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: Binaries.repository)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["INSTALLED"] = installed
            environment["PLAN"] = plan
            environment["LOG"] = log
            environment["TOUCHD_DEPS_UPGRADE"] = upgrades
            process.environment = environment
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let calls = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return (ProcessResult(status: process.terminationStatus, stdout: "", stderr: stderr), calls)
        }
        let base = "libevdev-dev libudev-dev libmd-dev libyaml-dev pkg-config systemd"
        // Everything there: apt-get is not run at all.
        let (present, none) = try run(installed: base, plan: "", ["systemd"])
        #expect(present.status == 0 && none.isEmpty, "\(none)")
        // chromium missing, and installing it would upgrade libsystemd0: refused, nothing installed.
        let (refused, plannedOnly) = try run(
            installed: base, plan: "Inst libsystemd0 [252.17-1] (252.19-1 Debian:12)\\nInst chromium (120.0 Debian:12)", ["systemd", "chromium"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("apt-get would upgrade installed packages: libsystemd0"), "\(refused.stderr)")
        #expect(!plannedOnly.contains(" -y "), "\(plannedOnly)")
        // Only new packages in the plan: the missing one is installed, without upgrades.
        let (installed, calls) = try run(installed: base, plan: "Inst chromium (120.0 Debian:12)", ["systemd", "chromium"])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(calls.contains("install -y -q --no-upgrade --no-install-recommends chromium\n"), "\(calls)")
        #expect(!calls.contains("systemd"), "\(calls)")
        // The test suite's own tools on a fresh machine: allowed, the upgrades named.
        let (allowed, allowedCalls) = try run(
            installed: base, plan: "Inst libsystemd0 [252.17-1] (252.19-1 Debian:12)\\nInst chromium (120.0 Debian:12)", ["systemd", "chromium"],
            upgrades: "allow")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("upgrades installed packages they need: libsystemd0"), "\(allowed.stderr)")
        #expect(allowedCalls.contains("install -y -q --no-upgrade --no-install-recommends chromium\n"), "\(allowedCalls)")
    }

    /// The man pages are committed generated (`man -l man/touchd.8` reads completely in the
    /// repository); a template, an option or a layout key changed since makes this fail, with how
    /// to write them again.
    @Test(.enabled(if: ClientToolTests.python3 != nil, "python3 is not installed: the man pages cannot be generated"))
    func theCommittedManPagesAreFresh() throws {
        let run = try runToEnd(
            ClientToolTests.python3 ?? "python3", ["scripts/man/generate.py", "--touchd", Binaries.touchd, "--touchctl", Binaries.touchctl, "--check"])
        #expect(run.status == 0, "\(run.stderr)")
        for page in ["touchd.8", "touchctl.1", "touchd-layout.5"] {
            let text = try String(contentsOfFile: Binaries.repository + "/man/" + page, encoding: .utf8)
            for marker in ["@VERSION@", "@DATE@", "@COMMANDS@", "@KEYS@"] { #expect(!text.contains(marker), "man/\(page) has \(marker) left") }
            #expect(text.contains(".SH OPTIONS\n.TP") || text.contains(".SH OPTIONS\nThe tables"), "man/\(page)")
        }
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
        let stderr = Pipe()
        process.environment = ProcessInfo.processInfo.environment.merging(["JOURNAL_STREAM": journalStream(of: stderr)]) { $1 }
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

/// `DEVICE:INODE` of a pipe's writing end, as systemd sets `JOURNAL_STREAM` for the stream it gives
/// a service: touchd writes journal priorities only when its standard error is that stream.
func journalStream(of pipe: Pipe) -> String {
    var info = stat()
    _ = fstat(pipe.fileHandleForWriting.fileDescriptor, &info)
    return "\(info.st_dev):\(info.st_ino)"
}
