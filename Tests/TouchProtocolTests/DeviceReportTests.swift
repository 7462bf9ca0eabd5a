import Testing
import TouchCore
import TouchEvdev
import TouchProtocol

/// `touchd devices --json`: each device's entry, member by member (axes by code), and a node that
/// could not be opened.
@Suite(.timeLimit(.minutes(10))) struct DeviceReportTests {
    /// A two-slot touchscreen with a resolution on x only, a pressure axis and no size axis.
    static let panel = DeviceDescription(
        name: "Panel \"7\"", bus: 3, vendor: 0x03eb, product: 0x8c1f,
        properties: [InputProperty.direct],
        codes: [
            EventType.key: [KeyCode.btnTouch],
            EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID, AbsCode.mtPressure],
        ],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, resolution: 13),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 2303),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, fuzz: 4, resolution: 13),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2303),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
        ])

    @Test func aDeviceIsListedWithEverythingKnownOfIt() {
        let udev = UdevInputDevice(
            syspath: "/sys/devices/pci0000:00/input/input7/event5", devnode: "/dev/input/event5",
            properties: ["ID_INPUT_TOUCHSCREEN": "1", "ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0", "ID_SERIAL": "noserial", "DEVNAME": "x"],
            isInitialized: true)
        let facts = DeviceFacts(description: Self.panel, origin: .node(udev, physicalPath: "usb-0000:00:14.0-2/input0"))
        let expected =
            #"{"devnode":"/dev/input/event5","syspath":"/sys/devices/pci0000:00/input/input7/event5","name":"Panel \"7\"","#
            + #""bus":"0x0003","vendor":"0x03eb","product":"0x8c1f","kind":"touchscreen","kind_from":"udev property","#
            + #""kind_reason":"ID_INPUT_TOUCHSCREEN=1","used_as":"touchscreen","protocol":"B","slots":2,"direct":true,"#
            + #""semi_mt":false,"buttonpad":false,"position":{"x":{"code":"ABS_MT_POSITION_X","min":0,"max":4095,"#
            + #""resolution":13,"fuzz":4,"mm":315},"y":{"code":"ABS_MT_POSITION_Y","min":0,"max":2303,"resolution":0,"fuzz":0}},"#
            + #""pressure":{"code":"ABS_MT_PRESSURE","min":0,"max":255,"resolution":0,"fuzz":0},"size":null,"#
            + #""axes":{"ABS_X":{"min":0,"max":4095,"resolution":13,"fuzz":0,"mm":315},"ABS_Y":{"min":0,"max":2303,"resolution":0,"fuzz":0},"#
            + #""ABS_MT_SLOT":{"min":0,"max":1,"resolution":0,"fuzz":0},"#
            + #""ABS_MT_POSITION_X":{"min":0,"max":4095,"resolution":13,"fuzz":4,"mm":315},"#
            + #""ABS_MT_POSITION_Y":{"min":0,"max":2303,"resolution":0,"fuzz":0},"#
            + #""ABS_MT_TRACKING_ID":{"min":0,"max":65535,"resolution":0,"fuzz":0},"#
            + #""ABS_MT_PRESSURE":{"min":0,"max":255,"resolution":0,"fuzz":0}},"#
            + #""identity":"pci-0000:00:14.0-usb-0:2:1.0/03eb:8c1f/Panel \"7\"","phys":"usb-0000:00:14.0-2/input0","#
            + #""udev_initialized":true,"udev":{"ID_INPUT_TOUCHSCREEN":"1","ID_PATH":"pci-0000:00:14.0-usb-0:2:1.0","ID_SERIAL":"noserial"},"#
            + #""layout":"device[0] → window main"}"#
        #expect(DeviceReport.device(facts, layoutMatch: "device[0] → window main").json.jsonText == expected)
    }

    @Test func withoutUdevOrALayoutTheirMembersSaySo() {
        let udev = UdevInputDevice(syspath: "/sys/x/event1", devnode: "/dev/input/event1")
        let text = DeviceReport.device(DeviceFacts(description: Self.panel, origin: .node(udev, physicalPath: nil)), layoutMatch: nil).json.jsonText
        #expect(text.contains(#""kind":"touchscreen","kind_from":"capabilities","kind_reason":"INPUT_PROP_DIRECT""#), "\(text)")
        #expect(text.hasSuffix(#""identity":"03eb:8c1f/Panel \"7\"","phys":null,"udev_initialized":false,"udev":{},"layout":null}"#), "\(text)")
    }

    @Test func theListIsOneArrayWithUnreadableNodesInPlace() {
        let udev = UdevInputDevice(syspath: "/sys/x/event1", devnode: "/dev/input/event1")
        let device = DeviceReport.device(DeviceFacts(description: DeviceDescription(name: "k"), origin: .node(udev, physicalPath: nil)), layoutMatch: nil)
        let text = DeviceReport.text([.unreadable(devnode: "/dev/input/event0", error: "open: \"denied\""), device])
        #expect(text.hasPrefix(#"[{"devnode":"/dev/input/event0","error":"open: \"denied\""},{"devnode":"/dev/input/event1","#), "\(text)")
        #expect(DeviceReport.text([]) == "[]")
        #expect(DeviceReport.hex4(0x3) == "0x0003" && DeviceReport.axisName(0x3f) == "ABS_63")
    }
}
