import Testing
import TouchCore
import TouchEvdev
import TouchProtocol

/// `touchd debug-events`: each kind of line, as its help describes it.
@Suite(.timeLimit(.minutes(10))) struct DebugEventLineTests {
    static let pad = DeviceFacts(
        description: DeviceDescription(name: "Pad", vendor: 1, product: 2),
        origin: .node(UdevInputDevice(syspath: "/sys/x/event4", devnode: "/dev/input/event4", properties: ["ID_INPUT_TOUCHSCREEN": "1"]), physicalPath: nil))

    @Test func devicesAreNamedByIdentityAndNode() {
        #expect(
            DebugEventLine.added(Self.pad, time: EventTime(microseconds: 12_500_000)).text
                == #"{"event":"added","device":"0001:0002/Pad","devnode":"/dev/input/event4","name":"Pad","kind":"touchscreen","#
                + #""kind_from":"touchscreen (udev property ID_INPUT_TOUCHSCREEN=1)","time":12.5}"#)
        #expect(DebugEventLine.removed(Self.pad, time: EventTime(microseconds: 13_000_000)).text == #"{"event":"removed","device":"0001:0002/Pad","devnode":"/dev/input/event4","time":13}"#)
        #expect(DebugEventLine.dropped(Self.pad, time: EventTime(microseconds: 1_000_000)).text == #"{"event":"dropped","device":"0001:0002/Pad","time":1}"#)
        #expect(DebugEventLine.anomaly(Self.pad, "odd").text == #"{"event":"anomaly","device":"0001:0002/Pad","anomaly":"odd"}"#)
    }

    @Test func aFrameListsItsContactsWithWhatTheDeviceReports() {
        let contacts = [
            DeviceContact(id: 7, phase: .moved, x: 10, y: -2, touchMajor: 30, pressure: 40, toolType: 0, slot: 1),
            DeviceContact(id: 8, phase: .began, x: 0, y: 0, toolType: 9),
        ]
        #expect(
            DebugEventLine.frame(Self.pad, time: EventTime(microseconds: 250_000), contacts: contacts).text
                == #"{"event":"frame","device":"0001:0002/Pad","devnode":"/dev/input/event4","time":0.25,"contacts":["#
                + #"{"id":7,"phase":"moved","x":10,"y":-2,"pressure":40,"touch_major":30,"tool":"MT_TOOL_FINGER","slot":1},"#
                + #"{"id":8,"phase":"began","x":0,"y":0,"tool":"9"}]}"#)
    }

    @Test func readyAndErrorsSayWhatTheyConcern() {
        #expect(DebugEventLine.ready(devices: 2, hotplug: "udev").text == #"{"event":"ready","devices":2,"hotplug":"udev"}"#)
        #expect(DebugEventLine.ready(devices: 0, hotplug: nil).text == #"{"event":"ready","devices":0,"hotplug":null}"#)
        #expect(DebugEventLine.deviceError(devnode: "/dev/input/event9", error: "gone").text == #"{"event":"error","devnode":"/dev/input/event9","error":"gone"}"#)
        #expect(DebugEventLine.deviceError(devnode: nil, error: "no sysfs").text == #"{"event":"error","devnode":null,"error":"no sysfs"}"#)
        #expect(DebugEventLine.error("no hotplug: x").text == #"{"event":"error","error":"no hotplug: x"}"#)
    }
}
