import Testing
import TouchCore

@Suite(.timeLimit(.minutes(10))) struct TapCountTests {
    /// Taps at `points` (window coordinates), each `hold` seconds long, `gap` seconds apart.
    func tapCounts(_ points: [(Double, Double)], hold: Double = 0.08, gap: Double = 0.2, settings: TapSettings = TapSettings()) -> [Int] {
        var app = Application(tree: seedExperimentTree(), settings: ApplicationSettings(tap: settings))
        var t = 10.0
        var counts: [Int] = []
        for (i, (x, y)) in points.enumerated() {
            let id = UInt64(i + 1)
            counts += app.send(frame(t, contact(id, .began, x, y))).flatMap(\.hits).map(\.tapCount)
            t += hold
            _ = app.send(frame(t, contact(id, .ended, x, y)))
            t += gap
        }
        return counts
    }

    @Test func successiveTapsCountUp() {
        #expect(tapCounts([(70, 150), (72, 151), (71, 149), (70, 150)]) == [1, 2, 3, 4])
    }

    @Test func aLongPauseStartsAgain() {
        #expect(tapCounts([(70, 150), (70, 150)], gap: 0.36) == [1, 1])
        #expect(tapCounts([(70, 150), (70, 150)], gap: 0.34) == [1, 2])
    }

    @Test func aDistantTapStartsAgain() {
        // 7 mm at 6.4 points per mm is 44.8 points.
        #expect(tapCounts([(70, 150), (70 + 44, 150)]) == [1, 2])
        #expect(tapCounts([(70, 150), (70 + 46, 150)]) == [1, 1])
    }

    @Test func aTouchHeldTooLongIsNoTap() {
        #expect(tapCounts([(70, 150), (70, 150)], hold: 0.8) == [1, 1])
        #expect(tapCounts([(70, 150), (70, 150)], hold: 0.7) == [1, 2])
    }

    @Test func aTouchMovedBeyondTheSlopIsNoTap() {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        _ = app.send(frame(1.05, contact(1, .moved, 70, 200)))
        _ = app.send(frame(1.1, contact(1, .ended, 70, 150)))
        #expect(app.send(frame(1.2, contact(2, .began, 70, 150))).flatMap(\.hits).map(\.tapCount) == [1])
    }

    @Test func aCancelledTouchIsNoTap() {
        var app = Application(tree: seedExperimentTree())
        _ = app.send(frame(1.0, contact(1, .began, 70, 150)))
        _ = app.send(frame(1.05, contact(1, .cancelled, 70, 150)))
        #expect(app.send(frame(1.1, contact(2, .began, 70, 150))).flatMap(\.hits).map(\.tapCount) == [1])
    }

    @Test func settingsAreConfigurableAndDistancesFollowTheWindowsDensity() {
        let wide = TapSettings(interval: 1.0, distanceMillimetres: 20)
        #expect(tapCounts([(70, 150), (170, 150)], gap: 0.9, settings: wide) == [1, 2])
        var app = Application(tree: makeTree(ppm: 2) { try $0.addView("v", parent: "window", view(rect(0, 0, 375, 667))) })
        // 7 mm at 2 points per mm is 14 points.
        _ = app.send(frame(1.0, contact(1, .began, 100, 100)))
        _ = app.send(frame(1.05, contact(1, .ended, 100, 100)))
        #expect(app.send(frame(1.1, contact(2, .began, 116, 100))).flatMap(\.hits).map(\.tapCount) == [1])
    }

    @Test func aHandlerCanRequireATapCount() {
        let handlers = HandlerTable([Handler(responder: "blue", trigger: .touchesEnded, action: "double", passesOn: false, tapCount: 2)])
        var app = Application(tree: seedExperimentTree(), handlers: handlers)
        var actions: [String] = []
        for (i, t) in [1.0, 1.2, 1.4].enumerated() {
            let id = UInt64(i + 1)
            actions += app.send(frame(t, contact(id, .began, 70, 150))).flatMap(\.actions).map(\.name)
            actions += app.send(frame(t + 0.05, contact(id, .ended, 70, 150))).flatMap(\.actions).map(\.name)
        }
        #expect(actions == ["double"], "only the second tap of three is a double tap")
    }
}
