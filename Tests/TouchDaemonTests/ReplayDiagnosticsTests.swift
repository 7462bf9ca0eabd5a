import TouchInput
import Foundation
import Testing

/// `touchd replay` and the daemon's `--replay` tell what was odd in a recording instead of quietly
/// producing less: anomalies go to stderr (replay) or the log (daemon), bad axes and options are errors.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReplayDiagnosticsTests {
    /// A two-slot screen; `axisX` is ABS_MT_POSITION_X's "min max" and `events` the E: lines.
    static func recording(axisX: String = "0 1279", slots: String = "0 1", events: [String]) -> String {
        """
        N: two slot screen
        I: 0003 0001 0001 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1279 0 0 0
        A: 01 0 799 0 0 0
        A: 2f \(slots) 0 0 0
        A: 35 \(axisX) 0 0 0
        A: 36 0 799 0 0 0
        A: 39 0 65535 0 0 0

        """ + events.map { "E: \($0)\n" }.joined()
    }

    /// One tap at (200, 250): began at `t`, ended at `t + 0.1`.
    static func tap(at t: Double, slot: Int = 0) -> [String] {
        let a = String(format: "%.6f", t), b = String(format: "%.6f", t + 0.1)
        return [
            "\(a) 0003 002f \(String(format: "%04d", slot))", "\(a) 0003 0039 0001", "\(a) 0003 0035 0200", "\(a) 0003 0036 0250",
            "\(a) 0000 0000 0000", "\(b) 0003 0039 -001", "\(b) 0000 0000 0000",
        ]
    }

    func replay(_ text: String, _ extra: [String] = []) throws -> ProcessResult {
        let path = NSTemporaryDirectory() + "touchd-diag-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).evemu"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        return try run(["replay", path, "--config", DaemonProcessTests.kiosk, "--topics", "touches"] + extra)
    }

    func run(_ arguments: [String]) throws -> ProcessResult { try runToEnd(Binaries.touchd, arguments) }

    @Test func aCleanRecordingReplaysWithoutWarnings() throws {
        let result = try replay(Self.recording(events: Self.tap(at: 1)))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("\"began\"") && result.stdout.contains("\"ended\""))
    }

    @Test func aSlotOutsideTheDeviceIsReported() throws {
        let result = try replay(Self.recording(events: Self.tap(at: 1, slot: 9)))
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: 1.000000 [device] ABS_MT_SLOT 9 is outside the device's 2 slots"), "\(result.stderr)")
    }

    /// As a live device declaring them is: read through its first slots, with a warning.
    @Test func aRecordingOfMoreSlotsThanAreReadReplaysWithAWarning() throws {
        let result = try replay(Self.recording(slots: "0 299", events: Self.tap(at: 1)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: 0.000000 [device] the device declares 300 slots; only the first 256 are tracked"), "\(result.stderr)")
        #expect(result.stdout.contains("\"began\"") && result.stdout.contains("\"ended\""))
    }

    @Test func timeGoingBackwardsIsReported() throws {
        let result = try replay(Self.recording(events: Self.tap(at: 5) + Self.tap(at: 2)))
        #expect(result.status == 0)
        #expect(result.stderr.contains("[recording] time goes backwards at event 8 (from 5.100000 to 2.000000)"), "\(result.stderr)")
    }

    @Test func aRecordingEndingMidFrameIsReported() throws {
        let result = try replay(Self.recording(events: Self.tap(at: 1) + ["2.000000 0003 0039 0002", "2.000000 0003 0035 0300"]))
        #expect(result.status == 0)
        #expect(result.stderr.contains("the recording ends mid-frame: 2 events after the last SYN_REPORT were never reported"), "\(result.stderr)")
    }

    @Test func anAxisWithoutARangeIsAnErrorNamingIt() throws {
        let result = try replay(Self.recording(axisX: "100 100", events: Self.tap(at: 1)))
        #expect(result.status != 0)
        #expect(result.stderr.contains("its axis ABS_MT_POSITION_X has minimum 100 and maximum 100"), "\(result.stderr)")
    }

    @Test func aDescriptionFileReplacingTheRecordingsOwnIsAWarning() throws {
        let desc = NSTemporaryDirectory() + "touchd-diag-\(getpid()).desc"
        try Self.recording(events: []).write(toFile: desc, atomically: true, encoding: .utf8)
        defer { unlink(desc) }
        let result = try replay(Self.recording(events: Self.tap(at: 1)), ["--desc", desc])
        #expect(result.status == 0)
        #expect(result.stderr.contains("describes its device (\"two slot screen\"); --desc \(desc) replaces that description"), "\(result.stderr)")
        let missing = try replay(Self.recording(events: Self.tap(at: 1)), ["--desc", "/nonexistent/screen.desc"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/screen.desc: cannot read the device description"), "\(missing.stderr)")
    }

    @Test func aRecordingOfADescriptionAloneSaysItHasNothingToReplay() throws {
        let result = try replay(Self.recording(events: []))
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("holds no events (a device's description alone): nothing to replay"), "\(result.stderr)")
    }

    @Test func theReplayedDeviceComesAndGoesForTheDevicesTopic() throws {
        let result = try replay(Self.recording(events: Self.tap(at: 1)), ["--topics", "devices,touches"])
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.first??["type"] as? String == "device" && lines.first??["event"] as? String == "added", "\(result.stdout)")
        #expect((lines.first??["description"] as? [String: Any])?["source"] as? String == "recording")
        #expect(lines.last??["type"] as? String == "device" && lines.last??["event"] as? String == "removed", "\(result.stdout)")
        #expect(lines.compactMap { $0?["seq"] as? Int } == Array(1...lines.count), "numbered as one subscriber gets them")
        #expect(lines.count > 2, "the touches in between")
        // Without the topic, no device line.
        let plain = try replay(Self.recording(events: Self.tap(at: 1)))
        #expect(!plain.stdout.contains("\"type\":\"device\""))
    }

    @Test func aReplaySpeedOfZeroIsRefused() throws {
        let result = try run(["--config", DaemonProcessTests.kiosk, "--no-devices", "--socket", "/tmp/touchd-unused.sock", "--replay", "/nonexistent.evemu", "--replay-speed", "0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--replay-speed 0.0: expected a number greater than 0"), "\(result.stderr)")
    }

    @Test func optionsOfAReplayOrOfTUIOAreRefusedWithoutIt() throws {
        let base = ["--config", DaemonProcessTests.kiosk, "--no-devices", "--socket", "/tmp/touchd-unused.sock"]
        for (extra, message) in [
            (["--exit-after-replay"], "--exit-after-replay applies to a replay: give --replay RECORDING too"),
            (["--replay-waits-for-client"], "--replay-waits-for-client applies to a replay"),
            (["--replay-speed", "2"], "--replay-speed applies to a replay"),
            (["--tuio-touches", "all"], "--tuio-touches applies to TUIO output: give --tuio ADDRESS too"),
            (["--tuio", "3333", "--tuio-touches", "bogus"], "--tuio-touches bogus: expected forwarded or all"),
        ] {
            let result = try run(base + extra)
            #expect(result.status == 64 && result.stderr.contains(message), "\(extra): \(result.stderr)")
        }
    }

    @Test func theDaemonLogsARecordingsAnomalies() throws {
        let path = NSTemporaryDirectory() + "touchd-diag-daemon-\(getpid()).evemu"
        try Self.recording(events: Self.tap(at: 1, slot: 9) + Self.tap(at: 2)).write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let socket = NSTemporaryDirectory() + "touchd-diag-\(getpid()).sock"
        let result = try run(["--config", DaemonProcessTests.kiosk, "--no-devices", "--socket", socket, "--replay", path, "--replay-speed", "100", "--exit-after-replay"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning touchd: 1.000000 [device] ABS_MT_SLOT 9 is outside the device's 2 slots"), "\(result.stderr)")
    }
}
