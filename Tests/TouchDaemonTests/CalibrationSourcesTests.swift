import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout

/// Calibration from outside the layout: tslib `pointercal` files, validated up front by `touchd
/// check` and the daemon (udev's `LIBINPUT_CALIBRATION_MATRIX` is tested in TouchInputTests).
@Suite(.serialized, .timeLimit(.minutes(10))) struct CalibrationSourcesTests {
    func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "touchd-calibration-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs `touchd ARGS`, its standard error interleaved with its output. A daemon that wrongly
    /// starts is stopped after 10 s, so the test fails instead of hanging.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try runToEnd(Binaries.touchd, arguments, mergingErrors: true, timeout: 10)
        return (run.status, run.stdout)
    }

    static let layout = """
        [[window]]
        id = "w"
        size = [1000, 500]

        [[device]]
        window = "w"
        pointercal = "screen.pointercal"

        """

    @Test(arguments: [
        ("1 2 3\n", "screen.pointercal:1: device[0].pointercal: expected 7 integers a0 … a6, optionally followed by xres yres [rotation] (found 3 fields)"),
        ("65536 0 0\n0 65536 x\n65536\n", "screen.pointercal:2: device[0].pointercal: field 6: expected a5, a whole number from -2147483648 to 2147483647"),
        ("1 0 0 0 1 0 0\n", "screen.pointercal:1: device[0].pointercal: field 7: expected a6, a divisor other than 0"),
        // A file that is not a pointercal at all: its content is never echoed (a path may name
        // any file, and the message reaches clients and logs).
        ("password=hunter2\n", "screen.pointercal:1: device[0].pointercal: field 1: expected a0, a whole number from -2147483648 to 2147483647"),
    ])
    func checkReadsAndValidatesPointercalFiles(content: String, expected: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        try content.write(toFile: dir + "/screen.pointercal", atomically: true, encoding: .utf8)
        let result = try run(["check", "--config", dir + "/layout.toml"])
        #expect(result.status == 1)
        #expect(result.output.contains(dir + "/" + expected), "\(result.output)")
        #expect(result.output.contains("the pointercal file named in \(dir)/layout.toml"), "\(result.output)")
        #expect(!result.output.contains("hunter2"), "\(result.output)")
        // The daemon refuses to start on it too.
        let daemon = try run(["--config", dir + "/layout.toml", "--no-devices", "--socket", dir + "/s.sock"])
        #expect(daemon.status == 1)
        #expect(daemon.output.contains(expected), "\(daemon.output)")
    }

    @Test func aMissingPointercalFileIsReportedAsSuch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        let result = try run(["check", "--config", dir + "/layout.toml"])
        #expect(result.status == 1)
        #expect(result.output.contains("\(dir)/screen.pointercal: device[0].pointercal: cannot read the pointercal file named in"), "\(result.output)")
    }

    static let calibrationLayout = """
        [[window]]
        id = "w"
        size = [1000, 500]

        [[device]]
        window = "w"
        calibration_file = "screen.calibration"

        """

    /// A calibration file not written yet is no problem (the device is not calibrated); one that is
    /// there is read with the layout, and one that is damaged is left aside with a warning that
    /// names the line and field, without its text: touchd's own state never stops it.
    @Test func calibrationFilesAreReadWithTheLayout() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.calibrationLayout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        #expect(try run(["check", "--config", dir + "/layout.toml"]).status == 0)
        try "version 1\nmatrix 1 0 0 0 1 0.01\n".write(toFile: dir + "/screen.calibration", atomically: true, encoding: .utf8)
        let loaded = try LoadedLayout.load(path: dir + "/layout.toml")
        #expect(loaded.document.devices.first?.calibrationFileMatrix?.f == 0.01)
        try "version 1\nmatrix 1 0 hunter2 0 1 0\n".write(toFile: dir + "/screen.calibration", atomically: true, encoding: .utf8)
        let result = try run(["check", "--config", dir + "/layout.toml"])
        #expect(result.status == 0)
        #expect(
            result.output.contains("warning: \(dir)/screen.calibration:2: device[0].calibration_file: field 4: expected \(Limits.calibrationCoefficient)"),
            "\(result.output)")
        #expect(result.output.contains("the calibration file named in \(dir)/layout.toml") && !result.output.contains("hunter2"), "\(result.output)")
    }

    @Test func aGoodPointercalFilePassesCheck() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        try "65536 0 0 0 65536 0 65536 1000 500\n".write(toFile: dir + "/screen.pointercal", atomically: true, encoding: .utf8)
        let result = try run(["check", "--config", dir + "/layout.toml"])
        #expect(result.status == 0, "\(result.output)")
    }
}
