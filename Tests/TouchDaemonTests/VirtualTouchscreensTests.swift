import Testing
import TouchCore
import TouchDaemon
import TouchEvdev
import TouchSystem

/// The windows' virtual touchscreens, with devices that record what they are given: made for the
/// windows that forward, fed what the application forwards, removed when a layout drops them and
/// when the daemon stops, and a device that cannot be made said once without stopping the rest.
@Suite struct VirtualTouchscreensTests {
    final class FakeDevice: VirtualTouchscreenOutput {
        let description: VirtualTouchscreenDescription
        var events: [InputEvent] = []
        var destroyed = false
        init(_ description: VirtualTouchscreenDescription) { self.description = description }
        func write(_ events: [InputEvent]) throws { self.events += events }
        func destroy() { destroyed = true }
    }

    final class Recorder {
        var devices: [FakeDevice] = []
        var warnings: [String] = []
        var refuse: Set<String> = []
    }

    func screens(_ recorder: Recorder) -> VirtualTouchscreens {
        VirtualTouchscreens(
            make: { description in
                if recorder.refuse.contains(description.window) {
                    throw SystemError(call: "open", subject: "/dev/uinput", errno: 2)
                }
                let device = FakeDevice(description)
                recorder.devices.append(device)
                return device
            },
            warn: { recorder.warnings.append($0) })
    }

    /// Two windows, "a" forwarding unclaimed touches and "b" everything; "c" nothing.
    func application(forwarding windows: [ResponderID: ForwardMode] = ["a": .unclaimed, "b": .all]) -> Application {
        var tree = ViewTree()
        for (i, id) in ["a", "b", "c"].enumerated() {
            try? tree.addWindow(ResponderID(id), WindowProperties(size: Size(width: 1280, height: 800), display: "d\(i)"))
        }
        var app = Application(tree: tree)
        app.forwardModes = windows
        return app
    }

    @Test func eachForwardingWindowGetsItsOwnTouchscreen() {
        let recorder = Recorder()
        let sink = screens(recorder)
        sink.applicationChanged(application())
        #expect(sink.windows == ["a", "b"])
        #expect(recorder.devices.map(\.description.name) == ["touchd virtual touchscreen a", "touchd virtual touchscreen b"])
        #expect(recorder.warnings.isEmpty)
    }

    @Test func forwardedTouchesArePlayedOnTheirWindowsTouchscreen() {
        let recorder = Recorder()
        let sink = screens(recorder)
        var app = application()
        sink.applicationChanged(app)
        for report in app.send(InputFrame(device: "dev", window: "b", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 10, y: 20))])) {
            sink.deliver(report)
        }
        #expect(recorder.devices[0].events.isEmpty, "window a got nothing")
        let events = recorder.devices[1].events
        #expect(events.contains(InputEvent(time: EventTime(microseconds: 0), type: EventType.abs, code: AbsCode.mtPositionX, value: 80)))
        #expect(events.last?.type == EventType.syn)
    }

    @Test func aReloadThatDropsAWindowsForwardingRemovesItsTouchscreenCancellingItsTouches() {
        let recorder = Recorder()
        let sink = screens(recorder)
        var app = application()
        sink.applicationChanged(app)
        for report in app.send(InputFrame(device: "dev", window: "a", timestamp: 1, contacts: [InputContact(id: 1, phase: .began, location: Point(x: 10, y: 20))])) {
            sink.deliver(report)
        }
        sink.applicationChanged(application(forwarding: ["b": .all]))
        #expect(sink.windows == ["b"])
        #expect(recorder.devices[0].destroyed)
        #expect(recorder.devices[0].events.contains { $0.code == AbsCode.mtToolType && $0.value == MTToolType.palm }, "its touch was cancelled")
        #expect(!recorder.devices[1].destroyed)
        #expect(recorder.devices.count == 2, "b's touchscreen stays as it was")
        sink.stop()
        #expect(recorder.devices.allSatisfy { $0.destroyed })
        #expect(sink.windows.isEmpty)
    }

    @Test func aTouchscreenThatCannotBeMadeIsSaidOnceAndTheOthersWork() {
        let recorder = Recorder()
        recorder.refuse = ["a"]
        let sink = screens(recorder)
        sink.applicationChanged(application())
        #expect(sink.windows == ["b"])
        #expect(recorder.warnings.count == 1)
        #expect(recorder.warnings.first?.contains("cannot create the virtual touchscreen of window a") == true)
        #expect(recorder.warnings.first?.contains("/dev/uinput") == true)
    }
}
