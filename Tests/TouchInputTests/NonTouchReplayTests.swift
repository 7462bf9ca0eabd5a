import Foundation
import Testing
import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

/// Keyboard, media-key and accelerometer recordings replay through the pipelines live devices
/// use: presses, remote control and shakes reach the first responder offline.
@Suite(.timeLimit(.minutes(10))) struct NonTouchReplayTests {
    /// A window whose first responder is `field`, and device entries with no window (the docs
    /// allow it: their events go to the key window).
    static let layout = """
        [application]
        receives_remote_control = true

        [[window]]
        id = "main"
        size = [800, 480]
        first_responder = "field"

        [[view]]
        id = "field"
        parent = "main"
        frame = [0, 0, 100, 40]
        can_become_first_responder = true

        [[device]]
        match.kind = "keys"

        [[device]]
        match.kind = "accelerometer"
        shake_duration = 0.3

        """

    /// An evemu keyboard with media keys: Enter down and up, play/pause, and A held to the end.
    static let keyboard = """
        # EVEMU 1.3
        N: Kiosk keypad
        I: 0003 046d c31c 0110
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 fe ff ff ff ff ff ff ff
        B: 01 ff ff ef ff df ff ff fe
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 00 00 00 00 00 00 00 00
        B: 04 10 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        E: 1.000000 0001 001c 0001
        E: 1.000000 0000 0000 0000
        E: 1.100000 0001 001c 0000
        E: 1.100000 0000 0000 0000
        E: 2.000000 0001 00a4 0001
        E: 2.000000 0000 0000 0000
        E: 2.050000 0001 00a4 0000
        E: 2.050000 0000 0000 0000
        E: 3.000000 0001 001e 0001
        E: 3.000000 0000 0000 0000

        """

    func replay(_ recording: String, name: String) throws -> [DispatchReport] {
        let document = try LayoutLoader.parse(Self.layout, file: "layout.toml")
        var app = try document.makeApplication()
        let parsed = try Recording.parse(text: recording, name: name)
        let replay = try RecordingReplay(recording: parsed, layout: document, tree: app.tree, window: nil)
        var reports: [DispatchReport] = []
        replay.run(into: &app) { reports.append($0) }
        return reports
    }

    @Test func aKeyboardRecordingGivesPressesAndRemoteControlAtTheFirstResponder() throws {
        let reports = try replay(Self.keyboard, name: "keypad.evemu")
        let presses = reports.flatMap(\.presses).map { "\($0.keyName) \($0.phase.rawValue) \($0.responder?.rawValue ?? "-")" }
        #expect(presses == ["KEY_ENTER began field", "KEY_ENTER ended field", "KEY_A began field", "KEY_A cancelled field"])
        let remote = reports.compactMap(\.remoteControl).map(\.subtype)
        #expect(remote == [.togglePlayPause])
        #expect(reports.compactMap(\.remoteControl).allSatisfy { $0.timestamp == 2 })
        #expect(reports.last?.presses.first?.timestamp == 3, "the key held at the end is cancelled at the last event's time")
    }

    /// An accelerometer (in g from its resolution of 256 units per g) at rest, then shaken for
    /// `shake` seconds from t = 1, then at rest for `rest` seconds more.
    static func accelerometer(shake: Double, rest: Double) -> String {
        var lines = """
            # EVEMU 1.3
            N: Kiosk accelerometer
            I: 0018 0000 0000 0000
            P: 40 00 00 00 00 00 00 00
            B: 00 09 00 00 00 00 00 00 00
            B: 03 07 00 00 00 00 00 00 00
            A: 00 -2048 2048 0 0 256
            A: 01 -2048 2048 0 0 256
            A: 02 -2048 2048 0 0 256

            """
        var t = 0.0
        func sample(_ x: Int, _ z: Int) {
            lines += String(format: "E: %.6f 0003 0000 %d\nE: %.6f 0003 0002 %d\nE: %.6f 0000 0000 0000\n", t, x, t, z, t)
        }
        while t < 1 { sample(0, 256); t += 0.05 }
        var flip = false
        while t < 1 + shake { sample(flip ? 600 : -600, 256); flip.toggle(); t += 0.02 }
        while t < 1 + shake + rest { sample(0, 256); t += 0.05 }
        return lines
    }

    @Test(arguments: [(0.6, 1.0, [MotionPhase.began, .ended]), (0.1, 1.0, [.began, .cancelled]), (0.6, 0.05, [.began, .ended])])
    func anAccelerometerRecordingShakesTheFirstResponder(shake: Double, rest: Double, phases: [MotionPhase]) throws {
        let reports = try replay(Self.accelerometer(shake: shake, rest: rest), name: "accel.evemu")
        let motion = reports.compactMap(\.motion)
        #expect(motion.map(\.phase) == phases, "shake \(shake) s, rest \(rest) s")
        #expect(motion.allSatisfy { $0.subtype == .shake })
        #expect(reports.filter { $0.motion != nil }.allSatisfy { $0.startResponder == "field" })
        if let began = motion.first, let end = motion.last {
            #expect(abs(began.timestamp.seconds - 1) < 0.05, "the shake begins with the first strong sample")
            #expect(end.timestamp >= began.timestamp)
        }
    }
}
