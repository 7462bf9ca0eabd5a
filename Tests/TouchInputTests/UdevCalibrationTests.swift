import Testing
import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

/// udev's `LIBINPUT_CALIBRATION_MATRIX`, applied through a recording's mapping onto a layout's
/// window.
@Suite(.timeLimit(.minutes(10))) struct UdevCalibrationTests {
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
        let recording = try Recording.parse(text: Self.recording(matrix: matrix), name: "screen.yml")
        let document = try LayoutLoader.parse(
            "[[window]]\nid = \"w\"\nsize = [1000, 500]\n[[device]]\nwindow = \"w\"\nudev_calibration = \(udevCalibration)\n", file: "l.toml")
        var app = try document.makeApplication(file: "l.toml")
        let replay = try RecordingReplay(recording: recording, layout: document, tree: app.tree, window: nil)
        var points: [Point] = []
        replay.run(into: &app) { report in
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

    /// A matrix that puts every touch on one line (here x' = y' = u) is refused with the device,
    /// as a layout's `calibration` is: the screen would otherwise take touches that all land on
    /// its diagonal.
    @Test func aMatrixThatFlattensTheScreenIsRefused() throws {
        let error = #expect(throws: DevicePipelineError.self) { try touchDown(matrix: "1 0 0 1 0 0") }
        #expect("\(error?.problem ?? "")".contains("maps the whole screen onto one line"), "\(String(describing: error))")
        #expect(CalibrationMatrix(a: 1, b: 2, c: 0, d: 2, e: 4, f: 0).flattensThePlane)
        #expect(!CalibrationMatrix(a: 0, b: -1, c: 1, d: 1, e: 0, f: 0).flattensThePlane)
        #expect(!CalibrationMatrix(a: 1e-3, b: 0, c: 0, d: 0, e: 1e-3, f: 0).flattensThePlane)
    }
}
