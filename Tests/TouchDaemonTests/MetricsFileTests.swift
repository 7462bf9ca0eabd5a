import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// The metrics file for node_exporter's textfile collector: its text, its writes on the daemon's
/// clock, its removal, and what node_exporter itself reads of it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MetricsFileTests {
    @Test func everyFigureHasItsHelpItsTypeAndACountersTotal() {
        var counters = StatsCounters()
        counters.touchesBegan = 7
        counters.clients = 2
        counters.devices = 1
        let text = MetricsText.prometheus(counters)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 * counters.described.count)
        #expect(lines.contains("# TYPE touchd_touches_began_total counter"))
        #expect(lines.contains("# HELP touchd_touches_began_total Touches that began."))
        #expect(lines.contains("touchd_touches_began_total 7"))
        #expect(lines.contains("# TYPE touchd_clients gauge") && lines.contains("touchd_clients 2"))
        #expect(lines.contains("touchd_devices 1") && lines.contains("touchd_queue_high_water_mark 0"))
        for name in ["anomalies", "messages_dropped", "reloads", "reloads_refused"] {
            #expect(lines.contains("# TYPE touchd_\(name)_total counter"), "\(name)")
        }
        // Each sample follows its HELP and TYPE, and every name is a valid metric name.
        for i in stride(from: 0, to: lines.count, by: 3) {
            let name = String(lines[i + 2].split(separator: " ")[0])
            #expect(lines[i].hasPrefix("# HELP \(name) ") && lines[i + 1].hasPrefix("# TYPE \(name) "))
            #expect(name.allSatisfy { $0.isLetter || $0 == "_" })
        }
    }

    @Test func theDaemonWritesItsFiguresOnItsClockAndRemovesTheFileWhenItStops() throws {
        let directory = temporaryPath("metrics")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/touchd.prom"
        let clock = ManualClock(seconds: 100)
        let h = try DaemonHarness(app: kioskApp(), clock: clock)
        h.daemon.startMetricsFile(path: path, interval: 10)
        func figure(_ name: String) throws -> String? {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix(name + " ") }
                .map { String($0.split(separator: " ")[1]) }
        }
        #expect(try figure("touchd_touches_began_total") == "0", "written at once")
        tap(h.daemon, id: 1, at: Point(x: 150, y: 150), t: 1)
        h.daemon.dispatchQueued()
        clock.advance(by: 9)
        h.loop.runDueTimers()
        #expect(try figure("touchd_touches_began_total") == "0", "not before its interval")
        clock.advance(by: 1)
        h.loop.runDueTimers()
        #expect(try figure("touchd_touches_began_total") == "1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["touchd.prom"], "no half-written file left beside it")
        h.daemon.shutdown(reason: "test over")
        #expect(!FileManager.default.fileExists(atPath: path), "a stopped daemon's figures are not left to be read as a running one's")
    }

    @Test func aFileThatCannotBeWrittenIsToldOnceAndTriedAgain() throws {
        let clock = ManualClock(seconds: 100)
        let h = try DaemonHarness(app: kioskApp(), clock: clock)
        let directory = temporaryPath("metrics-later")
        h.daemon.startMetricsFile(path: directory + "/touchd.prom", interval: 5)
        clock.advance(by: 5)
        h.loop.runDueTimers()
        #expect(h.observer.metricsProblems.count == 1)
        #expect(h.observer.metricsProblems.first??.contains("\(directory)/touchd.prom: cannot write") == true, "\(h.observer.metricsProblems)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        clock.advance(by: 5)
        h.loop.runDueTimers()
        #expect(h.observer.metricsProblems.count == 2 && h.observer.metricsProblems.last! == nil, "told that it works again")
        #expect(FileManager.default.fileExists(atPath: directory + "/touchd.prom"))
    }

    @Test func touchdWritesTheFileItIsGivenAndTheLayoutsInterval() throws {
        let directory = temporaryPath("metrics-run")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layout = directory + "/layout.toml"
        try "[[window]]\nid = \"w\"\nsize = [10, 10]\n[daemon]\nmetrics_file = \"\(directory)/touchd.prom\"\nmetrics_interval = 1\n"
            .write(toFile: layout, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.touchd)
        daemon.arguments = ["--config", layout, "--socket", directory + "/touchd.sock", "--no-devices"]
        let stderr = Pipe()
        daemon.standardError = stderr
        try daemon.run()
        var text = ""
        for _ in 0..<100 where !text.contains("touchd_wakeups_total") {
            usleep(50_000)
            text = (try? String(contentsOfFile: directory + "/touchd.prom", encoding: .utf8)) ?? ""
        }
        #expect(text.contains("# TYPE touchd_clients gauge"), "\(text)")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: directory + "/touchd.prom"))
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("writing metrics") && log.contains("every=1.0 s"), "\(log)")
        let bad = try runToEnd(Binaries.touchd, ["--config", layout, "--metrics-interval", "0", "--no-devices", "--socket", directory + "/x.sock"])
        #expect(bad.status == 64 && bad.stderr.contains("--metrics-interval"), "\(bad.stderr)")
    }

    static let nodeExporter = ["/usr/bin/prometheus-node-exporter", "/usr/bin/node_exporter"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let curl = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// node_exporter's textfile collector reads the file with every counter typed as a counter.
    @Test(
        .enabled(if: nodeExporter != nil, "node_exporter is not installed (Debian: prometheus-node-exporter): its reading of the file is not checked"),
        .enabled(if: curl, "curl is not installed: node_exporter's answer cannot be fetched"))
    func nodeExportersTextfileCollectorReadsTypedCounters() throws {
        let directory = temporaryPath("textfile")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var counters = StatsCounters()
        counters.touchesBegan = 42
        try MetricsText.prometheus(counters).write(toFile: directory + "/touchd.prom", atomically: true, encoding: .utf8)
        let port = Int.random(in: 20_000...40_000)
        let exporter = Process()
        exporter.executableURL = URL(fileURLWithPath: Self.nodeExporter!)
        exporter.arguments = [
            "--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory=\(directory)",
            "--web.listen-address=127.0.0.1:\(port)",
        ]
        exporter.standardError = FileHandle.nullDevice
        try exporter.run()
        defer { exporter.terminate(); exporter.waitUntilExit() }
        var scraped = ""
        for _ in 0..<50 where !scraped.contains("touchd_") {
            usleep(100_000)
            let fetch = try runToEnd("/usr/bin/curl", ["-s", "http://127.0.0.1:\(port)/metrics"], timeout: 5)
            scraped = fetch.stdout
        }
        #expect(scraped.contains("# TYPE touchd_touches_began_total counter"), "\(scraped)")
        #expect(scraped.contains("touchd_touches_began_total 42"))
        #expect(scraped.contains("# HELP touchd_touches_began_total Touches that began."))
        #expect(scraped.contains("# TYPE touchd_clients gauge"))
        #expect(scraped.contains("node_textfile_scrape_error 0"))
    }
}

/// docs/protocol.md lists every figure of the `stats` reply.
@Suite(.timeLimit(.minutes(10))) struct StatsDocumentationTests {
    @Test func everyStatsFigureIsInTheProtocolsTable() throws {
        let text = try String(contentsOfFile: Binaries.repository + "/docs/protocol.md", encoding: .utf8)
        let table = text.components(separatedBy: "### The `stats` counters").last ?? ""
        for figure in StatsCounters().described {
            #expect(table.contains("`\(figure.name)`"), "docs/protocol.md's stats table should list \(figure.name)")
        }
    }
}
