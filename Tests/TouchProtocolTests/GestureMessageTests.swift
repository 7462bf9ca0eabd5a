import Testing
import TouchCore
import TouchProtocol

/// The `gesture` messages of every recognizer kind and the `action` messages of recognizers and
/// controls, as a subscriber reads them.
@Suite(.timeLimit(.minutes(10))) struct GestureMessageTests {
    /// A 1000 × 1000 window at 4 points per millimetre; `surface` fills it, `ok` is a button at its top left.
    func app(_ gestures: [GestureRecognizerSpec]) -> Application {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 1000, height: 1000), pointsPerMillimetre: 4))
        try! tree.addView("surface", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 1000, height: 1000)))
        try! tree.addView("ok", parent: "surface", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        return Application(
            tree: tree,
            handlers: HandlerTable([Handler(responder: "surface", trigger: .action, action: "saved", payload: .object([("n", 1)]), selector: "save")]),
            gestureRecognizers: gestures,
            controls: [ControlSpec(view: "ok", kind: .button, targets: [ControlTarget(event: .touchUpInside, action: "save")])])
    }

    func frame(_ t: Double, _ contacts: InputContact...) -> InputFrame { InputFrame(device: "d", window: "w", timestamp: InputTime(seconds: t), contacts: contacts) }
    func at(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double) -> InputContact { InputContact(id: id, phase: phase, location: Point(x: x, y: y)) }

    /// The bodies of the messages of `topic`.
    func lines(_ reports: [DispatchReport], _ app: Application, _ topic: Topic) -> [String] {
        reports.flatMap { MessageEncoder.messages(for: $0) }.filter { $0.topic == topic }.map { $0.line(seq: 1) }
    }

    @Test func aTapsMessageSaysWhereItWasAndItsActionFollows() {
        var a = app([GestureRecognizerSpec(id: "tap", view: "surface", kind: .tap(taps: 1, touches: 1), action: "tapped", payload: .object([("k", "v")]))])
        let reports = a.send(frame(1, at(1, .began, 620, 310))) + a.send(frame(1.05, at(1, .ended, 620, 310)))
        #expect(lines(reports, a, .gestures) == [
            #"{"seq":1,"type":"gesture","time":1.05,"recognizer":"tap","kind":"tap","view":"surface","state":"recognized","location":{"x":620,"y":310},"touches":[1],"taps":1}"# + "\n",
        ])
        #expect(lines(reports, a, .actions) == [
            #"{"seq":1,"type":"action","time":1.05,"name":"tapped","responder":"tap","event":"gesture_recognized","view":"surface","touches":[1],"payload":{"k":"v"}}"# + "\n",
        ])
    }

    @Test func aDoubleTapThatFailsOnItsTimerSaysWhereItsTapWas() {
        var a = app([GestureRecognizerSpec(id: "double", view: "surface", kind: .tap(taps: 2, touches: 1))])
        var reports = a.send(frame(1, at(1, .began, 500, 200))) + a.send(frame(1.05, at(1, .ended, 500, 200)))
        reports += [a.advanceTime(to: 2)].compactMap { $0 }
        #expect(lines(reports, a, .gestures) == [
            #"{"seq":1,"type":"gesture","time":1.4,"recognizer":"double","kind":"tap","view":"surface","state":"failed","location":{"x":500,"y":200},"touches":[1],"taps":1}"# + "\n",
        ])
    }

    @Test func aLongPressBeginsOnItsTimerAndEndsWhereTheFingerLifts() {
        var a = app([GestureRecognizerSpec(id: "press", view: "surface", kind: .defaultLongPress(), action: "pressed")])
        let reports = a.send(frame(1, at(1, .began, 300, 400))) + a.send(frame(1.7, at(1, .ended, 302, 401)))
        #expect(lines(reports, a, .gestures) == [
            #"{"seq":1,"type":"gesture","time":1.5,"recognizer":"press","kind":"long_press","view":"surface","state":"began","location":{"x":300,"y":400},"touches":[1]}"# + "\n",
            #"{"seq":1,"type":"gesture","time":1.7,"recognizer":"press","kind":"long_press","view":"surface","state":"ended","location":{"x":302,"y":401},"touches":[1]}"# + "\n",
        ])
        #expect(lines(reports, a, .actions).map { $0.contains(#""event":"gesture_began""#) || $0.contains(#""event":"gesture_ended""#) } == [true, true])
    }

    @Test func aPanCarriesItsTranslationAndVelocity() {
        var a = app([GestureRecognizerSpec(id: "pan", view: "surface", kind: .defaultPan())])
        let reports = a.send(frame(1, at(1, .began, 200, 200))) + a.send(frame(1.5, at(1, .moved, 220, 200)))
            + a.send(frame(2, at(1, .moved, 220, 250))) + a.send(frame(2.5, at(1, .ended, 220, 250)))
        #expect(lines(reports, a, .gestures) == [
            #"{"seq":1,"type":"gesture","time":1.5,"recognizer":"pan","kind":"pan","view":"surface","state":"began","location":{"x":220,"y":200},"touches":[1],"translation":{"x":20,"y":0},"velocity":{"x":40,"y":0}}"# + "\n",
            #"{"seq":1,"type":"gesture","time":2,"recognizer":"pan","kind":"pan","view":"surface","state":"changed","location":{"x":220,"y":250},"touches":[1],"translation":{"x":20,"y":50},"velocity":{"x":0,"y":100}}"# + "\n",
            #"{"seq":1,"type":"gesture","time":2.5,"recognizer":"pan","kind":"pan","view":"surface","state":"ended","location":{"x":220,"y":250},"touches":[1],"translation":{"x":20,"y":50},"velocity":{"x":0,"y":100}}"# + "\n",
        ])
    }

    @Test func aSwipeCarriesItsDirection() {
        let swipe = GestureKind.swipe(directions: [.left, .up], touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5)
        var a = app([GestureRecognizerSpec(id: "swipe", view: "surface", kind: swipe)])
        let reports = a.send(frame(1, at(1, .began, 600, 600))) + a.send(frame(1.1, at(1, .moved, 590, 550)))
        #expect(lines(reports, a, .gestures) == [
            #"{"seq":1,"type":"gesture","time":1.1,"recognizer":"swipe","kind":"swipe","view":"surface","state":"recognized","location":{"x":590,"y":550},"touches":[1],"direction":"up"}"# + "\n",
        ])
    }

    @Test func aPinchAndARotationCarryTheirScaleAngleAndVelocity() {
        var a = app([
            GestureRecognizerSpec(id: "pinch", view: "surface", kind: .pinch(threshold: 1.1), recognizesSimultaneouslyWith: ["rotate"]),
            GestureRecognizerSpec(id: "rotate", view: "surface", kind: .rotation(thresholdRadians: 0.1)),
        ])
        // 200 apart on a horizontal line; then 400 apart; then turned a quarter turn.
        var reports = a.send(frame(1, at(1, .began, 400, 500), at(2, .began, 600, 500)))
        reports += a.send(frame(1.5, at(1, .moved, 300, 500), at(2, .moved, 700, 500)))
        reports += a.send(frame(2, at(1, .moved, 500, 300), at(2, .moved, 500, 700)))
        let gestures = lines(reports, a, .gestures)
        #expect(gestures == [
            #"{"seq":1,"type":"gesture","time":1.5,"recognizer":"pinch","kind":"pinch","view":"surface","state":"began","location":{"x":500,"y":500},"touches":[1,2],"scale":2,"velocity":0}"# + "\n",
            #"{"seq":1,"type":"gesture","time":2,"recognizer":"pinch","kind":"pinch","view":"surface","state":"changed","location":{"x":500,"y":500},"touches":[1,2],"scale":2,"velocity":0}"# + "\n",
            #"{"seq":1,"type":"gesture","time":2,"recognizer":"rotate","kind":"rotation","view":"surface","state":"began","location":{"x":500,"y":500},"touches":[1,2],"rotation":1.570796,"velocity":0}"# + "\n",
        ])
    }

    @Test func aButtonsActionReachesItsHandlerWithTheControlApartFromThePayload() {
        var a = app([])
        let reports = a.send(frame(1, at(1, .began, 50, 50))) + a.send(frame(1.05, at(1, .ended, 50, 50)))
        #expect(lines(reports, a, .actions) == [
            #"{"seq":1,"type":"action","time":1.05,"name":"saved","responder":"surface","event":"action","view":"ok","touches":[1],"payload":{"n":1},"control":"ok","control_event":"touch_up_inside","control_action":"save"}"# + "\n",
        ])
    }

    @Test func aControlsActionNoResponderTakesReachesClientsWithNoResponderAndItsValue() {
        var tree = ViewTree()
        try! tree.addWindow("w", WindowProperties(size: Size(width: 1000, height: 1000)))
        try! tree.addView("volume", parent: "w", ViewProperties(frame: Rect(x: 0, y: 0, width: 100, height: 40)))
        var a = Application(
            tree: tree,
            controls: [ControlSpec(view: "volume", kind: .slider(minimum: 0, maximum: 10, value: 0, step: 1), targets: [ControlTarget(event: .valueChanged, action: "set-volume")])])
        let reports = a.send(frame(1, at(1, .began, 42, 20)))
        #expect(lines(reports, a, .actions) == [
            #"{"seq":1,"type":"action","time":1,"name":"set-volume","responder":null,"event":"action","view":"volume","touches":[1],"payload":{},"control":"volume","control_event":"value_changed","control_action":"set-volume","value":4}"# + "\n",
        ])
    }
}
