import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchInput
import TouchLayout

/// Calibration from outside the layout: tslib `pointercal` files (validated up front) and udev's
/// `LIBINPUT_CALIBRATION_MATRIX` (applied through the mapping).
@Suite(.serialized) struct CalibrationSourcesTests {
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
        ("65536 0 0\n0 65536 x\n65536\n", "screen.pointercal:2: device[0].pointercal: field 6: expected a5, an integer from -2147483648 to 2147483647"),
        ("1 0 0 0 1 0 0\n", "screen.pointercal:1: device[0].pointercal: field 7: expected a6, a divisor other than 0"),
        // A file that is not a pointercal at all: its content is never echoed (a path may name
        // any file, and the message reaches clients and logs).
        ("password=hunter2\n", "screen.pointercal:1: device[0].pointercal: field 1: expected a0, an integer from -2147483648 to 2147483647"),
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

    @Test func aGoodPointercalFilePassesCheck() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.layout.write(toFile: dir + "/layout.toml", atomically: true, encoding: .utf8)
        try "65536 0 0 0 65536 0 65536 1000 500\n".write(toFile: dir + "/screen.pointercal", atomically: true, encoding: .utf8)
        let result = try run(["check", "--config", dir + "/layout.toml"])
        #expect(result.status == 0, "\(result.output)")
    }

    /// A libinput-record screen with one touch at device (944, 528) of 0…3776 × 0…2112, and udev's
    /// matrix `matrix` when given.
    static func recording(matrix: String?) -> String {
        """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event5
          evdev:
            name: "udev calibrated screen"
            id: [3, 1, 2, 0]
            codes:
              0: [0]
              1: [330]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 3776, 0, 0, 0]
              1: [0, 2112, 0, 0, 0]
              47: [0, 9, 0, 0, 0]
              53: [0, 3776, 0, 0, 0]
              54: [0, 2112, 0, 0, 0]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_TOUCHSCREEN=1
        \(matrix.map { "    - LIBINPUT_CALIBRATION_MATRIX=\($0)" } ?? "")
          events:
          - evdev:
            - [0, 0, 3, 57, 1]
            - [0, 0, 3, 53, 944]
            - [0, 0, 3, 54, 528]
            - [0, 0, 1, 330, 1]
            - [0, 0, 0, 0, 0]
          - evdev:
            - [0, 10000, 3, 57, -1]
            - [0, 10000, 1, 330, 0]
            - [0, 10000, 0, 0, 0]

        """
    }

    /// Where the recording's touch lands in the window, through the layout's [[device]] entry.
    func touchDown(matrix: String?, udevCalibration: Bool = true) throws -> Point {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/screen.yml"
        try Self.recording(matrix: matrix).write(toFile: path, atomically: true, encoding: .utf8)
        let document = try LayoutLoader.parse(
            "[[window]]\nid = \"w\"\nsize = [1000, 500]\n[[device]]\nwindow = \"w\"\nudev_calibration = \(udevCalibration)\n", file: dir + "/l.toml")
        var app = try document.makeApplication(file: "l.toml")
        var replay = try RecordingReplay(path: path, descriptionPath: nil, layout: document, tree: app.tree, window: nil)
        var points: [Point] = []
        replay.run(into: &app) { report, _ in
            for touch in report.event.allTouches where touch.phase == .began { points.append(touch.locationInWindow) }
        }
        return try #require(points.first)
    }

    @Test func udevsCalibrationMatrixIsAppliedThroughTheMapping() throws {
        // Without a matrix: (944/3776, 528/2112) = (0.25, 0.25) of the window.
        let plain = try touchDown(matrix: nil)
        #expect(abs(plain.x - 250) < 1 && abs(plain.y - 125) < 1, "\(plain)")
        // A quarter turn: x' = 1 - v, y' = u.
        let turned = try touchDown(matrix: "0 -1 1 1 0 0")
        #expect(abs(turned.x - 750) < 1 && abs(turned.y - 125) < 1, "\(turned)")
        // A scale and offset: x' = 0.5 u + 0.1, y' = 2 v - 0.2.
        let scaled = try touchDown(matrix: "0.5 0 0.1 0 2 -0.2")
        #expect(abs(scaled.x - 225) < 1 && abs(scaled.y - 150) < 1, "\(scaled)")
        // udev_calibration = false ignores it.
        let ignored = try touchDown(matrix: "0 -1 1 1 0 0", udevCalibration: false)
        #expect(abs(ignored.x - 250) < 1 && abs(ignored.y - 125) < 1, "\(ignored)")
    }
}
